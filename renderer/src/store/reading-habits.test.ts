/**
 * Issue 35 in the store, against a hand-driven stand-in for the transport: reads made by reading
 * (scrolling past, j held down) reach the core in batches; Space finds the next unread item,
 * loading more of the river; mark all above; the reader view's articles, two at a time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult, FullTextView, RiverGroup, TidingsApi } from '../../../src/app/api';
import { apiWith, deferred, riverGroup, riverItem } from '../testing/fixtures';
import { isRead, READ_SOON_MS } from './reading-marks';
import { createAppStore } from './store';

const group = (feedId: number, ...items: [number, boolean][]): RiverGroup =>
  riverGroup(
    feedId,
    items.map(([id, read]) => riverItem(id, feedId, { read, seenAt: '2026-11-20T10:00:00.000Z' })),
    { updatedAt: '2026-11-20T10:00:00.000Z' },
  );

async function storeWith(
  groups: RiverGroup[],
  more: Partial<TidingsApi> = {},
  nextCursor: string | null = null,
) {
  const calls: number[][] = [];
  const api = apiWith({
    river: async () => ({ groups, nextCursor }),
    getSettings: async () => ({ pollIntervalMin: 60, retentionDays: 30 }),
    markRead: async (ids: number[]) => {
      calls.push(ids);
    },
    listFeeds: async () => [],
    ...more,
  });
  const store = createAppStore(api);
  await store.getState().loadRiver();
  return { store, calls };
}

describe('reads made by reading are sent in batches', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('scrolled past: shown and sent together a moment later, once', async () => {
    const { store, calls } = await storeWith([group(1, [1, false], [2, false], [3, false])]);
    store.getState().readSoon([1]);
    store.getState().readSoon([2, 1]);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(READ_SOON_MS);
    expect(calls).toEqual([[1, 2]]);
    const read = store.getState().groups[0]!.items.map((i) => i.read);
    expect(read).toEqual([true, true, false]);
  });

  it('j held down: each item shows read at once, the core gets one call for the burst', async () => {
    const { store, calls } = await storeWith([group(1, [1, false], [2, false], [3, false])]);
    await store.getState().selectNext(1);
    await store.getState().selectNext(1);
    await store.getState().selectNext(1);
    // Shown read at once, without touching the river's groups (which would re-render every row).
    const before = store.getState().groups;
    expect(store.getState().groups[0]!.items.every((i) => isRead(store.getState(), i))).toBe(true);
    expect(store.getState().groups).toBe(before);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(READ_SOON_MS);
    expect(calls).toEqual([[1, 2, 3]]);
    expect(store.getState().groups[0]!.items.every((i) => i.read)).toBe(true);
    expect(store.getState().keyReads).toEqual({});
  });

  it('the page going away sends what waits at once', async () => {
    const { store, calls } = await storeWith([group(1, [1, false], [2, false])]);
    await store.getState().selectNext(1);
    store.getState().readSoon([2]);
    await store.getState().flushReadSoon();
    expect(calls.flat().sort()).toEqual([1, 2]);
  });
});

describe('Space and mark all above', () => {
  it('Space: the next unread item after the selection, read as it is reached', async () => {
    const { store } = await storeWith([group(1, [1, false], [2, true], [3, true], [4, false], [5, false])]);
    store.getState().selectItem(1);
    expect(await store.getState().selectNextUnread()).toBe(4);
    expect(store.getState().selectedItemId).toBe(4);
    store.getState().selectItem(2);
    // 4 was read on the way (a moment ago, not sent yet): 5 is next.
    expect(await store.getState().selectNextUnread()).toBe(5);
    expect(await store.getState().selectNextUnread()).toBeNull();
  });

  it('m on an item the keys just read makes it unread, and the waiting batch no longer reads it', async () => {
    const { store, calls } = await storeWith([group(1, [1, false], [2, false])]);
    await store.getState().selectNext(1);
    await store.getState().selectNext(1);
    await store.getState().markRead([2], false);
    await store.getState().flushReadSoon();
    expect(calls).toEqual([[1]]);
    expect(store.getState().groups[0]!.items.map((i) => isRead(store.getState(), i))).toEqual([true, false]);
  });

  it('mark all above: the unread items above, with an Undo that takes back only those', async () => {
    const { store, calls } = await storeWith([group(1, [1, false], [2, true], [3, false], [4, false])]);
    await store.getState().markAboveRead(4);
    expect(calls).toEqual([[1, 3]]);
    expect(store.getState().undo?.message).toBe('Marked 2 items read');
    await store.getState().runUndo();
    expect(store.getState().groups[0]!.items.map((i) => i.read)).toEqual([false, true, false, false]);
  });
});

describe('the reader view', () => {
  it('asks for articles two at a time, and keeps each answer, errors included', async () => {
    const answers = new Map<number, ReturnType<typeof deferred<ApiResult<FullTextView>>>>();
    const { store } = await storeWith([], {
      fullText: (id: number) => {
        const d = deferred<ApiResult<FullTextView>>();
        answers.set(id, d);
        return d.promise;
      },
    });
    for (const id of [1, 2, 3]) store.getState().setReader(id, true);
    await Promise.resolve();
    expect([...answers.keys()]).toEqual([1, 2]);
    answers
      .get(1)!
      .resolve({ ok: false, error: { code: 'fulltext.notArticle', message: 'Not an article.' } });
    await vi.waitFor(() => expect([...answers.keys()]).toEqual([1, 2, 3]));
    expect(store.getState().articles[1]).toEqual({
      status: 'error',
      code: 'fulltext.notArticle',
      message: 'Not an article.',
    });
    expect(store.getState().articles[3]).toEqual({ status: 'loading' });
    expect(store.getState().readerChoice).toEqual({ 1: true, 2: true, 3: true });
  });
});
