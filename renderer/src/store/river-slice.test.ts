/**
 * The river slice against a hand-driven stand-in for the transport, so the test decides the order
 * in which answers and events arrive (the real order is a race between HTTP and the WebSocket).
 */
import { describe, expect, it } from 'vitest';
import type { RiverGroup, RiverPage, TidingsApi } from '../../../src/app/api';
import { deferred, riverGroup, riverItem } from '../testing/fixtures';
import { isRead } from './reading-marks';
import { createAppStore } from './store';

const T0 = '2026-11-20T10:00:00.000Z';
const group = (feedId: number, ...ids: number[]): RiverGroup =>
  riverGroup(
    feedId,
    ids.map((id) => riverItem(id, feedId, { title: `item ${id}`, seenAt: T0 })),
    { feedTitle: `Feed ${feedId}`, updatedAt: T0 },
  );

function fakeApi(pages: Promise<RiverPage>[]) {
  const asked: unknown[] = [];
  const api = {
    river: (q: unknown) => {
      asked.push(q);
      return pages.shift() ?? Promise.resolve({ groups: [], nextCursor: null });
    },
    getSettings: async () => ({ pollIntervalMin: 60, retentionDays: 30, images: 'clickToLoad' }),
    markRead: async () => {},
    listFeeds: async () => [],
  } as unknown as TidingsApi;
  return { api, asked };
}

describe('river slice', () => {
  it('news that arrives while the river is loading is fetched once the load is in', async () => {
    const first = deferred<RiverPage>();
    const { api, asked } = fakeApi([
      first.promise,
      Promise.resolve({ groups: [group(1, 2, 1)], nextCursor: null }),
    ]);
    const store = createAppStore(api);
    const loading = store.getState().loadRiver();
    // The feed's first items land after the load's request left: its answer is empty.
    await store.getState().refreshHead();
    first.resolve({ groups: [], nextCursor: null });
    await loading;
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toHaveLength(2);
    expect(store.getState().groups.flatMap((g) => g.items.map((i) => i.id))).toEqual([2, 1]);
  });

  it('reads the image policy from the settings when the river loads', async () => {
    const { api } = fakeApi([]);
    const store = createAppStore(api);
    await store.getState().loadRiver();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().imagePolicy).toBe('clickToLoad');
  });

  it('shows no item before the image policy is known, even when the river answers first', async () => {
    const settings = deferred<{ images: string }>();
    const { api } = fakeApi([Promise.resolve({ groups: [group(1, 2, 1)], nextCursor: null })]);
    (api as unknown as { getSettings: () => Promise<unknown> }).getSettings = () => settings.promise;
    const store = createAppStore(api);
    const loading = store.getState().loadRiver();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().riverStatus).toBe('loading');
    expect(store.getState().groups).toEqual([]);
    settings.resolve({ images: 'clickToLoad' });
    await loading;
    expect(store.getState().imagePolicy).toBe('clickToLoad');
    expect(store.getState().groups.flatMap((g) => g.items.map((i) => i.id))).toEqual([2, 1]);
  });

  it('j walks the loaded items in order and reads each one; k walks back', async () => {
    const { api } = fakeApi([Promise.resolve({ groups: [group(1, 5, 4), group(2, 3)], nextCursor: null })]);
    const store = createAppStore(api);
    await store.getState().loadRiver();
    const s = () => store.getState();
    expect(await s().selectNext(1)).toBe(5);
    expect(await s().selectNext(1)).toBe(4);
    expect(await s().selectNext(1)).toBe(3);
    expect(await s().selectNext(1)).toBe(3);
    expect(await s().selectNext(-1)).toBe(4);
    // Shown read at once (isRead: the keys' reads wait a moment to be sent together)...
    expect(s().groups.flatMap((g) => g.items.filter((i) => isRead(s(), i)).map((i) => i.id))).toEqual([
      5, 4, 3,
    ]);
    // ...and in the river's groups once sent.
    await s().flushReadSoon();
    expect(s().groups.flatMap((g) => g.items.filter((i) => i.read).map((i) => i.id))).toEqual([5, 4, 3]);
  });

  it('j walks the search results while they are shown, not the river behind them', async () => {
    const { api } = fakeApi([Promise.resolve({ groups: [group(1, 5, 4)], nextCursor: null })]);
    const store = createAppStore(api);
    await store.getState().loadRiver();
    store.setState({ searchResults: group(2, 9, 8).items });
    expect(await store.getState().selectNext(1)).toBe(9);
    expect(await store.getState().selectNext(1)).toBe(8);
  });

  it('a read the core refuses goes back', async () => {
    const { api } = fakeApi([Promise.resolve({ groups: [group(1, 5, 4)], nextCursor: null })]);
    (api as unknown as { markRead: () => Promise<void> }).markRead = async () => {
      throw new Error('refused');
    };
    const store = createAppStore(api);
    await store.getState().loadRiver();
    await store.getState().markRead([5], true);
    expect(store.getState().groups[0]!.items.map((i) => i.read)).toEqual([false, false]);
  });

  it('changed items are re-read in place: new text, same spot, selection and own read kept', async () => {
    const { api } = fakeApi([Promise.resolve({ groups: [group(1, 5, 4), group(2, 3)], nextCursor: null })]);
    // The reader's reads are still on their way to the core while it answers.
    const sent = deferred<void>();
    (api as unknown as { markRead: () => Promise<void> }).markRead = () => sent.promise;
    const asked: number[][] = [];
    (api as unknown as { riverItemsById: TidingsApi['riverItemsById'] }).riverItemsById = async (ids) => {
      asked.push(ids);
      // The core's copy says unread: the reader's own read (still on its way) must win.
      return [{ ...group(1, 4).items[0]!, title: 'item 4, edited' }];
    };
    const store = createAppStore(api);
    await store.getState().loadRiver();
    await store.getState().selectNext(1);
    await store.getState().selectNext(1); // 4: selected and read
    const untouched = store.getState().groups[1];
    await store.getState().refreshItems([4, 77]);
    expect(asked).toEqual([[4]]); // 77 is not loaded: it comes fresh with its page
    const s = store.getState();
    expect(s.groups[0]!.items.map((i) => [i.id, i.title, isRead(s, i)])).toEqual([
      [5, 'item 5', true],
      [4, 'item 4, edited', true],
    ]);
    expect(s.selectedItemId).toBe(4);
    expect(s.groups[1]).toBe(untouched);
    sent.resolve();
  });

  it('a read or star made on another device reaches an item already loaded, wherever it is', async () => {
    const { api } = fakeApi([Promise.resolve({ groups: [group(1, 5, 4), group(2, 3)], nextCursor: null })]);
    (api as unknown as { riverItemsById: TidingsApi['riverItemsById'] }).riverItemsById = async () => [
      { ...group(2, 3).items[0]!, read: true, starred: true },
    ];
    const store = createAppStore(api);
    await store.getState().loadRiver();
    // A phone read and starred item 3 (the core says so in river.changed's changedItems).
    await store.getState().refreshItems([3]);
    expect(store.getState().groups[1]!.items[0]).toMatchObject({ id: 3, read: true, starred: true });
  });
});
