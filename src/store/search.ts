/**
 * Full-text search: items_fts (contentless FTS5) holds title + HTML-stripped summary/content.
 * The upsert code writes it (SQL cannot strip HTML); a trigger deletes from it with the item.
 * Ranked by bm25 (title weighted 4x, set in the schema) then recency.
 */
import type { Item } from '../feed/model.ts';
import type { StoreContext } from './context.ts';
import { htmlToText } from './html-text.ts';
import { ITEM_COLUMNS, itemsByIds, type RawItem } from './item-row.ts';
import { toFtsQuery } from './search-query.ts';
import type { ItemRow } from './types.ts';

const MAX_CHILD_TEXT = 20_000;

/** The searchable body: summary, content (when it says more) and nested items' text. */
export function searchBody(item: Item): string {
  const summary = htmlToText(item.summary);
  const content = htmlToText(item.content);
  const parts = [summary];
  if (content && content !== summary) parts.push(content);
  let budget = MAX_CHILD_TEXT;
  const walk = (children: readonly Item[]) => {
    for (const c of children) {
      if (budget <= 0) return;
      const t = [c.title ?? '', htmlToText(c.summary), htmlToText(c.content)].join(' ').trim();
      budget -= t.length;
      parts.push(t);
      walk(c.children ?? []);
    }
  };
  walk(item.children ?? []);
  return parts.join(' ').trim();
}

export function indexItem(ctx: StoreContext, id: number, item: Item, replace: boolean): void {
  if (replace) ctx.stmt('DELETE FROM items_fts WHERE rowid = ?').run(id);
  ctx
    .stmt('INSERT INTO items_fts (rowid, title, body) VALUES (?, ?, ?)')
    .run(id, htmlToText(item.title), searchBody(item));
}

export function search(ctx: StoreContext, query: string, limit = 50): ItemRow[] {
  const match = toFtsQuery(query);
  if (match === null) return [];
  const n = Math.max(1, Math.min(500, Math.trunc(limit) || 50));
  // Equal scores (same words, same lengths) go newest first. Only ids are sorted; the winners'
  // rows are read afterwards.
  const hits = ctx
    .stmt(
      `SELECT f.rowid AS id FROM items_fts f JOIN items ON items.id = f.rowid
       WHERE items_fts MATCH ? ORDER BY f.rank, items.seen_at DESC, items.id DESC LIMIT ?`,
    )
    .all(match, n) as { id: number }[];
  if (hits.length === 0) return [];
  const ids = hits.map((h) => h.id);
  const rows = ctx
    .stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as RawItem[];
  return itemsByIds(rows, ids);
}
