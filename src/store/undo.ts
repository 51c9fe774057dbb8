/**
 * What a bulk removal takes away, kept so it can be put back exactly (issue 17, point 9): the rows
 * as they were, ids included, so every reference (an item open in the renderer, a starred item's
 * id, a folder's place) stays valid after the undo. The snapshot is plain data held by the caller
 * (src/app/undo.ts) for the undo window; nothing is deferred in the database.
 */
import type { SQLOutputValue } from 'node:sqlite';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { Item } from '../feed/model.ts';
import type { StoreContext } from './context.ts';
import { indexItem } from './search.ts';
import { transaction } from './sqlite.ts';

/** A row as SQLite gave it, written back as is. */
type Row = Record<string, SQLOutputValue>;

/** A feed with everything that cascades from it: items (read, starred, muted), tombstones, its own mute filters. */
export interface FeedSnapshot {
  feed: Row;
  items: Row[];
  tombstones: Row[];
  muteFilters: Row[];
}

/** A folder and its subtree as they were, and where each feed inside them sat. */
export interface FolderSnapshot {
  /** Parents before children. */
  folders: Row[];
  feeds: { id: number; folderId: number }[];
}

export function snapshotFeed(ctx: StoreContext, feedId: number): FeedSnapshot | null {
  const feed = ctx.stmt('SELECT * FROM feeds WHERE id = ?').get(feedId) as Row | undefined;
  if (!feed) return null;
  return {
    feed,
    items: ctx.stmt('SELECT * FROM items WHERE feed_id = ? ORDER BY id').all(feedId) as Row[],
    tombstones: ctx.stmt('SELECT * FROM tombstones WHERE feed_id = ?').all(feedId) as Row[],
    muteFilters: ctx.stmt('SELECT * FROM mute_filters WHERE feed_id = ?').all(feedId) as Row[],
  };
}

/** Puts an unsubscribed feed back with the same ids; fails (changing nothing) if its address is followed again meanwhile. */
export function restoreFeed(ctx: StoreContext, snap: FeedSnapshot): Result<true> {
  return transaction(ctx.db, () => {
    const taken = ctx
      .stmt('SELECT id FROM feeds WHERE id = ? OR url = ?')
      .get(snap.feed.id ?? null, snap.feed.url ?? null);
    if (taken)
      return fail<true>(
        tidingsError('undo.conflict', 'That feed is followed again already: nothing to undo.', {
          url: String(snap.feed.url),
        }),
      );
    // Its folder may have been deleted in the meantime: the top level then.
    const folder = snap.feed.folder_id;
    const folderLeft =
      folder === null || folder === undefined || ctx.stmt('SELECT 1 FROM folders WHERE id = ?').get(folder);
    insertRows(ctx, 'feeds', [{ ...snap.feed, folder_id: folderLeft ? (folder ?? null) : null }]);
    insertRows(ctx, 'items', snap.items);
    insertRows(ctx, 'tombstones', snap.tombstones);
    insertRows(ctx, 'mute_filters', snap.muteFilters);
    // The unread triggers counted the items again on insert: the snapshot's count is the truth.
    ctx
      .stmt('UPDATE feeds SET unread = ? WHERE id = ?')
      .run(snap.feed.unread as number, snap.feed.id as number);
    // items_fts is contentless: its text is computed again from the rows.
    for (const r of snap.items) indexItem(ctx, r.id as number, itemForIndex(r), false);
    return ok(true as const);
  });
}

export function snapshotFolder(ctx: StoreContext, folderId: number): FolderSnapshot | null {
  const all = ctx.stmt('SELECT * FROM folders').all() as Row[];
  if (!all.some((f) => f.id === folderId)) return null;
  const folders: Row[] = [];
  const walk = (id: number, depth: number) => {
    const f = all.find((x) => x.id === id);
    if (!f || depth > 64) return;
    folders.push(f);
    for (const c of all) if (c.parent_id === id) walk(c.id as number, depth + 1);
  };
  walk(folderId, 0);
  const ids = new Set(folders.map((f) => f.id as number));
  const feeds = (ctx.stmt('SELECT id, folder_id FROM feeds WHERE folder_id IS NOT NULL').all() as Row[])
    .filter((r) => ids.has(r.folder_id as number))
    .map((r) => ({ id: r.id as number, folderId: r.folder_id as number }));
  return { folders, feeds };
}

/**
 * Puts a deleted folder back: the folder and every subfolder with their ids, names and places
 * (the ones merged into a same-named sibling come back as themselves), and each feed in the
 * folder it was in. Feeds unsubscribed since stay gone.
 */
export function restoreFolder(ctx: StoreContext, snap: FolderSnapshot): Result<true> {
  return transaction(ctx.db, () => {
    const root = snap.folders[0];
    if (!root) return ok(true as const);
    if (root.parent_id != null && !ctx.stmt('SELECT 1 FROM folders WHERE id = ?').get(root.parent_id))
      return fail<true>(tidingsError('undo.conflict', 'The folder it was in is gone: nothing to undo.', {}));
    const clash = ctx
      .stmt('SELECT id FROM folders WHERE IFNULL(parent_id, 0) = ? AND title = ? AND id <> ?')
      .get((root.parent_id as number | null) ?? 0, root.title ?? '', root.id ?? null);
    if (clash)
      return fail<true>(
        tidingsError(
          'undo.conflict',
          `A folder named “${String(root.title)}” is there again: nothing to undo.`,
          {},
        ),
      );
    for (const f of snap.folders) {
      if (ctx.stmt('SELECT 1 FROM folders WHERE id = ?').get(f.id ?? null)) {
        ctx
          .stmt('UPDATE folders SET parent_id = ?, title = ? WHERE id = ?')
          .run(f.parent_id as number | null, f.title as string, f.id as number);
      } else insertRows(ctx, 'folders', [f]);
    }
    const place = ctx.stmt('UPDATE feeds SET folder_id = ? WHERE id = ?');
    for (const f of snap.feeds) place.run(f.folderId, f.id);
    return ok(true as const);
  });
}

/** The items a mute filter muted, as they were before it (read and hidden state). */
export function mutedByFilter(ctx: StoreContext, filterId: number): number[] {
  const rows = ctx.stmt('SELECT id, muted_by FROM items WHERE muted_by IS NOT NULL').all() as {
    id: number;
    muted_by: string;
  }[];
  return rows.filter((r) => safeFilterId(r.muted_by) === filterId).map((r) => r.id);
}

function safeFilterId(json: string): number | null {
  try {
    const v = JSON.parse(json) as { filterId?: unknown };
    return typeof v.filterId === 'number' ? v.filterId : null;
  } catch {
    return null;
  }
}

function insertRows(ctx: StoreContext, table: string, rows: readonly Row[]): void {
  for (const r of rows) {
    // Column names come from our own SELECT *: never from input.
    const cols = Object.keys(r);
    ctx
      .stmt(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
      .run(...cols.map((c) => r[c] ?? null));
  }
}

/** Enough of an Item for indexItem: title, summary, content, children. */
function itemForIndex(r: Row): Item {
  return {
    title: r.title ?? null,
    summary: r.summary ?? null,
    content: r.content ?? null,
    children: typeof r.children === 'string' ? JSON.parse(r.children) : [],
  } as unknown as Item;
}
