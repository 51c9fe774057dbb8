/**
 * Folders: a tree (parent_id), created from paths like 'News/Tech' when a feed is filed.
 * Titles compare case-insensitively, so 'news/tech' files into the same folders.
 */
import type { StoreContext } from './context.ts';
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
