/**
 * The Atom feed as the W3C Feed Validator reads it (issue 14): every entry's id an IRI of a
 * registered scheme (urn:uuid), a legacy `tidings:<uuid>` id carried over as the same uuid, and
 * a non-empty title (atom:entry MUST have one) taken from the post's own words.
 */
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../feed/parse.ts';
import type { StoredPost } from './post.ts';
import type { SiteInput } from './site.ts';
import { atomEntryId, writePostsAtom } from './write-atom.ts';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

function post(id: number, guid: string, text: string): StoredPost {
  const at = Date.UTC(2026, 10, 20, 12) + id * 60_000;
  return {
    id,
    guid,
    rev: 1,
    createdAt: at,
    updatedAt: at,
    text,
    link: null,
    enclosure: null,
    tags: [],
    children: [],
  };
}

function site(posts: StoredPost[]): SiteInput {
  return {
    title: 'Mine',
    description: 'd',
    link: 'https://me.example.com/',
    language: 'en',
    generator: 'Tidings test',
    urls: { rss: null, atom: 'https://me.example.com/feed.atom', json: null, home: null },
    cloud: null,
    hubs: [],
    mediaBase: null,
    posts,
    blogroll: null,
  };
}

const long = `${'word '.repeat(30)}and the end of a long post that goes on`;

describe('the Atom feed validates', () => {
  const xml = writePostsAtom(
    site([
      post(1, `tidings:${UUID}`, 'An old post'),
      post(2, 'urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7', 'Line one\nline two  with  spaces'),
      post(3, 'urn:uuid:16fd2706-8baf-433b-82eb-8c7fada847da', long),
    ]),
  );
  const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1]!);

  it('gives every entry an id of a registered URI scheme, an old post the same uuid', () => {
    const ids = entries.map((e) => /<id>([^<]*)<\/id>/.exec(e)?.[1]);
    expect(ids).toEqual([
      `urn:uuid:${UUID}`,
      'urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7',
      'urn:uuid:16fd2706-8baf-433b-82eb-8c7fada847da',
    ]);
    expect(atomEntryId('tag:me.example.com,2026:1')).toBe('tag:me.example.com,2026:1');
  });

  it('gives every entry a non-empty title from its own words, on one line, cut at a word', () => {
    expect(xml).not.toMatch(/<title[^>]*>\s*<\/title>/);
    const parsed = parseFeed(new TextEncoder().encode(xml), { contentType: 'application/atom+xml' });
    if (parsed.kind !== 'feed') throw new Error('not a feed');
    const titles = parsed.feed.items.map((i) => i.title);
    expect(titles.slice(0, 2)).toEqual(['An old post', 'Line one line two with spaces']);
    expect(titles[2]).toMatch(/^word word .*word…$/);
    expect([...new Intl.Segmenter().segment(titles[2]!)].length).toBeLessThanOrEqual(80);
  });
});
