/**
 * Command answers and events race (HTTP vs WebSocket): a 'feed.status' event that arrives while
 * a listFeeds or subscribe answer is on its way is newer, and the older snapshot must not undo it.
 * The API here is a hand-driven stand-in for the transport, so the test controls the order.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResult, FeedView } from '../../../src/app/api';
import { apiWith, deferred, feedView } from '../testing/fixtures';
import { createAppStore } from './store';

const view = (id: number, delivery: string): FeedView => feedView(id, { delivery });

describe('feeds slice', () => {
  it('keeps a feed.status event that arrived while listFeeds was in flight', async () => {
    const listed = deferred<FeedView[]>();
    const store = createAppStore(apiWith({ listFeeds: () => listed.promise }));
    const loading = store.getState().loadFeeds();
    store.getState().upsertFeed(view(1, 'real-time via cloud.example (renews in 23 h)'));
    listed.resolve([
      view(1, 'polled every 60 min (asking cloud.example for notifications)'),
      view(2, 'polled'),
    ]);
    await loading;
    expect(store.getState().feeds.map((f) => f.delivery)).toEqual([
      'real-time via cloud.example (renews in 23 h)',
      'polled',
    ]);
  });

  it('keeps the object of a row that did not change, so memoised rows skip it', async () => {
    let answer = [view(1, 'polled'), view(2, 'polled')];
    const store = createAppStore(apiWith({ listFeeds: async () => answer }));
    await store.getState().loadFeeds();
    const [first, second] = store.getState().feeds;
    answer = [view(1, 'polled'), { ...view(2, 'polled'), unread: 3 }];
    await store.getState().loadFeeds();
    expect(store.getState().feeds[0]).toBe(first);
    expect(store.getState().feeds[1]).not.toBe(second);
    expect(store.getState().feeds[1]!.unread).toBe(3);
  });

  it('takes the listFeeds answer when no event came in between', async () => {
    const store = createAppStore(apiWith({ listFeeds: async () => [view(1, 'fresh')] }));
    store.getState().upsertFeed(view(1, 'old'));
    await store.getState().loadFeeds();
    expect(store.getState().feeds[0]!.delivery).toBe('fresh');
  });

  it("does not let subscribe's answer overwrite a newer event for the new feed", async () => {
    const answer = deferred<ApiResult<FeedView>>();
    const store = createAppStore(apiWith({ subscribe: () => answer.promise }));
    const adding = store.getState().addFeed('http://127.0.0.1/1.xml');
    store.getState().upsertFeed(view(1, 'real-time via cloud.example (renews in 23 h)'));
    answer.resolve({ ok: true, value: view(1, 'polled every 60 min') });
    await adding;
    expect(store.getState().feeds).toHaveLength(1);
    expect(store.getState().feeds[0]!.delivery).toBe('real-time via cloud.example (renews in 23 h)');
  });
});
