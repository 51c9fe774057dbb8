/**
 * Folders: a tree (parent_id), created from paths like 'News/Tech' when a feed is filed.
 * Titles compare case-insensitively, so 'news/tech' files into the same folders.
 */
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { StoreContext } from './context.ts';
import { transaction } from './sqlite.ts';
import type { FolderRow } from './types.ts';

/** Splits 'A/B' into trimmed, non-empty segments. */
export function splitFolderPath(path: string | null | undefined): string[] {
  if (!path) return [];
  return path
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The id of the folder at `path`, creating missing folders; null for no folder. */
export function ensureFolderPath(ctx: StoreContext, path: string | null | undefined): number | null {
  let parent: number | null = null;
  for (const title of splitFolderPath(path)) {
    const found = ctx
      .stmt('SELECT id FROM folders WHERE IFNULL(parent_id, 0) = ? AND title = ?')
      .get(parent ?? 0, title) as { id: number } | undefined;
    if (found) {
      parent = found.id;
      continue;
    }
    const made = ctx
      .stmt('INSERT INTO folders (parent_id, title) VALUES (?, ?) RETURNING id')
      .get(parent, title) as { id: number };
    parent = made.id;
  }
  return parent;
}

export function listFolders(ctx: StoreContext): FolderRow[] {
  const rows = ctx.stmt('SELECT id, title, parent_id FROM folders ORDER BY id').all() as {
    id: number;
    title: string;
    parent_id: number | null;
  }[];
  return rows.map((r) => ({ id: r.id, title: r.title, parentId: r.parent_id }));
}

export interface FolderNames {
  title: string;
  path: string;
}

/** id -> title and full path, for the feed rows (folders are few: one query, joined in JS). */
export function folderNames(ctx: StoreContext): Map<number, FolderNames> {
  const rows = listFolders(ctx);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out = new Map<number, FolderNames>();
  const pathOf = (id: number, depth: number): string => {
    const known = out.get(id);
    if (known) return known.path;
    const row = byId.get(id);
    if (!row) return '';
    // depth guard: a corrupted parent cycle must not recurse forever
    const parent = row.parentId !== null && depth < 64 ? pathOf(row.parentId, depth + 1) : '';
    const path = parent ? `${parent}/${row.title}` : row.title;
    out.set(id, { title: row.title, path });
    return path;
  };
  for (const r of rows) pathOf(r.id, 0);
  return out;
}

/**
 * One folder's title and full path, walking up its parents: what folderNames gives for that id,
 * without reading every folder (a feed's row is read several times per fetch).
 */
export function folderNamesOf(ctx: StoreContext, id: number): FolderNames | null {
  const parentOf = ctx.stmt('SELECT title, parent_id FROM folders WHERE id = ?');
  const own = parentOf.get(id) as { title: string; parent_id: number | null } | undefined;
  if (!own) return null;
  const titles = [own.title];
  // depth guard as in folderNames: a corrupted parent cycle must not loop forever
  for (let parent = own.parent_id, depth = 0; parent !== null && depth < 64; depth++) {
    const row = parentOf.get(parent) as { title: string; parent_id: number | null } | undefined;
    if (!row) break;
    titles.push(row.title);
    parent = row.parent_id;
  }
  return { title: own.title, path: titles.reverse().join('/') };
}

// Editing the tree (issue 9). Errors are values: these are fed by what a person typed.

const MAX_TITLE = 200;

function cleanTitle(title: string): Result<string> {
  const t = (typeof title === 'string' ? title : '').replace(/\s+/g, ' ').trim();
  if (!t) return fail(tidingsError('folder.emptyTitle', 'A folder needs a name.'));
  // '/' separates levels in paths (OPML's "Tech/Blogs", setFeedFolder): a title cannot hold one.
  if (t.includes('/')) return fail(tidingsError('folder.slash', 'A folder name cannot contain "/".'));
  if (t.length > MAX_TITLE)
    return fail(tidingsError('folder.longTitle', `A folder name is at most ${MAX_TITLE} characters.`));
  return ok(t);
}

export function getFolder(ctx: StoreContext, id: number): FolderRow | null {
  const r = ctx.stmt('SELECT id, title, parent_id FROM folders WHERE id = ?').get(id) as
    | { id: number; title: string; parent_id: number | null }
    | undefined;
  return r ? { id: r.id, title: r.title, parentId: r.parent_id } : null;
}

function siblingClash(ctx: StoreContext, parentId: number | null, title: string, except: number): boolean {
  return !!ctx
    .stmt('SELECT 1 FROM folders WHERE IFNULL(parent_id, 0) = ? AND title = ? AND id <> ?')
    .get(parentId ?? 0, title, except);
}

const clash = (title: string) =>
  fail<FolderRow>(tidingsError('folder.exists', `A folder named "${title}" is already there.`, { title }));
const noFolder = (id: number) =>
  fail<FolderRow>(tidingsError('folder.notFound', 'That folder does not exist any more.', { id }));

export function createFolder(ctx: StoreContext, title: string, parentId: number | null): Result<FolderRow> {
  const t = cleanTitle(title);
  if (!t.ok) return t;
  return transaction(ctx.db, () => {
    if (parentId !== null && !getFolder(ctx, parentId)) return noFolder(parentId);
    if (siblingClash(ctx, parentId, t.value, 0)) return clash(t.value);
    const made = ctx
      .stmt('INSERT INTO folders (parent_id, title) VALUES (?, ?) RETURNING id')
      .get(parentId, t.value) as { id: number };
    return ok(getFolder(ctx, made.id)!);
  });
}

export function renameFolder(ctx: StoreContext, id: number, title: string): Result<FolderRow> {
  const t = cleanTitle(title);
  if (!t.ok) return t;
  return transaction(ctx.db, () => {
    const f = getFolder(ctx, id);
    if (!f) return noFolder(id);
    if (siblingClash(ctx, f.parentId, t.value, id)) return clash(t.value);
    ctx.stmt('UPDATE folders SET title = ? WHERE id = ?').run(t.value, id);
    return ok(getFolder(ctx, id)!);
  });
}

/** The folder and every folder under it. */
export function subtreeIds(ctx: StoreContext, id: number): number[] {
  const rows = ctx
    .stmt(
      `WITH RECURSIVE sub(id) AS (SELECT ?1 UNION SELECT f.id FROM folders f JOIN sub ON f.parent_id = sub.id)
       SELECT id FROM sub`,
    )
    .all(id) as { id: number }[];
  return rows.map((r) => r.id);
}

export function moveFolder(ctx: StoreContext, id: number, parentId: number | null): Result<FolderRow> {
  return transaction(ctx.db, () => {
    const f = getFolder(ctx, id);
    if (!f) return noFolder(id);
    if (parentId !== null) {
      if (!getFolder(ctx, parentId)) return noFolder(parentId);
      if (subtreeIds(ctx, id).includes(parentId)) {
        return fail(
          tidingsError('folder.cycle', 'A folder cannot go inside itself or one of its subfolders.'),
        );
      }
    }
    if (siblingClash(ctx, parentId, f.title, id)) return clash(f.title);
    ctx.stmt('UPDATE folders SET parent_id = ? WHERE id = ?').run(parentId, id);
    return ok(getFolder(ctx, id)!);
  });
}

/**
 * Deletes a folder without losing anything: its feeds move to its parent (or the top level),
 * and its subfolders too (merged into a same-named sibling there, with their contents).
 */
export function deleteFolder(ctx: StoreContext, id: number): Result<true> {
  return transaction(ctx.db, () => {
    const f = getFolder(ctx, id);
    if (!f)
      return fail<true>(tidingsError('folder.notFound', 'That folder does not exist any more.', { id }));
    ctx.stmt('UPDATE feeds SET folder_id = ? WHERE folder_id = ?').run(f.parentId, id);
    const children = ctx.stmt('SELECT id FROM folders WHERE parent_id = ?').all(id) as { id: number }[];
    for (const c of children) mergeFolderInto(ctx, c.id, f.parentId);
    ctx.stmt('DELETE FROM folders WHERE id = ?').run(id);
    return ok(true as const);
  });
}

/** Moves folder `id` under `parentId`; when a sibling there has its name, the two become one. */
function mergeFolderInto(ctx: StoreContext, id: number, parentId: number | null): void {
  const f = getFolder(ctx, id)!;
  const same = ctx
    .stmt('SELECT id FROM folders WHERE IFNULL(parent_id, 0) = ? AND title = ? AND id <> ?')
    .get(parentId ?? 0, f.title, id) as { id: number } | undefined;
  if (!same) {
    ctx.stmt('UPDATE folders SET parent_id = ? WHERE id = ?').run(parentId, id);
    return;
  }
  ctx.stmt('UPDATE feeds SET folder_id = ? WHERE folder_id = ?').run(same.id, id);
  const children = ctx.stmt('SELECT id FROM folders WHERE parent_id = ?').all(id) as { id: number }[];
  for (const c of children) mergeFolderInto(ctx, c.id, same.id);
  ctx.stmt('DELETE FROM folders WHERE id = ?').run(id);
}

export interface FolderTotals {
  /** Unread in the folder's feeds and every subfolder's. */
  unread: number;
  /** Feeds directly in the folder. */
  feedCount: number;
}

/** Per folder: unread totals including subfolders (folders are few: summed in JS). */
export function folderTotals(ctx: StoreContext): Map<number, FolderTotals> {
  const folders = listFolders(ctx);
  const direct = ctx
    .stmt(
      'SELECT folder_id, SUM(unread) AS unread, COUNT(*) AS n FROM feeds WHERE folder_id IS NOT NULL GROUP BY folder_id',
    )
    .all() as { folder_id: number; unread: number; n: number }[];
  const out = new Map<number, FolderTotals>(folders.map((f) => [f.id, { unread: 0, feedCount: 0 }]));
  const parent = new Map(folders.map((f) => [f.id, f.parentId]));
  for (const d of direct) {
    const own = out.get(d.folder_id);
    if (own) own.feedCount = d.n;
    // Add to the folder and each ancestor (depth guard against a corrupted cycle).
    let at: number | null | undefined = d.folder_id;
    for (let depth = 0; at !== null && at !== undefined && depth < 64; depth++) {
      const t = out.get(at);
      if (t) t.unread += d.unread;
      at = parent.get(at);
    }
  }
  return out;
}
