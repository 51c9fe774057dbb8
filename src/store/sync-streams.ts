/**
 * What the sync APIs (issue 32) read: streams of item ids in the river's order with Google
 * Reader's filters, items by id for their contents, and Fever's id-ordered pages. Read straight
 * from the items table (never a copy), with the river's rule that items a mute filter hid stay
 * out (muted_hide = 0). Filters are SQL literals so the river's partial indexes serve them; each
 * combination is one cached statement.
 *
 * "Arrival" is when an item reached this reader (arrived_at, else seen_at for rows from before
 * it was kept): what a phone's "since my last sync" (ot, nt, mark-all-as-read's ts, Fever's
 * before) means. The river's seen_at may be back-dated for a backlog (docs/decisions/0017), so it
 * would hide an old item that arrived after the last sync.
 */
import type { StoreContext } from './context.ts';
import { ITEM_COLUMNS, type RawItem, toItemRow } from './item-row.ts';
import { decodeCursor, encodeCursor } from './river.ts';
import type { ItemRow } from './types.ts';

const ARRIVAL = 'COALESCE(arrived_at, seen_at)';

export interface StreamFilter {
  /** Only these feeds (a feed or a label); null: every feed. An empty list matches nothing. */
  feedIds: readonly number[] | null;
  /** true: read items only; false: unread only; absent: both. */
  read?: boolean;
  /** true: starred only; false: not starred; absent: both. */
  starred?: boolean;
  /** Arrived at or after this time (ms). */
  arrivedFrom?: number | null;
  /** Arrived before this time (ms). */
  arrivedBefore?: number | null;
}

export interface StreamPageQuery {
  oldestFirst: boolean;
  /** From a previous page's `next`. */
  cursor: string | null;
  limit: number;
}

export interface StreamPage {
  ids: number[];
  /** null on the last page. */
  next: string | null;
}

