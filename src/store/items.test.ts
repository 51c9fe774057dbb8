import { describe, expect, it } from 'vitest';
import type { Store } from './store.ts';
import { openStoreEachTest } from './test-store.ts';
import { makeItem } from './test-support.ts';

let store: Store;
let feedId: number;

openStoreEachTest((fx) => ({ store, feedId } = fx));

describe('upsertItems', () => {
  it('inserts new items and returns their row ids in feed order', () => {
    const r = store.upsertItems(feedId, [makeItem('a'), makeItem('b'), makeItem('c')], 1000);
    expect(r.updated).toBe(0);
    expect(r.inserted).toHaveLength(3);
    const rows = store.riverItems({}).items;
    expect(rows.map((i) => i.guid).sort()).toEqual(['a', 'b', 'c']);
    const a = rows.find((i) => i.guid === 'a')!;
    expect(r.inserted[0]).toBe(a.id);
    expect(a).toMatchObject({ feedId, seenAt: 1000, read: false, starred: false, title: 'Title a' });
  });

  it('places a backlog by its dates, but an item dated in the minute before its fetch at the fetch', () => {
    // Undated items from another feed arrive live at 10:00:00.300; a new subscription is read
    // at 10:00:03 (a busy machine), and its newest item is dated 10:00:00 (RSS counts whole
    // seconds). That item is as new as anything here: it tops the river (a post of one's own sat
    // below them, out of sight). Its older item, five minutes old, keeps its own date.
    const second = Date.UTC(2026, 10, 29, 10, 0, 0);
    store.upsertItems(feedId, [makeItem('live')], second + 300);
    const other = store.addFeed({ url: 'https://b.example/own' }).feed.id;
    const iso = (t: number) => new Date(t).toISOString();
    store.upsertItems(
      other,
      [
        makeItem('just-posted', { published: iso(second) }),
        makeItem('older', { published: iso(second - 300_000) }),
      ],
      { at: second + 3000, backlog: true },
    );
    const river = store.riverItems({}).items;
    expect(river.map((i) => [i.guid, i.seenAt])).toEqual([
      ['just-posted', second + 3000],
      ['live', second + 300],
      ['older', second - 300_000],
    ]);
  });

  it('groups items by their feed in one query, in the order given, leaving unknown ids out', () => {
    const [a1, a2] = store.upsertItems(feedId, [makeItem('a1'), makeItem('a2')], 1000).inserted;
    const other = store.addFeed({ url: 'https://c.example/feed' }).feed.id;
    const [b1] = store.upsertItems(other, [makeItem('b1')], 1000).inserted;
    expect([...store.itemsByFeed([a2!, b1!, 99_999, a1!])]).toEqual([
      [feedId, [a2, a1]],
      [other, [b1]],
    ]);
    expect(store.itemsByFeed([]).size).toBe(0);
  });

  it('an unchanged item seen again is neither new nor updated', () => {
    store.upsertItems(feedId, [makeItem('a'), makeItem('b')], 1000);
    expect(store.upsertItems(feedId, [makeItem('a'), makeItem('b')], 2000)).toEqual({
      inserted: [],
      updated: 0,
      changed: [],
      muted: [],
    });
    expect(store.riverItems({}).items.every((i) => i.seenAt === 1000)).toBe(true);
  });

  it('a changed item is updated in place, keeping seenAt, read and starred', () => {
    const [id] = store.upsertItems(feedId, [makeItem('a', { title: 'Original wombat' })], 1000).inserted;
    store.markRead([id!], true);
    store.setStarred(id!, true);
    const changed = makeItem('a', {
      title: 'New title',
      content: '<p>more</p>',
      categories: [{ term: 't', scheme: null, label: null }],
    });
    // Only the changed one is named (b is new), so an open river can re-read it in place.
    expect(store.upsertItems(feedId, [changed, makeItem('b')], 2000)).toMatchObject({
      updated: 1,
      changed: [id],
    });
    const row = store.riverItems({}).items.find((i) => i.id === id)!;
    expect(row).toMatchObject({
      title: 'New title',
      content: '<p>more</p>',
      seenAt: 1000,
      read: true,
      starred: true,
      categories: [{ term: 't', scheme: null, label: null }],
    });
    expect(store.search('New title').map((i) => i.id)).toEqual([id]);
    expect(store.search('wombat')).toEqual([]);
  });

  it('identity is per feed: the same guid in two feeds is two items', () => {
    const other = store.addFeed({ url: 'https://b.example/feed' }).feed.id;
    expect(store.upsertItems(feedId, [makeItem('same')], 1).inserted).toHaveLength(1);
    expect(store.upsertItems(other, [makeItem('same')], 1).inserted).toHaveLength(1);
    expect(store.riverItems({}).items).toHaveLength(2);
  });

  it('a guid listed twice in one fetch is one item', () => {
    const r = store.upsertItems(feedId, [makeItem('a'), makeItem('a', { title: 'dup' })], 1);
    expect(r).toEqual({ inserted: [expect.any(Number)], updated: 0, changed: [], muted: [] });
    expect(store.riverItems({}).items[0]!.title).toBe('Title a');
  });

  it.each([
    ['guid', makeItem('g1', { link: 'https://x/1' }), makeItem('g1', { link: 'https://x/other' })],
    [
      'link when the id is empty',
      makeItem('', { link: 'https://x/1' }),
      makeItem('', { link: 'https://x/1' }),
    ],
    ['content when id and link are empty', makeItem('', { link: null }), makeItem('', { link: null })],
  ])('identity falls back: %s', (_name, first, second) => {
    store.upsertItems(feedId, [first], 1);
    expect(store.upsertItems(feedId, [second], 2).inserted).toEqual([]);
  });

  it('stores nested children, enclosures, media and authors', () => {
    const child = makeItem('child', { children: [makeItem('grandchild')] });
    const item = makeItem('parent', {
      children: [child],
      enclosures: [{ url: 'https://x/a.mp3', type: 'audio/mpeg', length: 123 }],
      authors: [{ name: 'Ann', email: null, uri: null }],
      media: [
        {
          url: 'https://x/i.jpg',
          type: null,
          medium: 'image',
          width: 1,
          height: 2,
          title: null,
          thumbnail: null,
        },
      ],
      comments: 'https://x/comments',
      published: '2026-01-02T03:04:05.000Z',
    });
    store.upsertItems(feedId, [item], 1);
    const row = store.riverItems({}).items[0]!;
    expect(row.children).toEqual([child]);
    expect(row.enclosures).toEqual(item.enclosures);
    expect(row.authors).toEqual(item.authors);
    expect(row.media).toEqual(item.media);
    expect(row.comments).toBe('https://x/comments');
    expect(row.published).toBe('2026-01-02T03:04:05.000Z');
    // Nested items' text is searchable through their parent.
    expect(store.search('grandchild').map((i) => i.guid)).toEqual(['parent']);
  });

  it('returns nothing for an unknown feed and an empty list', () => {
    expect(store.upsertItems(999, [makeItem('a')], 1)).toEqual({
      inserted: [],
      updated: 0,
      changed: [],
      muted: [],
    });
    expect(store.upsertItems(feedId, [], 1)).toEqual({ inserted: [], updated: 0, changed: [], muted: [] });
  });
});

