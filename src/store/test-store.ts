/**
 * The setup the store's item tests share: a fresh in-memory store holding one feed for each test.
 * Apart from test-support.ts because it registers vitest hooks, which bench scripts cannot load.
 */
import { beforeEach } from 'vitest';
import { openStore, type Store } from './store.ts';

/** The one feed's address, for a test that adds it again. */
export const TEST_FEED_URL = 'https://a/';

export interface StoreWithFeed {
  store: Store;
  feedId: number;
}

/**
 * Before each test of the file (or describe block) that calls it, opens a store with one feed and
 * hands both to `take` (which keeps them in the file's own variables); closes the store after.
 */
export function openStoreEachTest(take: (fx: StoreWithFeed) => void): void {
  beforeEach(() => {
    const store = openStore(':memory:');
    take({ store, feedId: store.addFeed({ url: TEST_FEED_URL }).feed.id });
    return () => store.close(); // vitest runs what a beforeEach returns as that test's teardown
  });
}