function whereOf(f: StreamFilter): { clauses: string[]; args: (number | string)[] } {
  const clauses = ['muted_hide = 0'];
  const args: (number | string)[] = [];
  if (f.feedIds) {
    clauses.push('feed_id IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(f.feedIds));
  }
  if (f.read === true) clauses.push('read = 1');
  if (f.read === false) clauses.push('read = 0');
  if (f.starred === true) clauses.push('starred = 1');
  if (f.starred === false) clauses.push('starred = 0');
  if (f.arrivedFrom != null) {
    clauses.push(`${ARRIVAL} >= ?`);
    args.push(f.arrivedFrom);
  }
  if (f.arrivedBefore != null) {
    clauses.push(`${ARRIVAL} < ?`);
    args.push(f.arrivedBefore);
  }
  return { clauses, args };
}

/** One page of a stream's item ids in the river's order (newest first unless oldestFirst). */
export function streamIds(ctx: StoreContext, f: StreamFilter, q: StreamPageQuery): StreamPage {
  const { clauses, args } = whereOf(f);
  const dir = q.oldestFirst ? 'ASC' : 'DESC';
  const start = q.cursor ? decodeCursor(q.cursor) : null;
  const from = start
    ? [start.seenAt, start.pubKey, start.id]
    : q.oldestFirst
      ? [-1, Number.MIN_SAFE_INTEGER, -1]
      : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  const sql = `SELECT id, seen_at, pub_key FROM items
    WHERE ${[...clauses, `(seen_at, pub_key, id) ${q.oldestFirst ? '>' : '<'} (?, ?, ?)`].join(' AND ')}
    ORDER BY seen_at ${dir}, pub_key ${dir}, id ${dir} LIMIT ?`;
  const limit = Math.max(1, Math.trunc(q.limit));
  const rows = ctx.stmt(sql).all(...args, ...from, limit + 1) as {
    id: number;
    seen_at: number;
    pub_key: number;
  }[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    ids: page.map((r) => r.id),
    next:
      rows.length > limit && last
        ? encodeCursor({ seenAt: last.seen_at, pubKey: last.pub_key, id: last.id })
        : null,
  };
}

/** Every id of a stream matching the filter (for "mark all read before ts"), oldest first. */
export function allStreamIds(ctx: StoreContext, f: StreamFilter): number[] {
  const { clauses, args } = whereOf(f);
  const rows = ctx.stmt(`SELECT id FROM items WHERE ${clauses.join(' AND ')} ORDER BY id`).all(...args) as {
    id: number;
  }[];
  return rows.map((r) => r.id);
}

export interface SyncItemRow extends ItemRow {
  /** When it reached this reader (ms). */
  arrivedAt: number;
}

const toSyncRow = (r: RawItem): SyncItemRow => ({ ...toItemRow(r), arrivedAt: r.arrived as number });

/** Items by id (hidden ones and unknown ids left out), in the river's order. */
export function syncItemsByIds(
  ctx: StoreContext,
  ids: readonly number[],
  oldestFirst: boolean,
): SyncItemRow[] {
  if (ids.length === 0) return [];
  const dir = oldestFirst ? 'ASC' : 'DESC';
  const rows = ctx
    .stmt(
      `SELECT ${ITEM_COLUMNS}, ${ARRIVAL} AS arrived FROM items
       WHERE id IN (SELECT value FROM json_each(?)) AND muted_hide = 0
       ORDER BY seen_at ${dir}, pub_key ${dir}, id ${dir}`,
    )
    .all(JSON.stringify(ids)) as RawItem[];
  return rows.map(toSyncRow);
}

/** When each feed's newest item arrived (ms), for unread-count's newestItemTimestampUsec. */
export function newestArrivalByFeed(ctx: StoreContext): Map<number, number> {
  const rows = ctx
    .stmt(`SELECT feed_id, MAX(${ARRIVAL}) AS at FROM items WHERE muted_hide = 0 GROUP BY feed_id`)
    .all() as { feed_id: number; at: number }[];
  return new Map(rows.map((r) => [r.feed_id, r.at]));
}

// Fever: items are paged by id (since_id ascending, max_id descending), 50 at a time.

export type FeverItemsQuery =
  | { kind: 'since'; id: number }
  | { kind: 'max'; id: number }
  | { kind: 'ids'; ids: readonly number[] }
  | { kind: 'first' };

export function feverItems(ctx: StoreContext, q: FeverItemsQuery, limit: number): SyncItemRow[] {
  const select = `SELECT ${ITEM_COLUMNS}, ${ARRIVAL} AS arrived FROM items`;
  let rows: RawItem[];
  switch (q.kind) {
    case 'since':
      rows = ctx
        .stmt(`${select} WHERE id > ? AND muted_hide = 0 ORDER BY id LIMIT ?`)
        .all(q.id, limit) as RawItem[];
      break;
    case 'max':
      // max_id 0 asks for the newest.
      rows = ctx
        .stmt(`${select} WHERE id < ? AND muted_hide = 0 ORDER BY id DESC LIMIT ?`)
        .all(q.id > 0 ? q.id : Number.MAX_SAFE_INTEGER, limit) as RawItem[];
      break;
    case 'ids':
      rows = ctx
        .stmt(`${select} WHERE id IN (SELECT value FROM json_each(?)) AND muted_hide = 0 ORDER BY id LIMIT ?`)
        .all(JSON.stringify(q.ids), limit) as RawItem[];
      break;
    case 'first':
      rows = ctx.stmt(`${select} WHERE muted_hide = 0 ORDER BY id LIMIT ?`).all(limit) as RawItem[];
      break;
  }
  return rows.map(toSyncRow);
}

/** Items the river shows (hidden ones left out): Fever's total_items. */
export function visibleItemCount(ctx: StoreContext): number {
  const all = ctx.stmt('SELECT COUNT(*) AS n FROM items').get() as { n: number };
  const hidden = ctx.stmt('SELECT COUNT(*) AS n FROM items WHERE muted_hide = 1').get() as { n: number };
  return all.n - hidden.n;
}

/** Unread (or starred) item ids, ascending, as Fever lists them. */
export function idsWhere(ctx: StoreContext, which: 'unread' | 'starred'): number[] {
  const rows = ctx
    .stmt(
      `SELECT id FROM items WHERE ${which === 'unread' ? 'read = 0' : 'starred = 1'} AND muted_hide = 0 ORDER BY id`,
    )
    .all() as { id: number }[];
  return rows.map((r) => r.id);
}

/** Row ids of a feed's items by their identities (guid), for items filed from elsewhere (an import). */
export function itemIdsByGuids(
  ctx: StoreContext,
  feedId: number,
  guids: readonly string[],
): Map<string, number> {
  const rows = ctx
    .stmt('SELECT guid, id FROM items WHERE feed_id = ? AND guid IN (SELECT value FROM json_each(?))')
    .all(feedId, JSON.stringify(guids)) as { guid: string; id: number }[];
  return new Map(rows.map((r) => [r.guid, r.id]));
}
