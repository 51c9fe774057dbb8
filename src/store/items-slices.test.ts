/**
 * upsertItemsInSlices: a long list written a few hundred items per transaction, with the event
 * loop free in between, and the same outcome as one upsertItems (first of each guid wins).
 */
import { expect, it } from 'vitest';
import type { Store } from './store.ts';
import { openStoreEachTest } from './test-store.ts';
import { makeItem } from './test-support.ts';

let store: Store;
let feedId: number;

openStoreEachTest((fx) => ({ store, feedId } = fx));

it('writes 1,000 items in slices, lets timers run between them, and keeps the first of a guid', async () => {
  const items = Array.from({ length: 1_000 }, (_, i) => makeItem(`g${i}`, { title: `first ${i}` }));
  // The same guid again past a slice boundary, with other content: the first one wins.
  items.push(makeItem('g3', { title: 'second g3' }));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const r = await store.upsertItemsInSlices(feedId, items, 1_000);
  clearInterval(timer);
  expect(ticks).toBeGreaterThan(0);
  expect(r).toMatchObject({ updated: 0 });
  expect(r.inserted).toHaveLength(1_000);
  expect(store.getFeed(feedId)?.unread).toBe(1_000);
  const titles = store.search('second').map((i) => i.title);
  expect(titles).toEqual([]);
  // Ids in document order, as one transaction would give them.
  expect([...r.inserted].sort((a, b) => a - b)).toEqual(r.inserted);
});

it('stops writing when the feed is removed between slices', async () => {
  const items = Array.from({ length: 1_000 }, (_, i) => makeItem(`g${i}`));
  const writing = store.upsertItemsInSlices(feedId, items, 1_000);
  store.removeFeed(feedId);
  const r = await writing;
  expect(r.inserted.length).toBeLessThan(1_000);
  expect(store.riverItems({}).items).toEqual([]);
});
