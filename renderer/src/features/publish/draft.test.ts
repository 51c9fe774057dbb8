/** The composer's form -> PostInput (and back), and why Post is refused, counted in graphemes. */
import { describe, expect, it } from 'vitest';
import type { PostView } from '../../../../src/app/api';
import {
  base64Bytes,
  draftProblem,
  emptyDraft,
  fromPostInput,
  fromPostView,
  isEmpty,
  newChild,
  parseTags,
  toDraftInput,
  toPostInput,
  updateChildren,
} from './draft';

describe('composer draft', () => {
  it('sends only what was filled in, tags split and deduplicated', () => {
    const input = toPostInput({
      ...emptyDraft(),
      text: 'Hello',
      link: '  https://example.org/a  ',
      tags: 'news, News ,, rss',
    });
    expect(input).toEqual({
      text: 'Hello',
      link: 'https://example.org/a',
      enclosure: null,
      tags: ['news', 'rss'],
      children: [],
    });
    expect(parseTags('')).toEqual([]);
  });

  it('prefers a dropped file over a typed enclosure URL', () => {
    const file = { fileName: 'p.png', dataBase64: 'iVBORw0KGgo=', size: 8 };
    expect(
      toPostInput({ ...emptyDraft(), text: 'x', enclosureUrl: 'https://e.org/a.mp3', enclosureFile: file })
        .enclosure,
    ).toEqual({
      fileName: 'p.png',
      dataBase64: 'iVBORw0KGgo=',
    });
    expect(
      toPostInput({ ...emptyDraft(), text: 'x', enclosureUrl: ' https://e.org/a.mp3 ' }).enclosure,
    ).toEqual({
      url: 'https://e.org/a.mp3',
    });
  });

  it('writes the outline to any depth and drops blank rows', () => {
    const leaf = { ...newChild('deep'), children: [] };
    const mid = { ...newChild('mid'), children: [leaf, newChild('  ')] };
    const input = toPostInput({ ...emptyDraft(), text: 'top', children: [mid, newChild('')] });
    expect(input.children).toEqual([{ text: 'mid', children: [{ text: 'deep', children: [] }] }]);
  });

  it('round-trips a saved draft, file included', () => {
    const draft = {
      ...emptyDraft(),
      text: 'Draft 👍',
      tags: 'a, b',
      enclosureFile: { fileName: 'a.jpg', dataBase64: 'AAAA', size: 3 },
      children: [{ ...newChild('one'), children: [newChild('two')] }],
    };
    const back = fromPostInput(toPostInput(draft));
    expect(toPostInput(back)).toEqual(toPostInput(draft));
    expect(back.enclosureFile?.size).toBe(3);
  });

  it('opens a published post for editing with its enclosure kept by URL', () => {
    const view: PostView = {
      id: 7,
      guid: 'g7',
      text: 'Edited',
      link: 'https://example.org',
      enclosure: { url: 'http://127.0.0.1:1/media/a.png', type: 'image/png', length: 10 },
      tags: ['x'],
      children: [{ ...({} as PostView), id: 0, text: 'child', children: [] }],
      createdAt: '',
      updatedAt: '',
      state: 'published',
      saves: [],
      pings: [],
      cloudAnswer: null,
    };
    const d = fromPostView(view);
    expect(toPostInput(d)).toEqual({
      text: 'Edited',
      link: 'https://example.org',
      enclosure: { url: 'http://127.0.0.1:1/media/a.png' },
      tags: ['x'],
      children: [{ text: 'child', children: [] }],
    });
  });

  it('refuses over the limit counting graphemes, with the reason, sub-items included', () => {
    const family = '👨‍👩‍👧‍👦';
    expect(draftProblem({ ...emptyDraft(), text: family.repeat(140) }, 140)).toBeNull();
    expect(draftProblem({ ...emptyDraft(), text: family.repeat(141) }, 140)).toMatch(
      /141 characters; the limit is 140 \(1 over\)/,
    );
    expect(draftProblem({ ...emptyDraft(), text: '   ' }, 140)).toMatch(/needs some text/);
    const long = { ...newChild('ok'), children: [newChild('é'.repeat(11))] };
    expect(draftProblem({ ...emptyDraft(), text: 'fine', children: [long] }, 10)).toMatch(
      /Sub-item 1\.1 is 11 characters/,
    );
  });

  it('edits a nested list by path', () => {
    const tree = [{ ...newChild('a'), children: [newChild('b')] }];
    const next = updateChildren(tree, [0], (list) => [...list, newChild('c')]);
    expect(next[0]?.children.map((c) => c.text)).toEqual(['b', 'c']);
    expect(tree[0]?.children).toHaveLength(1);
  });

  it('keeps a small file in the draft, leaves a large one for Post, and saves nothing for an empty form', () => {
    const small = { fileName: 's.png', dataBase64: 'AAAA', size: 3 };
    const large = { fileName: 'l.mov', dataBase64: 'AAAA', size: 3 * 1024 * 1024 };
    expect(toDraftInput({ ...emptyDraft(), text: 'x', enclosureFile: small })?.enclosure).toEqual({
      fileName: 's.png',
      dataBase64: 'AAAA',
    });
    const kept = toDraftInput({ ...emptyDraft(), text: 'x', enclosureFile: large });
    expect(kept?.text).toBe('x');
    expect(kept?.enclosure).toBeNull();
    expect(toPostInput({ ...emptyDraft(), text: 'x', enclosureFile: large }).enclosure).toMatchObject({
      fileName: 'l.mov',
    });
    expect(toDraftInput(emptyDraft())).toBeNull();
  });

  it('knows an empty form and a base64 size', () => {
    expect(isEmpty(emptyDraft())).toBe(true);
    expect(isEmpty({ ...emptyDraft(), tags: 'x' })).toBe(false);
    expect(base64Bytes('AAAA')).toBe(3);
    expect(base64Bytes('AAA=')).toBe(2);
    expect(base64Bytes('AA==')).toBe(1);
  });
});
