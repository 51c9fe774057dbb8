/**
 * Core events -> store actions. Called once at start-up; it also does the first load, and a full
 * resync whenever the event stream comes back after a drop (events may have been missed).
 */
import type { FeedView } from '../../../src/app/api';
import type { RendererClient } from '../api/types';
import { reloadAfterRestore, takeRestoredNotice } from '../lib/restore-reload';
import type { AppStore } from './store';

export function connectStore(store: AppStore, client: RendererClient): () => void {
  const actions = () => store.getState();

  async function loadProgress(): Promise<void> {
    try {
      actions().setProgress(await client.progress());
    } catch {
      // Progress is decoration; failures of real commands are reported by them.
    }
  }

  function resync(): void {
    void actions().loadFeeds();
    void actions().loadFolders();
    void actions().loadFilters();
    void actions().refreshHead();
    void loadProgress();
    // Posts load when "My posts" first opens; after that they follow the events like the rest.
    if (actions().postsStatus !== 'idle') void actions().loadPosts();
  }

  const feedRows = batchFeedRows((feeds: readonly FeedView[]) => {
    for (const feed of feeds) actions().upsertFeed(feed);
  });

  const offs = [
    client.on('river.changed', ({ changedItems }) => {
      void actions().refreshHead();
      // An older core (or a test double) may not send the field.
      if (changedItems?.length) void actions().refreshItems(changedItems);
    }),
    client.on('feed.status', (feed) => feedRows.add(feed)),
    client.on('feeds.changed', () => {
      void actions().loadFeeds();
      void actions().refreshHead();
    }),
    client.on('folders.changed', () => void actions().loadFolders()),
    client.on('filters.changed', () => void actions().loadFilters()),
    client.on('notice', (notice) => actions().pushNotice(notice)),
    client.on('progress', (progress) => actions().setProgress(progress)),
    client.on('post.changed', (post) => actions().upsertPost(post)),
    client.on('post.deleted', ({ id }) => actions().removePost(id)),
    // A backup was restored (here or in another window): everything loads again.
    client.on('data.restored', (report) => reloadAfterRestore(report)),
    client.onConnection((state) => {
      const previous = actions().connection;
      actions().setConnection(state);
      if (state === 'open' && previous === 'reconnecting') resync();
    }),
  ];

  // Feed rows carry time-relative lines ("renews in 21 h", next due): refresh them now and then,
  // even when no event says anything changed.
  const ROWS_REFRESH_MS = 5 * 60 * 1000;
  const timer = setInterval(() => {
    if (actions().connection !== 'unauthorized') void actions().loadFeeds();
  }, ROWS_REFRESH_MS);

  const restored = takeRestoredNotice();
  if (restored) actions().pushNotice({ level: 'info', message: restored });
  actions().setConnection(client.connection());
  if (client.connection() !== 'unauthorized') {
    // The river first: its answer then usually renders before the feed tree's (bench:river).
    void actions().loadRiver();
    void actions().loadFeeds();
    void actions().loadFolders();
    void actions().loadFilters();
    void loadProgress();
    // The episode the player held before a reload comes back, paused where it was left.
    void actions().restorePlayer();
  }
  // Read marks waiting to be sent go before the page does.
  const flush = () => void actions().flushReadSoon();
  globalThis.addEventListener?.('pagehide', flush);
  return () => {
    feedRows.flush();
    globalThis.removeEventListener?.('pagehide', flush);
    clearInterval(timer);
    for (const off of offs) off();
  };
}

/** How long feed rows that arrive together wait to be applied together. */
const FEED_ROWS_MS = 16;

/**
 * Feed rows from 'feed.status' events, applied together: a batch of reads touching ten feeds
 * sends ten events, and each row applied alone rebuilt the sidebar's tree of 1,000 feeds
 * (bench:river). The latest row of each feed wins; one store pass renders them all.
 */
function batchFeedRows(apply: (feeds: readonly FeedView[]) => void) {
  const waiting = new Map<number, FeedView>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const feeds = [...waiting.values()];
    waiting.clear();
    if (feeds.length > 0) apply(feeds);
  };
  return {
    add(feed: FeedView) {
      waiting.set(feed.id, feed);
      timer ??= setTimeout(flush, FEED_ROWS_MS);
    },
    flush,
  };
}
