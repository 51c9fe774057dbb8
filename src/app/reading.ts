/**
 * The reading experience's commands (issue 9): folders, per-feed settings, search (search.ts),
 * saved searches, mute filters. Each is a thin use case over the store; events tell
 * every UI what changed.
 */
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { FolderRow } from '../store/store.ts';
import type {
  FeedSettingsPatch,
  FeedView,
  FolderView,
  MuteFilter,
  MuteFilterInput,
  SavedSearch,
  TidingsApi,
} from './api.ts';
import { apiResult } from './api-result.ts';
import type { AppContext } from './context.ts';
import { feedViewOf } from './feed-view.ts';
import { emitStatus, replanPolling } from './refresh.ts';
import { searchItems } from './search.ts';
import type { UndoLog } from './undo.ts';

type ReadingApi = Pick<
  TidingsApi,
  | 'updateFeed'
  | 'listFolders'
  | 'createFolder'
  | 'renameFolder'
  | 'moveFolder'
  | 'deleteFolder'
  | 'markFolderRead'
  | 'markAllRead'
  | 'searchItems'
  | 'listSavedSearches'
  | 'saveSearch'
  | 'deleteSavedSearch'
  | 'listMuteFilters'
  | 'addMuteFilter'
  | 'updateMuteFilter'
  | 'deleteMuteFilter'
  | 'unmuteItem'
>;

const MAX_FEED_TITLE = 300;
const MIN_INTERVAL = 5;
const MAX_INTERVAL = 7 * 24 * 60;

/** Every folder, parents before their children, siblings by title. */
export function folderViews(ctx: AppContext): FolderView[] {
  const rows = ctx.store.listFolders();
  const totals = ctx.store.folderTotals();
  const children = new Map<number | null, FolderRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    // A parent that vanished (never, with the foreign key; but cheap to be safe): top level.
    const parent = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(r);
    children.set(parent, list);
  }
  const out: FolderView[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, path: string) => {
    const list = (children.get(parent) ?? []).sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
    for (const f of list) {
      if (seen.has(f.id)) continue;
      seen.add(f.id);
      const p = path ? `${path}/${f.title}` : f.title;
      const t = totals.get(f.id);
      out.push({
        id: f.id,
        parentId: parent,
        title: f.title,
        path: p,
        unread: t?.unread ?? 0,
        feedCount: t?.feedCount ?? 0,
      });
      walk(f.id, p);
    }
  };
  walk(null, '');
  return out;
}

function folderView(ctx: AppContext, id: number): FolderView {
  const v = folderViews(ctx).find((f) => f.id === id);
  if (!v) throw new Error(`folder ${id} vanished`);
  return v;
}

function foldersChanged(ctx: AppContext): void {
  ctx.events.emit('folders.changed', { count: ctx.store.listFolders().length });
}

/** Folders and the feeds' places in them changed. */
function placesChanged(ctx: AppContext): void {
  foldersChanged(ctx);
  ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
}

function filtersChanged(ctx: AppContext): void {
  ctx.events.emit('filters.changed', {
    savedSearches: ctx.store.listSavedSearches().length,
    muteFilters: ctx.store.listMuteFilters().length,
  });
}

function updateFeed(ctx: AppContext, feedId: number, patch: FeedSettingsPatch): Result<FeedView> {
  const feed = ctx.store.getFeed(feedId);
  if (!feed) return fail(tidingsError('feed.notFound', 'That feed is not subscribed any more.'));
  let customTitle: string | null | undefined;
  if (patch.title !== undefined) {
    // Types at the boundary: browser mode hands in whatever JSON a page sent.
    const t = typeof patch.title === 'string' ? patch.title.replace(/\s+/g, ' ').trim() : '';
    if (t.length > MAX_FEED_TITLE) {
      return fail(tidingsError('feed.longTitle', `A feed title is at most ${MAX_FEED_TITLE} characters.`));
    }
    // An empty title, or the feed's own, means "use the feed's".
    customTitle = t === '' || t === feed.title ? null : t;
  }
  if (
    patch.folderId !== undefined &&
    patch.folderId !== null &&
    !(Number.isSafeInteger(patch.folderId) && ctx.store.getFolder(patch.folderId))
  ) {
    return fail(tidingsError('folder.notFound', 'That folder does not exist any more.'));
  }
  let interval: number | null | undefined;
  if (patch.intervalMin !== undefined) {
    if (patch.intervalMin !== null && !(Number.isFinite(patch.intervalMin) && patch.intervalMin > 0)) {
      return fail(tidingsError('feed.badInterval', 'The interval is a number of minutes.'));
    }
    interval =
      patch.intervalMin === null
        ? null
        : Math.min(MAX_INTERVAL, Math.max(MIN_INTERVAL, Math.round(patch.intervalMin)));
  }
  ctx.store.setFeedSettings(feedId, {
    customTitle,
    folderId: patch.folderId,
    notify: typeof patch.notify === 'boolean' ? patch.notify : undefined,
    loadImages: typeof patch.loadImages === 'boolean' ? patch.loadImages : undefined,
    fullText: typeof patch.fullText === 'boolean' ? patch.fullText : undefined,
  });
  if (interval !== undefined) {
    ctx.store.setFeedInterval(feedId, interval);
    replanPolling(ctx, feedId);
  }
  emitStatus(ctx, feedId);
  if (patch.folderId !== undefined) foldersChanged(ctx);
  return ok(feedViewOf(ctx, ctx.store.getFeed(feedId)!));
}

