import type {
  FeedView,
  ImagePolicy,
  RiverGroup,
  RiverItem,
  RiverPage,
  RiverQuery,
  TidingsApi,
} from '../../../src/app/api';
import { DEFAULT_IMAGE_POLICY } from '../lib/image-policy';
import { LocalChanges } from './local-changes';
import { readingMarks, withoutReads } from './reading-marks';
import { reportError } from './report-error';
import { appendPage, findItem, headReaches, mergeHead, updateWhere } from './river-merge';
import type { AppState, SliceCreator } from './types';

export type RiverShow = 'all' | 'unread' | 'starred';
/** The river (River5 groups), a compact title-only list, or a list beside a reading pane. */
export type RiverView = 'river' | 'compact' | 'pane';
export type RiverSort = 'newest' | 'oldest';

export interface RiverFilter {
  feedId: number | null;
  /** A folder's river (its feeds and subfolders'); the sidebar sets one of feedId/folderId, never both. */
  folderId: number | null;
  show: RiverShow;
  sort: RiverSort;
}

/** One feed or one folder (with its subfolders), for marking read from the sidebar. */
export interface ReadScope {
  feedId: number | null;
  folderId: number | null;
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
  /**
   * 'river.changed' with `changedItems` (an edited post, a read or star from another device):
   * re-reads those items and swaps them in where they are, in the river and in search results, so
   * scroll and selection stay put.
   */
  refreshItems(itemIds: number[]): Promise<void>;
  markRead(itemIds: number[], read: boolean): Promise<void>;
  toggleStar(itemId: number): Promise<void>;
  /** Marks every item of a feed read (the river's side of the feed list's "mark all read"). */
  markFeedRead(feedId: number): Promise<boolean>;
  forgetFeed(feedId: number): void;

  /** The item the keys act on (j/k, m, s, o); kept by id, so it stays put when items arrive. */
  selectedItemId: number | null;
  selectItem(itemId: number | null): void;
  /**
   * j/k: the next (1) or previous (-1) item of the loaded river, loading the next page at the end;
   * the item reached is marked read, as reading it with the keys means reading it.
   */
  selectNext(delta: 1 | -1): Promise<number | null>;
  /** Bumped when the keys moved the selection: the river scrolls it into view (a click does not). */
  revealSeq: number;
  /** Items the keys read, shown read (isRead) until the river's groups take them in (keyRead). */
  keyReads: Record<number, true>;
  view: RiverView;
  setView(view: RiverView): void;
  /** Remote images in items (Settings.images), read when the river loads. */
  imagePolicy: ImagePolicy;
  setImagePolicy(policy: ImagePolicy): void;
  /** "N more from this feed": loads every item of that fetch into its group. */
  expandGroup(group: RiverGroup): Promise<void>;
  /** Shift+A: the feed, folder, or everything, as the river shows it. */
  markViewRead(): Promise<void>;
  /** What marking a feed or folder read is about to mark (for its Undo): unread ids, from the core. */
  unreadIdsIn(scope: ReadScope): Promise<number[]>;
  /** The Undo toast for items just marked read: `z` marks them unread again. */
  offerReadUndo(ids: number[]): void;
  /** Undo a mute filter on one item. */
  unmuteItem(itemId: number): Promise<void>;

  /** Settings.markReadOnScroll: scrolling past, opening or expanding an item reads it (issue 35). */
  markReadOnScroll: boolean;
  setMarkReadOnScroll(on: boolean): Promise<void>;
  /**
   * Items read by reading (scrolled past the top, expanded): marked in one store update and one
   * API call a moment later, so a fast scroll is a handful of calls, not one per item.
   */
  readSoon(itemIds: number[]): void;
  /** Sends what readSoon holds now (the river closing, the page hiding). */
  flushReadSoon(): Promise<void>;
  /**
   * Space: the next unread item after the selection, loading more of the river as needed; in a
   * feed with nothing unread left, the next feed with unread items (as NetNewsWire does). Null
   * when there is none.
   */
  selectNextUnread(): Promise<number | null>;
  /** "Mark all above as read": every unread item above this one in the loaded river; Undo offered. */
  markAboveRead(itemId: number): Promise<void>;
  /** "Mark older than a day / a week as read" in the view; the core's Undo offered. */
  markOlderRead(hours: number): Promise<void>;
}

