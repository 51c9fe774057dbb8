import { describe, expect, it } from 'vitest';
import { TOMBSTONE_GRACE_DAYS } from './retention.ts';
import type { Store } from './store.ts';
import { openStoreEachTest, TEST_FEED_URL } from './test-store.ts';
import { makeItem } from './test-support.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
let store: Store;
let feed: number;

openStoreEachTest((fx) => ({ store, feedId: feed } = fx));

describe('prune', () => {
  it('deletes unstarred items older than the retention, keeps starred and recent ones', () => {
    const [oldStarred] = store.upsertItems(feed, [makeItem('old-starred'), makeItem('old')], T0).inserted;
    store.setStarred(oldStarred!, true);
    store.upsertItems(feed, [makeItem('recent')], T0 + 25 * DAY);
    expect(store.unreadCount()).toBe(3);

    expect(store.prune(T0 + 31 * DAY, 30)).toBe(1);
    expect(
      store
        .riverItems({})
        .items.map((i) => i.guid)
        .sort(),
    ).toEqual(['old-starred', 'recent']);
    expect(store.unreadCount(feed)).toBe(2);
    // Starred stays forever.
    expect(store.prune(T0 + 3650 * DAY, 30)).toBe(1);
    expect(store.riverItems({}).items.map((i) => i.guid)).toEqual(['old-starred']);
  });

  it("counts from an item's arrival, not from the date a backlog placed it at", () => {
    // A new subscription's backlog sits in the river at its own (old) dates; it arrived now, so a
    // prune right after must not delete it (it did: kill -9 and restart lost 800 of 4,000 items).
    const old = new Date(T0 - 90 * DAY).toISOString();
    const arrived = T0;
    store.upsertItems(feed, [makeItem('old-post', { published: old })], { at: arrived, backlog: true });
    expect(store.riverItems({}).items[0]!.seenAt).toBe(T0 - 90 * DAY);
    expect(store.prune(arrived + DAY, 30)).toBe(0);
    expect(store.riverItems({}).items.map((i) => i.guid)).toEqual(['old-post']);
    expect(store.prune(arrived + 31 * DAY, 30)).toBe(1);
  });

  it('pruned items never come back while the feed still lists them', () => {
    store.upsertItems(feed, [makeItem('a'), makeItem('b')], T0);
    expect(store.prune(T0 + 40 * DAY, 30)).toBe(2);
    expect(store.search('Title')).toEqual([]);
    const feedStillLists = [makeItem('a'), makeItem('b', { title: 'b changed' }), makeItem('c')];
    const again = store.upsertItems(feed, feedStillLists, T0 + 41 * DAY);
    expect(again.updated).toBe(0);
    expect(again.inserted).toHaveLength(1);
    expect(store.riverItems({}).items.map((i) => i.guid)).toEqual(['c']);
    // Listed daily for a long time: the tombstones are kept alive throughout.
    for (let d = 42; d < 42 + 2 * TOMBSTONE_GRACE_DAYS; d += 10) {
      expect(store.upsertItems(feed, feedStillLists, T0 + d * DAY).inserted).toEqual([]);
      store.prune(T0 + d * DAY, 30);
    }
  });

  it('drops tombstones the feed stopped listing long ago', () => {
    store.upsertItems(feed, [makeItem('a')], T0);
    store.prune(T0 + 40 * DAY, 30);
    store.prune(T0 + (41 + TOMBSTONE_GRACE_DAYS) * DAY, 30);
    // The identity is free again: an item reusing it (a reissued guid) is new.
    expect(
      store.upsertItems(feed, [makeItem('a')], T0 + (42 + TOMBSTONE_GRACE_DAYS) * DAY).inserted,
    ).toHaveLength(1);
  });

  it('tombstones are per feed and go with their feed', () => {
    const other = store.addFeed({ url: 'https://b/' }).feed.id;
    store.upsertItems(feed, [makeItem('a')], T0);
    store.prune(T0 + 40 * DAY, 30);
    expect(store.upsertItems(other, [makeItem('a')], T0 + 41 * DAY).inserted).toHaveLength(1);
    store.removeFeed(feed);
    const back = store.addFeed({ url: TEST_FEED_URL }).feed.id;
    expect(store.upsertItems(back, [makeItem('a')], T0 + 42 * DAY).inserted).toHaveLength(1);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('retention %d keeps everything', (days) => {
    store.upsertItems(feed, [makeItem('a')], T0);
    expect(store.prune(T0 + 10_000 * DAY, days)).toBe(0);
    expect(store.riverItems({}).items).toHaveLength(1);
  });
});
