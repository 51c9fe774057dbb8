import type { RiverGroup, RiverItem, RiverPage, RiverQuery, TidingsApi } from '../../../src/app/api';
import { LocalChanges } from './local-changes';
import { reportError } from './report-error';
import { appendPage, findItem, headReaches, mergeHead, updateWhere } from './river-merge';
import type { SliceCreator } from './types';

export type RiverShow = 'all' | 'unread' | 'starred';

export interface RiverFilter {
  feedId: number | null;
  /** A folder's river (its feeds and subfolders'); the sidebar sets one of feedId/folderId, never both. */
  folderId: number | null;
  show: RiverShow;
}

export interface RiverSlice {
  filter: RiverFilter;
  groups: RiverGroup[];
  nextCursor: string | null;
  riverStatus: 'loading' | 'ready' | 'error';
  loadingMore: boolean;
  setFilter(patch: Partial<RiverFilter>): void;
  /** Loads the first page from scratch (filter changed, feeds removed). */
  loadRiver(): Promise<void>;
  loadMore(): Promise<void>;
  /** 'river.changed': refetch the first page and merge it over what is loaded. */
  refreshHead(): Promise<void>;
  markRead(itemIds: number[], read: boolean): Promise<void>;
  toggleStar(itemId: number): Promise<void>;
  /** Marks every item of a feed read (the river's side of the feed list's "mark all read"). */
  markFeedRead(feedId: number): Promise<boolean>;
  forgetFeed(feedId: number): void;
}

export const RIVER_PAGE_SIZE = 30;
/** How far a head refresh walks to reach the loaded river before starting over from the top. */
const MAX_HEAD_PAGES = 5;

