/**
 * Full-text search: items_fts (contentless FTS5) holds title + HTML-stripped summary/content.
 * The upsert code writes it (SQL cannot strip HTML); a trigger deletes from it with the item.
 * Ranked by bm25 (title weighted TITLE_WEIGHT times the body) then recency, over the newest
 * RANK_WINDOW matches.
 */
import type { Item } from '../feed/model.ts';
import type { StoreContext } from './context.ts';
import { htmlToText } from './html-text.ts';
import { ITEM_COLUMNS, itemsByIds, type RawItem } from './item-row.ts';
import { toFtsQuery } from './search-query.ts';
import type { ItemRow } from './types.ts';

const MAX_CHILD_TEXT = 20_000;
/** A word in the title counts this many times one in the body. */
const TITLE_WEIGHT = 4.0;
/** How many of the newest matches are ranked (see search()). */
export const RANK_WINDOW = 5000;

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
  // Ranked inside the FTS table alone: joining items for seen_at made a common word 3x slower.
  // Equal scores go newest first by row id, which grows with first sight just as seen_at does.
  // Only the newest RANK_WINDOW matches are scored: a word in 20% of 100k items would otherwise
  // score 20k rows per keystroke, and in a river the best of the newest 5,000 is what one wants.
  // The winners' rows are read afterwards.
  const hits = ctx
    .stmt(
      `SELECT id FROM (
         SELECT rowid AS id, bm25(items_fts, ${TITLE_WEIGHT}, 1.0) AS score FROM items_fts
         WHERE items_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${RANK_WINDOW}
       ) ORDER BY score, id DESC LIMIT ?2`,
    )
    .all(match, n) as { id: number }[];
  if (hits.length === 0) return [];
  const ids = hits.map((h) => h.id);
  const rows = ctx
    .stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?)) AND muted_hide = 0`)
    .all(JSON.stringify(ids)) as RawItem[];
  return itemsByIds(rows, ids);
}

export interface ScopedSearch {
  /** An FTS5 expression from parseSearch (search-syntax.ts). */
  match: string;
  /** Only these feeds (a feed or a folder's feeds); null: all. */
  feedIds?: readonly number[] | null;
  limit?: number;
}

/**
 * Search within a scope (issue 9). Same ranking as search(), over the newest RANK_WINDOW matches
 * inside the scope: the FTS matches are walked newest first and each is looked up in items by
 * its key to test its feed (an `IN (subquery)` on the FTS table itself was measured at 80 s on
 * 100,000 items: SQLite re-ran the MATCH per candidate). Items a mute filter hid stay out.
 */
export function searchScoped(ctx: StoreContext, q: ScopedSearch): ItemRow[] {
  const n = Math.max(1, Math.min(500, Math.trunc(q.limit ?? 50) || 50));
  const scoped = q.feedIds !== undefined && q.feedIds !== null;
  if (scoped && q.feedIds!.length === 0) return [];
  let hits: { id: number }[];
  try {
    // The scope's items lie between these row ids: FTS5 walks only that stretch of each
    // doclist (a feed whose items came in a few fetches is a short stretch).
    const span = scoped
      ? (ctx
          .stmt(
            'SELECT MIN(id) AS lo, MAX(id) AS hi FROM items WHERE feed_id IN (SELECT value FROM json_each(?))',
          )
          .get(JSON.stringify(q.feedIds)) as { lo: number | null; hi: number | null })
      : null;
    if (span && (span.lo === null || span.hi === null)) return [];
    hits = scoped
      ? (ctx
          .stmt(
            `SELECT id FROM (
               SELECT f.rowid AS id, bm25(items_fts, ${TITLE_WEIGHT}, 1.0) AS score
               FROM items_fts AS f JOIN items AS i ON i.id = f.rowid
               WHERE items_fts MATCH ?1 AND f.rowid BETWEEN ?4 AND ?5
                 AND i.feed_id IN (SELECT value FROM json_each(?3))
               ORDER BY f.rowid DESC LIMIT ${RANK_WINDOW}
             ) ORDER BY score, id DESC LIMIT ?2`,
          )
          .all(q.match, n, JSON.stringify(q.feedIds), span!.lo, span!.hi) as { id: number }[])
      : (ctx
          .stmt(
            `SELECT id FROM (
               SELECT rowid AS id, bm25(items_fts, ${TITLE_WEIGHT}, 1.0) AS score FROM items_fts
               WHERE items_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${RANK_WINDOW}
             ) ORDER BY score, id DESC LIMIT ?2`,
          )
          .all(q.match, n) as { id: number }[]);
  } catch {
    // parseSearch only builds valid expressions; a surprise here finds nothing rather than failing.
    return [];
  }
  if (hits.length === 0) return [];
  const ids = hits.map((h) => h.id);
  const rows = ctx
    .stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?)) AND muted_hide = 0`)
    .all(JSON.stringify(ids)) as RawItem[];
  return itemsByIds(rows, ids);
}
