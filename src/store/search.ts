/**
 * Full-text search: items_fts (contentless FTS5) holds title + HTML-stripped summary/content.
 * The upsert code writes it (SQL cannot strip HTML); a trigger deletes from it with the item.
 * Ranked over the newest RANK_WINDOW matches: title matches first, then newest first (rankNewest).
 */
import type { Item } from '../feed/model.ts';
import type { StoreContext } from './context.ts';
import { htmlToText } from './html-text.ts';
import { ITEM_COLUMNS, itemsByIds, type RawItem } from './item-row.ts';
import { prefixExpander } from './search-prefix.ts';
import { toFtsQuery } from './search-query.ts';
import type { ItemRow } from './types.ts';

const MAX_CHILD_TEXT = 20_000;
/** How many of the newest matches are ranked (rankNewest): 5,000 cost a sparse two-word query
 * with a prefix 38 ms of CPU at a million items, 2,000 cost 29 (bench:store). */
export const RANK_WINDOW = 2000;

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
    .run(id, item.title ?? '', searchBody(item)); // titles are plain text (the feed model's rule)
}

export function search(ctx: StoreContext, query: string, limit = 50): ItemRow[] {
  const simple = toFtsQuery(query);
  if (simple === null) return [];
  // toFtsQuery writes phrases side by side (implicit AND), which FTS5 refuses next to the
  // bracketed alternatives prefixExpander writes: spell the AND out.
  const typed = (simple.match(/"[^"]*"\*?/g) ?? []).join(' AND ');
  const expand = prefixExpander(ctx);
  const n = Math.max(1, Math.min(500, Math.trunc(limit) || 50));
  const newest = ctx
    .stmt(
      `SELECT rowid AS id FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`,
    )
    .all(expand(typed)) as { id: number }[];
  return readRows(ctx, rankNewest(ctx, typed, newest, n, expand));
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
  let ids: number[];
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
    const expand = prefixExpander(ctx);
    const match = expand(q.match);
    const newest = scoped
      ? (ctx
          .stmt(
            `SELECT f.rowid AS id FROM items_fts AS f JOIN items AS i ON i.id = f.rowid
             WHERE items_fts MATCH ?1 AND f.rowid BETWEEN ?3 AND ?4
               AND i.feed_id IN (SELECT value FROM json_each(?2))
             ORDER BY f.rowid DESC LIMIT ${RANK_WINDOW}`,
          )
          .all(match, JSON.stringify(q.feedIds), span!.lo, span!.hi) as { id: number }[])
      : (ctx
          .stmt(
            `SELECT rowid AS id FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`,
          )
          .all(match) as { id: number }[]);
    ids = rankNewest(ctx, q.match, newest, n, expand);
  } catch {
    // parseSearch only builds valid expressions; a surprise here finds nothing rather than failing.
    return [];
  }
  return readRows(ctx, ids);
}

/**
 * The best `n` of the newest matches (`newest`: row ids, highest first), in three tiers, each
 * newest first by the item's own date (newestByDate): the whole query matches within the title;
 * some word or phrase of it is in the title; the body alone matches. (The title walks still stop
 * at `n` in row-id order: past `n` title matches, the cut falls by arrival, the order by date.)
 *
 * Why not bm25(): FTS5's bm25 weighs each phrase by how many rows in the whole table hold it, and
 * counts that by walking the phrase's entire posting list on every query, even when only the
 * newest few thousand matches are ranked: at a million items a common word cost 60 ms a
 * keystroke, a prefix over 100. The title tests here walk each posting list newest first and
 * stop at the oldest candidate or once `n` are found. (A `rowid BETWEEN` bound instead of the
 * early stop was measured 3-30x slower: FTS5 then reads more of each doclist.) What is given up
 * is bm25's order by term frequency and length inside a tier; newest first within a tier is
 * what the river itself does.
 */
export function rankNewest(
  ctx: StoreContext,
  match: string,
  newest: readonly { id: number }[],
  n: number,
  /** Rewrites long prefixes before FTS5 sees them (search-prefix.ts). */
  expand: (match: string) => string = (m) => m,
): number[] {
  if (newest.length === 0) return [];
  const oldest = newest[newest.length - 1]!.id;
  const candidates = new Set(newest.map((r) => r.id));
  const byDate = newestByDate(ctx, newest);
  const walk = ctx.stmt('SELECT rowid AS id FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid DESC');
  /** Candidates matching `expr`, newest first, at most n. */
  const inTitle = (expr: string): Set<number> => {
    const found = new Set<number>();
    // Leaving the loop early resets the statement (no read snapshot is kept open).
    for (const row of walk.iterate(expr) as Iterable<{ id: number }>) {
      if (row.id < oldest || found.size >= n) break;
      if (candidates.has(row.id)) found.add(row.id);
    }
    return found;
  };
  // The whole expression within the title. A candidate already has no excluded (NOT) word
  // anywhere, so the NOT half holds in its title too and the test is the positive half's.
  const whole = inTitle(expand(`{title} : (${match})`));
  // Some phrase in the title. The builders quote every phrase and quotes hold only letters,
  // digits, marks and spaces, so this finds them all; an excluded one cannot be in a candidate,
  // so OR-ing it in changes nothing. ANDed with the query itself so FTS5 skips along the
  // query's matches instead of every title holding a common word.
  const phrases = [...new Set(match.match(/"[^"]*"\*?/g) ?? [])];
  const some =
    phrases.length > 1 && whole.size < n
      ? inTitle(expand(`(${match}) AND {title} : (${phrases.join(' OR ')})`))
      : whole;
  const tiers: number[][] = [[], [], []];
  for (const id of byDate) {
    const tier = whole.has(id) ? 0 : some.has(id) ? 1 : 2;
    if (tiers[tier]!.length < n) tiers[tier]!.push(id);
    if (tiers[0]!.length + tiers[1]!.length >= n) break;
  }
  return tiers.flat().slice(0, n);
}

/**
 * Match ids by the item's own date, newest first: the date the river shows (published, else
 * updated, else when it arrived), then the row id. Row ids alone are arrival order, and a feed
 * lists its newest item first, so one fetch's items came out oldest first (issue 35).
 */
function newestByDate(ctx: StoreContext, matches: readonly { id: number }[]): number[] {
  const rows = ctx
    .stmt(
      `SELECT id, CASE WHEN pub_key > 0 THEN pub_key ELSE seen_at END AS at
       FROM items WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(matches.map((r) => r.id))) as { id: number; at: number }[];
  rows.sort((a, b) => b.at - a.at || b.id - a.id);
  return rows.map((r) => r.id);
}

/** The rows for `ids`, in that order, leaving out items a mute filter hid. */
function readRows(ctx: StoreContext, ids: readonly number[]): ItemRow[] {
  if (ids.length === 0) return [];
  const rows = ctx
    .stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?)) AND muted_hide = 0`)
    .all(JSON.stringify(ids)) as RawItem[];
  return itemsByIds(rows, ids);
}