export const createRiverSlice =
  (api: TidingsApi): SliceCreator<RiverSlice> =>
  (set, get) => {
    // Answers for an older filter are dropped: each full load starts a new generation.
    let generation = 0;
    let headInFlight = false;
    let headAgain = false;
    let feedsTimer: ReturnType<typeof setTimeout> | null = null;
    const local = new LocalChanges();

    function query(cursor: string | null = null): RiverQuery {
      const { feedId, folderId, show } = get().filter;
      return {
        cursor,
        limit: RIVER_PAGE_SIZE,
        feedId,
        folderId,
        unreadOnly: show === 'unread',
        starredOnly: show === 'starred',
      };
    }

    /** Applies an item change to the river and to search results alike. */
    function patchItems(matches: (item: RiverItem) => boolean, change: (item: RiverItem) => RiverItem): void {
      set((state) => ({
        groups: updateWhere(state.groups, matches, change),
        searchResults: state.searchResults?.map((item) => (matches(item) ? change(item) : item)) ?? null,
      }));
    }

    /** Shows a change at once, sends it, keeps it over older answers, and undoes it on failure. */
    async function changeItems(
      matches: (item: RiverItem) => boolean,
      change: (item: RiverItem) => RiverItem,
      undo: (item: RiverItem) => RiverItem,
      command: () => Promise<void>,
    ): Promise<boolean> {
      const entry = local.begin({ matches, change });
      patchItems(matches, change);
      try {
        await command();
        local.settle(entry);
        return true;
      } catch (err) {
        local.cancel(entry);
        patchItems(matches, undo);
        reportError(get, err);
        return false;
      }
    }

    /** A river request, answered with the reader's unconfirmed changes laid over it. */
    async function fetchPage(cursor: string | null): Promise<RiverPage> {
      const token = local.started();
      try {
        const page = await api.river(query(cursor));
        return { ...page, groups: local.overlay(page.groups, token) };
      } finally {
        local.ended(token);
      }
    }

    /** Unread counts live in the core; after reading, ask for them again (once per burst). */
    function refreshCountsSoon(): void {
      if (feedsTimer) clearTimeout(feedsTimer);
      feedsTimer = setTimeout(() => {
        feedsTimer = null;
        void get().loadFeeds();
      }, 400);
    }

    return {
      filter: { feedId: null, folderId: null, show: 'all' },
      groups: [],
      nextCursor: null,
      riverStatus: 'loading',
      loadingMore: false,

      setFilter(patch) {
        const filter = { ...get().filter, ...patch };
        const current = get().filter;
        if (
          filter.feedId === current.feedId &&
          filter.folderId === current.folderId &&
          filter.show === current.show
        )
          return;
        set({ filter });
        void get().loadRiver();
      },

      async loadRiver() {
        const mine = ++generation;
        set({ riverStatus: 'loading', groups: [], nextCursor: null, loadingMore: false });
        try {
          const page = await fetchPage(null);
          if (mine !== generation) return;
          set({ ...mergeHead({ groups: [], nextCursor: null }, page), riverStatus: 'ready' });
        } catch (err) {
          if (mine !== generation) return;
          set({ riverStatus: 'error' });
          reportError(get, err, 'Could not load the river');
        }
      },

      async loadMore() {
        const { nextCursor, loadingMore, riverStatus } = get();
        if (!nextCursor || loadingMore || riverStatus !== 'ready') return;
        const mine = generation;
        set({ loadingMore: true });
        try {
          const page = await fetchPage(nextCursor);
          if (mine !== generation) return;
          set((state) => ({ ...appendPage(state, page), loadingMore: false }));
        } catch (err) {
          if (mine !== generation) return;
          set({ loadingMore: false });
          reportError(get, err, 'Could not load more');
        }
      },

      async refreshHead() {
        // A full load in flight will bring the news anyway.
        if (get().riverStatus !== 'ready') return;
        if (headInFlight) {
          headAgain = true;
          return;
        }
        headInFlight = true;
        try {
          do {
            headAgain = false;
            const mine = generation;
            let head = await fetchPage(null);
            // More new items than a page: walk on until the head meets what is loaded.
            for (
              let pages = 1;
              pages < MAX_HEAD_PAGES && head.nextCursor && !headReaches(get(), head);
              pages++
            ) {
              head = appendPage(head, await fetchPage(head.nextCursor));
              if (mine !== generation) break;
            }
            if (mine !== generation) break;
            set((state) => mergeHead(state, head));
          } while (headAgain);
        } catch (err) {
          reportError(get, err, 'Could not update the river');
        } finally {
          headInFlight = false;
        }
      },

      async markRead(itemIds, read) {
        const ids = new Set(itemIds);
        const { groups, searchResults } = get();
        const needed = [...ids].filter((id) => {
          const item = findItem(groups, id) ?? searchResults?.find((i) => i.id === id);
          return item !== undefined && item.read !== read;
        });
        if (needed.length === 0) return;
        const ok = await changeItems(
          (item) => ids.has(item.id),
          (item) => (item.read === read ? item : { ...item, read }),
          (item) => (item.read === !read ? item : { ...item, read: !read }),
          () => api.markRead(needed, read),
        );
        if (ok) refreshCountsSoon();
      },

      async toggleStar(itemId) {
        const item = findItem(get().groups, itemId) ?? get().searchResults?.find((i) => i.id === itemId);
        if (!item) return;
        const starred = !item.starred;
        await changeItems(
          (i) => i.id === itemId,
          (i) => (i.starred === starred ? i : { ...i, starred }),
          (i) => (i.starred === !starred ? i : { ...i, starred: !starred }),
          () => api.setStarred(itemId, starred),
        );
      },

      markFeedRead(feedId) {
        // Undo cannot know which items were unread before; the next refresh restores the truth.
        return changeItems(
          (item) => item.feedId === feedId,
          (item) => (item.read ? item : { ...item, read: true }),
          (item) => item,
          () => api.markFeedRead(feedId),
        );
      },

      forgetFeed(feedId) {
        if (get().filter.feedId === feedId) {
          get().setFilter({ feedId: null });
          return;
        }
        set((state) => ({
          groups: state.groups.filter((group) => group.feedId !== feedId),
          searchResults: state.searchResults?.filter((item) => item.feedId !== feedId) ?? null,
        }));
      },
    };
  };