describe('read and starred state', () => {
  it('markRead, markFeedRead, setStarred and unread counts', () => {
    const other = store.addFeed({ url: 'https://b/' }).feed.id;
    const ids = store.upsertItems(feedId, [makeItem('1'), makeItem('2'), makeItem('3')], 1).inserted;
    store.upsertItems(other, [makeItem('1'), makeItem('2')], 1);
    expect(store.unreadCount()).toBe(5);
    expect(store.unreadCount(feedId)).toBe(3);

    expect(store.markRead([ids[0]!, ids[1]!], true)).toBe(2);
    expect(store.markRead([ids[0]!], true)).toBe(0);
    expect(store.unreadCount(feedId)).toBe(1);
    expect(store.markRead([ids[0]!], false)).toBe(1);
    expect(store.unreadCount(feedId)).toBe(2);

    expect(store.markFeedRead(feedId)).toBe(2);
    expect(store.unreadCount(feedId)).toBe(0);
    expect(store.unreadCount(other)).toBe(2);
    expect(store.getFeed(feedId)!.unread).toBe(0);

    expect(store.setStarred(ids[2]!, true)).toBe(true);
    expect(store.riverItems({ starredOnly: true }).items.map((i) => i.id)).toEqual([ids[2]]);
    store.setStarred(ids[2]!, false);
    expect(store.riverItems({ starredOnly: true }).items).toEqual([]);
    expect(store.setStarred(424242, true)).toBe(false);
    expect(store.unreadCount(424242)).toBe(0);
  });
});