const toMuteFilter = (r: {
  id: number;
  feedId: number | null;
  kind: 'keyword' | 'regex';
  pattern: string;
  action: 'hide' | 'markRead';
  createdAt: number;
}): MuteFilter => ({ ...r, createdAt: new Date(r.createdAt).toISOString() });

const muteFields = (input: MuteFilterInput) => ({
  feedId: input?.feedId ?? null,
  kind: input?.kind,
  pattern: typeof input?.pattern === 'string' ? input.pattern : '',
  action: input?.action,
});

export function readingApi(ctx: AppContext, undoLog: UndoLog): ReadingApi {
  const { store } = ctx;
  return {
    updateFeed: async (feedId, patch) => apiResult(updateFeed(ctx, feedId, patch ?? {})),
    listFolders: async () => folderViews(ctx),
    createFolder: async (title, parentId) => {
      const r = store.createFolder(title, parentId ?? null);
      if (!r.ok) return apiResult(r);
      foldersChanged(ctx);
      return ok(folderView(ctx, r.value.id));
    },
    renameFolder: async (folderId, title) => {
      const r = store.renameFolder(folderId, title);
      if (!r.ok) return apiResult(r);
      foldersChanged(ctx);
      // Feed rows carry the folder's path.
      ctx.events.emit('feeds.changed', { count: store.listFeeds().length });
      return ok(folderView(ctx, folderId));
    },
    moveFolder: async (folderId, parentId) => {
      const r = store.moveFolder(folderId, parentId);
      if (!r.ok) return apiResult(r);
      foldersChanged(ctx);
      ctx.events.emit('feeds.changed', { count: store.listFeeds().length });
      return ok(folderView(ctx, folderId));
    },
    deleteFolder: async (folderId) => {
      const snap = store.snapshotFolder(folderId);
      const r = store.deleteFolder(folderId);
      if (!r.ok || !snap) return apiResult(r as Result<never>);
      placesChanged(ctx);
      const title = String(snap.folders[0]?.title ?? '');
      return ok(
        undoLog.record(`Deleted the folder “${title}”`, {
          restore: () => {
            const back = store.restoreFolder(snap);
            if (back.ok) placesChanged(ctx);
            return back;
          },
        }),
      );
    },
    markFolderRead: async (folderId) => {
      const ids = store.feedIdsInFolder(folderId);
      store.markFeedsRead(ids);
      for (const id of ids) emitStatus(ctx, id);
      foldersChanged(ctx);
    },
    markAllRead: async () => {
      store.markFeedsRead(null);
      // One event for every row, not one per feed.
      ctx.events.emit('feeds.changed', { count: store.listFeeds().length });
      foldersChanged(ctx);
    },
    searchItems: async (req) => searchItems(ctx, req ?? { query: '' }),
    listSavedSearches: async () => store.listSavedSearches() as SavedSearch[],
    saveSearch: async (input) => {
      const r = store.saveSearch(input);
      if (r.ok) filtersChanged(ctx);
      return apiResult(r);
    },
    deleteSavedSearch: async (id) => {
      if (store.deleteSavedSearch(id)) filtersChanged(ctx);
    },
    listMuteFilters: async () => store.listMuteFilters().map(toMuteFilter),
    addMuteFilter: async (input) => {
      const r = store.addMuteFilter(muteFields(input));
      if (!r.ok) return apiResult(r);
      filtersChanged(ctx);
      const filter = toMuteFilter(r.value);
      const undo = undoLog.record(`Muted “${filter.pattern}”`, {
        restore: () => {
          // The filter goes, and every item it muted meanwhile shows again, unread as it came.
          store.deleteMuteFilter(filter.id);
          for (const feedId of store.itemsByFeed(store.unmuteByFilter(filter.id)).keys())
            emitStatus(ctx, feedId);
          filtersChanged(ctx);
          foldersChanged(ctx);
          return ok(true as const);
        },
      });
      return ok({ ...filter, undo });
    },
    updateMuteFilter: async (id, input) => {
      const r = store.updateMuteFilter(id, muteFields(input));
      if (!r.ok) return apiResult(r);
      filtersChanged(ctx);
      return ok(toMuteFilter(r.value));
    },
    deleteMuteFilter: async (id) => {
      if (store.deleteMuteFilter(id)) filtersChanged(ctx);
    },
    unmuteItem: async (itemId) => {
      const feedId = store.getItemFeedId(itemId);
      if (store.unmuteItem(itemId) && feedId !== null) {
        emitStatus(ctx, feedId);
        ctx.events.emit('river.changed', { feedId, newItems: 0, changedItems: [itemId] });
      }
    },
  };
}
