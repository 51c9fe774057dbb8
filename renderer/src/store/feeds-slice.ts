import type { ApiResult, FeedView, SubscribeInput, TidingsApi } from '../../../src/app/api';
import { errorMessage } from '../api/api-error';
import { coalesce } from '../lib/coalesce';
import { offerCoreUndo } from './core-undo';
import { reportError } from './report-error';
import type { SliceCreator } from './types';

export interface FeedsSlice {
  feeds: FeedView[];
  feedsStatus: 'loading' | 'ready' | 'error';
  loadFeeds(): Promise<void>;
  /** Replaces one row (a 'feed.status' event, or a command's answer), or adds it if new. */
  upsertFeed(feed: FeedView): void;
  /**
   * Subscribes; `requestId` lets cancelSubscribe stop it. A new feed, or the feed that was already
   * followed (code 'already_subscribed'), becomes the river's selection.
   */
  addFeed(
    url: string,
    credentials?: SubscribeInput['credentials'],
    options?: { requestId?: string; folderId?: number | null },
  ): Promise<ApiResult<FeedView>>;
  cancelSubscribe(requestId: string): Promise<void>;
  /**
   * Edit address: the feed moves to a new address, keeping everything (the core fetches it once
   * and says "moved to" in a notice). Its row and river follow.
   */
  moveFeed(feedId: number, url: string): Promise<ApiResult<FeedView>>;
  unsubscribe(feedId: number): Promise<void>;
  refreshFeeds(feedId: number | null): Promise<void>;
  markFeedAllRead(feedId: number): Promise<void>;
  importOpml(text: string): Promise<void>;
  exportOpml(): Promise<string | null>;
}

export const createFeedsSlice =
  (api: TidingsApi): SliceCreator<FeedsSlice> =>
  (set, get) => {
    // A command's answer is a snapshot taken when the core answered; a 'feed.status' event that
    // arrives before that answer is newer and must win (HTTP answers and WebSocket events race).
    let eventSeq = 0;
    const lastEvent = new Map<number, number>();
    const newerEventSince = (feedId: number, since: number) => (lastEvent.get(feedId) ?? 0) > since;

    async function loadOnce(): Promise<void> {
      const since = eventSeq;
      try {
        const listed = await api.listFeeds();
        const current = new Map(get().feeds.map((f) => [f.id, f]));
        const feeds = listed.map((f) => {
          const held = current.get(f.id);
          if (newerEventSince(f.id, since)) return held ?? f;
          // Unchanged rows keep their object, so memoised rows and selectors skip them: with 1,000
          // feeds, a fresh object per row re-rendered the whole tree after every read (bench:river).
          return held && sameFeed(held, f) ? held : f;
        });
        set({ feeds, feedsStatus: 'ready' });
      } catch (err) {
        if (get().feedsStatus === 'loading') set({ feedsStatus: 'error' });
        reportError(get, err, 'Could not load your feeds');
      }
    }

    return {
      feeds: [],
      feedsStatus: 'loading',

      // Rapid 'feeds.changed' events (an OPML import) collapse into one request in flight + one after.
      loadFeeds: coalesce(loadOnce),

      upsertFeed(feed) {
        lastEvent.set(feed.id, ++eventSeq);
        set((state) => {
          const index = state.feeds.findIndex((f) => f.id === feed.id);
          if (index === -1) return { feeds: [...state.feeds, feed] };
          const feeds = state.feeds.slice();
          feeds[index] = feed;
          return { feeds };
        });
      },

      async addFeed(url, credentials, options = {}) {
        try {
          const since = eventSeq;
          const result = await api.subscribe({
            url: url.trim(),
            ...(credentials ? { credentials } : {}),
            ...(options.requestId ? { requestId: options.requestId } : {}),
            ...(options.folderId != null ? { folderId: options.folderId } : {}),
          });
          if (result.ok && !newerEventSince(result.value.id, since)) get().upsertFeed(result.value);
          const show = result.ok
            ? result.value.id
            : result.error.code === 'already_subscribed'
              ? result.error.feedId
              : undefined;
          if (show !== undefined) {
            get().clearSearch();
            get().setPage('river');
            get().setFilter({ feedId: show, folderId: null });
          }
          return result;
        } catch (err) {
          reportError(get, err);
          return { ok: false, error: { code: 'client', message: errorMessage(err) } };
        }
      },

      async cancelSubscribe(requestId) {
        try {
          await api.cancelSubscribe(requestId);
        } catch (err) {
          reportError(get, err, 'Could not cancel');
        }
      },

      async moveFeed(feedId, url) {
        try {
          const since = eventSeq;
          const result = await api.moveFeed(feedId, url.trim());
          if (result.ok && !newerEventSince(feedId, since)) get().upsertFeed(result.value);
          if (result.ok) void get().refreshHead();
          if (!result.ok && result.error.code === 'already_subscribed' && result.error.feedId !== undefined)
            get().setFilter({ feedId: result.error.feedId, folderId: null });
          return result;
        } catch (err) {
          reportError(get, err);
          return { ok: false, error: { code: 'client', message: errorMessage(err) } };
        }
      },

      async unsubscribe(feedId) {
        try {
          const ticket = await api.unsubscribe(feedId);
          set((state) => ({ feeds: state.feeds.filter((f) => f.id !== feedId) }));
          get().forgetFeed(feedId);
          offerCoreUndo(get, api, ticket);
        } catch (err) {
          reportError(get, err, 'Could not unsubscribe');
        }
      },

      async refreshFeeds(feedId) {
        try {
          await api.refresh(feedId);
        } catch (err) {
          reportError(get, err, 'Could not refresh');
        }
      },

      async markFeedAllRead(feedId) {
        // What is about to be marked, for the Undo toast (issue 17).
        const unread = await get().unreadIdsIn({ feedId, folderId: null });
        // The command goes through the river slice, which shows it at once and undoes it on failure.
        if (await get().markFeedRead(feedId)) {
          set((state) => ({ feeds: state.feeds.map((f) => (f.id === feedId ? { ...f, unread: 0 } : f)) }));
          get().offerReadUndo(unread);
        } else {
          // The optimistic "all read" could not be undone item by item: ask the core again.
          void get().refreshHead();
        }
      },

      async importOpml(text) {
        try {
          const result = await api.importOpml(text);
          if (!result.ok) {
            get().pushNotice({ level: 'error', message: result.error.message });
            return;
          }
          const { added, existing, errors, feedIds = [], folderId = null } = result.value;
          const parts = [`Imported ${added} feed${added === 1 ? '' : 's'}`];
          if (existing) parts.push(`${existing} already subscribed`);
          if (errors.length) parts.push(`${errors.length} skipped: ${errors.slice(0, 3).join('; ')}`);
          get().pushNotice({ level: errors.length ? 'warning' : 'info', message: `${parts.join(', ')}.` });
          await Promise.all([get().loadFeeds(), get().loadFolders()]);
          // What was imported is what the person wants to see next (issue 35): the folder that
          // holds it, the one feed, or every feed.
          if (folderId !== null) get().setFilter({ folderId, feedId: null });
          else if (feedIds.length === 1) get().setFilter({ feedId: feedIds[0]!, folderId: null });
          else if (feedIds.length > 1) get().setFilter({ feedId: null, folderId: null });
        } catch (err) {
          reportError(get, err, 'Could not import the OPML file');
        }
      },

      async exportOpml() {
        try {
          return await api.exportOpml();
        } catch (err) {
          reportError(get, err, 'Could not export');
          return null;
        }
      },
    };
  };

function sameFeed(a: FeedView, b: FeedView): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