const feedIndexes = new WeakMap<readonly FeedView[], Map<number, FeedView>>();

/**
 * A feed by id from the feeds array, indexed once per array (the store replaces the array on
 * change): item cards look their feed up on every store update, and 1,000 feeds x 40 cards of
 * Array.find showed in bench:river.
 */
export function feedById(feeds: readonly FeedView[], id: number): FeedView | undefined {
  let index = feedIndexes.get(feeds);
  if (!index) {
    index = new Map(feeds.map((f) => [f.id, f]));
    feedIndexes.set(feeds, index);
  }
  return index.get(id);
}

/** Show at most this many items of one feed's fetch in a group; the rest are "N more". */
export const GROUP_CAP = 10;
const VIEW_KEY = 'tidings.river.view';
const SORT_KEY = 'tidings.river.sort';

function stored<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = globalThis.localStorage?.getItem(key);
    return allowed.includes(value as T) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

function remember(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Private windows may refuse storage: the choice then lasts for this session only.
  }
}

export const RIVER_PAGE_SIZE = 30;
/** Undo of "mark all read" remembers at most this many pages of 200 unread items. */
const UNDO_PAGES = 25;

/** How far a head refresh walks to reach the loaded river before starting over from the top. */
const MAX_HEAD_PAGES = 5;

export const createRiverSlice =
  (api: TidingsApi): SliceCreator<RiverSlice> =>
  (set, get) => {
    // Answers for an older filter are dropped: each full load starts a new generation.
    let generation = 0;
    let headInFlight = false;
    let headAgain = false;
    // 'river.changed' during a full load: that load's request may have left before the news.
    let headAfterLoad = false;
    const local = new LocalChanges();
    // Reading marks read as you go (issue 35): reading-marks.ts, over this slice's own helpers.
    const marks = readingMarks({
      api,
      set,
      get,
      markReadWith: (ids, read, also) => markReadWith(ids, read, also),
      changeItems: (...args) => changeItems(...args),
      offerMarkedUndo: (ids) => offerMarkedUndo(ids),
    });
    function query(cursor: string | null = null): RiverQuery {
      const { feedId, folderId, show, sort } = get().filter;
      return {
        cursor,
        limit: RIVER_PAGE_SIZE,
        feedId,
        folderId,
        sort,
        // One feed's own view shows all of it; the cap keeps one big update from filling a mixed river.
        groupCap: feedId === null ? GROUP_CAP : null,
        unreadOnly: show === 'unread',
        starredOnly: show === 'starred',
      };
    }

    /** Applies an item change to the river and to search results alike. */
    function patchItems(
      matches: (item: RiverItem) => boolean,
      change: (item: RiverItem) => RiverItem,
      also?: (state: AppState) => Partial<AppState>,
    ): void {
      // One store update per change: every subscribed selector runs on each (1,000 feed rows).
      set((state) => ({
        groups: updateWhere(state.groups, matches, change),
        searchResults: state.searchResults?.map((item) => (matches(item) ? change(item) : item)) ?? null,
        ...also?.(state),
      }));
    }

    /** Shows a change at once, sends it, keeps it over older answers, and undoes it on failure. */
    async function changeItems(
      matches: (item: RiverItem) => boolean,
      change: (item: RiverItem) => RiverItem,
      undo: (item: RiverItem) => RiverItem,
      command: () => Promise<void>,
      also?: (state: AppState) => Partial<AppState>,
    ): Promise<boolean> {
      const entry = local.begin({ matches, change });
      patchItems(matches, change, also);
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

    async function loadImagePolicy(): Promise<void> {
      try {
        const settings = await api.getSettings();
        set({
          imagePolicy: settings.images ?? DEFAULT_IMAGE_POLICY,
          markReadOnScroll: settings.markReadOnScroll !== false,
        });
      } catch {
        // Keep the policy we have (the default blocks trackers): a failed read loosens nothing.
      }
    }

    /**
     * Marks items read or unread, at once and in one store update with `also` (the keys'
     * selection); back if the core refuses. The feeds' counts come from the core: it answers a
     * read with a 'feed.status' event per feed touched. (Patching them here as well rebuilt the
     * sidebar's tree twice per j: bench:river.)
     */
    async function markReadWith(
      itemIds: number[],
      read: boolean,
      also?: (state: AppState) => Partial<AppState>,
    ): Promise<void> {
      const ids = new Set(itemIds);
      const { groups, searchResults } = get();
      // An explicit mark decides these items: the keys' waiting reads of them are dropped (a
      // batch being sent passes its own ids here, and clears them from keyReads with `also`).
      marks.dropKeyReads(itemIds);
      if (itemIds.some((id) => get().keyReads[id])) {
        const before = also;
        also = (state) => ({ ...before?.(state), keyReads: withoutReads(state.keyReads, itemIds) });
      }
      // Items not loaded here (an Undo of a folder marked read from the sidebar) go to the core too.
      const needed = [...ids].filter((id) => {
        const item = findItem(groups, id) ?? searchResults?.find((i) => i.id === id);
        return item === undefined || item.read !== read;
      });
      if (needed.length === 0) {
        if (also) set(also);
        return;
      }
      await changeItems(
        (item) => ids.has(item.id),
        (item) => (item.read === read ? item : { ...item, read }),
        (item) => (item.read === !read ? item : { ...item, read: !read }),
        () => api.markRead(needed, read),
        also,
      );
      // No reload of every feed row after: the core sends each touched feed's row ('feed.status',
      // with its unread count), and folder totals are summed from the rows. A reload of 1,000 rows
      // per batch of the keys' reads cost more than the press itself (bench:river). Events missed
      // while the connection was down come back with the resync (connect.ts).
    }

    /** The unread items of the current view (or of one feed or folder), from the core (not only the loaded ones). */
    async function unreadIdsInView(scope?: ReadScope): Promise<number[]> {
      const ids: number[] = [];
      let cursor: string | null = null;
      try {
        for (let page = 0; page < UNDO_PAGES; page++) {
          const answer: RiverPage = await api.river({
            ...query(cursor),
            ...scope,
            limit: 200,
            groupCap: null,
            unreadOnly: true,
            starredOnly: false,
          });
          for (const g of answer.groups) for (const i of g.items) if (!i.read) ids.push(i.id);
          if (!answer.nextCursor) break;
          cursor = answer.nextCursor;
        }
      } catch {
        // No undo list: the change itself still goes ahead.
      }
      return ids;
    }

    function offerMarkedUndo(ids: number[]): void {
      if (ids.length === 0) return;
      get().offerUndo({
        message: ids.length === 1 ? 'Marked 1 item read' : `Marked ${ids.length} items read`,
        run: () => get().markRead(ids, false),
      });
    }

    return {
      filter: {
        feedId: null,
        folderId: null,
        show: 'all',
        sort: stored<RiverSort>(SORT_KEY, ['newest', 'oldest'], 'newest'),
      },
      selectedItemId: null,
      revealSeq: 0,
      keyReads: {},
      view: stored<RiverView>(VIEW_KEY, ['river', 'compact', 'pane'], 'river'),
      imagePolicy: DEFAULT_IMAGE_POLICY,
      markReadOnScroll: true,
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
          filter.show === current.show &&
          filter.sort === current.sort
        )
          return;
        if (filter.sort !== current.sort) remember(SORT_KEY, filter.sort);
        set({ filter, selectedItemId: null });
        void get().loadRiver();
      },

      async loadRiver() {
        const mine = ++generation;
        headAfterLoad = false;
        set({ riverStatus: 'loading', groups: [], nextCursor: null, loadingMore: false });
        // Asked side by side, but no item is shown before the image policy is known: under "load
        // images only when I click", an item shown early would already have fetched its pictures.
        const policy = loadImagePolicy();
        try {
          const page = await fetchPage(null);
          await policy;
          if (mine !== generation) return;
          set({ ...mergeHead({ groups: [], nextCursor: null }, page), riverStatus: 'ready' });
          if (headAfterLoad) {
            headAfterLoad = false;
            void get().refreshHead();
          }
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
        // A full load in flight may have asked before the news was stored: ask again after it.
        if (get().riverStatus === 'loading') {
          headAfterLoad = true;
          return;
        }
        if (get().riverStatus !== 'ready') return;
        // Oldest first, news belongs at the far end: it comes with "Load more", not over the top.
        if (get().filter.sort === 'oldest') {
          if (get().nextCursor === null) void get().loadMore();
          return;
        }
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

      async refreshItems(itemIds) {
        const ids = new Set(itemIds);
        const { groups, searchResults } = get();
        // Only what is on hand: an item not loaded yet will come fresh with its page.
        const held = [...ids].filter(
          (id) => findItem(groups, id) !== undefined || searchResults?.some((i) => i.id === id),
        );
        if (held.length === 0) return;
        const token = local.started();
        try {
          const fresh = new Map((await api.riverItemsById(held)).map((item) => [item.id, item]));
          // Read and starred as the core has them now (another device may have changed them), with
          // the reader's own clicks the core had not seen yet laid over; the unmute click kept.
          patchItems(
            (item) => fresh.has(item.id),
            (item) => ({ ...local.overlayItem(fresh.get(item.id)!, token), mutedBy: item.mutedBy }),
          );
        } catch (err) {
          reportError(get, err, 'Could not update the river');
        } finally {
          local.ended(token);
        }
      },

      markRead(itemIds, read) {
        return markReadWith(itemIds, read);
      },

      async selectNext(delta) {
        // Search results, while shown, are what the keys walk; otherwise the river.
        const results = get().searchResults;
        let items = results ?? get().groups.flatMap((g) => g.items);
        const at = items.findIndex((i) => i.id === get().selectedItemId);
        let index = at < 0 ? (delta > 0 ? 0 : items.length - 1) : at + delta;
        if (!results && index >= items.length && get().nextCursor) {
          await get().loadMore();
          items = get().groups.flatMap((g) => g.items);
        }
        index = Math.max(0, Math.min(items.length - 1, index));
        const next = items[index];
        if (!next) return null;
        marks.keyRead(next);
        return next.id;
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

      selectItem(itemId) {
        if (get().selectedItemId !== itemId) set({ selectedItemId: itemId });
      },

      setView(view) {
        remember(VIEW_KEY, view);
        set({ view });
      },

      setImagePolicy(imagePolicy) {
        set({ imagePolicy });
      },

      async expandGroup(group) {
        if (group.moreInGroup <= 0) return;
        try {
          const page = await api.river({
            batch: { feedId: group.feedId, updatedAt: group.updatedAt },
            limit: group.items.length + group.moreInGroup,
            unreadOnly: get().filter.show === 'unread',
            starredOnly: get().filter.show === 'starred',
            sort: get().filter.sort,
          });
          const items = page.groups.flatMap((g) => g.items);
          if (items.length === 0) return;
          const known = new Set(group.items.map((i) => i.id));
          set((state) => ({
            groups: state.groups.map((g) =>
              g === group || (g.feedId === group.feedId && g.updatedAt === group.updatedAt)
                ? { ...g, items: [...g.items, ...items.filter((i) => !known.has(i.id))], moreInGroup: 0 }
                : g,
            ),
          }));
        } catch (err) {
          reportError(get, err, 'Could not load the rest of that update');
        }
      },

      unreadIdsIn: (scope) => unreadIdsInView(scope),
      offerReadUndo: (ids) => offerMarkedUndo(ids),

      async markViewRead() {
        // The keys' waiting reads go first: the Undo must not make them unread again.
        await marks.sendKeyReads();
        const { feedId, folderId, show } = get().filter;
        let ok: boolean;
        if (show === 'starred') {
          // Starred is not a place of its own in the core: mark what is on screen.
          const ids = get().groups.flatMap((g) => g.items.filter((i) => !i.read).map((i) => i.id));
          await get().markRead(ids, true);
          offerMarkedUndo(ids);
          return;
        }
        // What the core is about to mark: read back on Undo (issue 17). At most UNDO_PAGES pages.
        const unread = await unreadIdsInView();
        if (feedId !== null) ok = await get().markFeedRead(feedId);
        else {
          // Everything loaded is in this view; what is not loaded yet comes from the core read.
          const shown = new Set(get().groups.flatMap((g) => g.items.map((i) => i.id)));
          ok = await changeItems(
            (item) => shown.has(item.id),
            (item) => (item.read ? item : { ...item, read: true }),
            (item) => item,
            () => (folderId === null ? api.markAllRead() : api.markFolderRead(folderId)),
          );
        }
        if (ok) offerMarkedUndo(unread);
      },

      async unmuteItem(itemId) {
        await changeItems(
          (i) => i.id === itemId,
          (i) => (i.mutedBy === null ? i : { ...i, mutedBy: null }),
          (i) => i,
          () => api.unmuteItem(itemId),
        );
      },

      ...marks.actions,

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
