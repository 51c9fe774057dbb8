/**
 * The river: items newest first by (seen_at, pub_key, id), paged by keyset (the cursor is the
 * last row's key), so page 2,000 costs what page 1 does. Filters are SQL literals (read = 0,
 * starred = 1) so the planner can use the partial indexes; each filter combination is one
 * cached statement.
 */
import { TidingsFailure, tidingsError } from '../common/errors.ts';
import type { StoreContext } from './context.ts';
import { ITEM_COLUMNS, itemsByIds, type RawItem, toItemRow } from './item-row.ts';
import type { ItemRow, RiverPage, RiverQuery } from './types.ts';

const DEFAULT_LIMIT = 50;
/** A folder holding at least this share of the feeds walks the river index (see riverItems). */
const FOLDER_WALK_SHARE = 0.05;
const MAX_LIMIT = 500;
const MAX_BATCH_LIMIT = 5000;

interface RiverKey {
  seenAt: number;
  pubKey: number;
  id: number;
  /** With a group cap: the last row's feed and how many of its batch were shown (carried over). */
  feedId?: number;
  shown?: number;
}

/** Opaque to callers: 'r1' + the key in base 36. */
export function encodeCursor(k: RiverKey): string {
  const parts = ['r1', k.seenAt.toString(36), k.pubKey.toString(36), k.id.toString(36)];
  if (k.feedId !== undefined && k.shown !== undefined)
    parts.push(k.feedId.toString(36), k.shown.toString(36));
  return parts.join('.');
}

export function decodeCursor(cursor: string): RiverKey {
  const parts = cursor.split('.');
  const nums = parts.slice(1).map((p) => (/^-?[0-9a-z]{1,12}$/.test(p) ? parseInt(p, 36) : Number.NaN));
  const [seenAt, pubKey, id, feedId, shown] = nums;
  if (
    parts[0] !== 'r1' ||
    (nums.length !== 3 && nums.length !== 5) ||
    nums.some((n) => !Number.isSafeInteger(n))
  ) {
    throw new TidingsFailure(tidingsError('store.badCursor', 'This river page link is not valid any more.'));
  }
  const key: RiverKey = { seenAt: seenAt!, pubKey: pubKey!, id: id! };
  if (feedId !== undefined && shown !== undefined) Object.assign(key, { feedId, shown });
  return key;
}

const keyOf = (r: RawItem): RiverKey => ({
  seenAt: r.seen_at as number,
  pubKey: r.pub_key as number,
  id: r.id as number,
});
const batchKey = (feedId: number, seenAt: number) => `${feedId}:${seenAt}`;

export function riverItems(ctx: StoreContext, q: RiverQuery): RiverPage {
  // One fetch's batch may be read whole ("N more from this feed"): it is bounded by the items
  // one document may bring (5,000), not by a river page.
  const max = q.batch ? MAX_BATCH_LIMIT : MAX_LIMIT;
  const limit = Math.max(1, Math.min(max, Math.trunc(q.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
  const oldest = q.sort === 'oldest';
  const where: string[] = [];
  const args: (number | string)[] = [];
  if (q.feedId !== undefined && q.feedId !== null) {
    where.push('feed_id = ?');
    args.push(q.feedId);
  }
  if (q.feedIds) {
    // A folder's river. Through the per-feed index SQLite reads every item of those feeds and
    // sorts them (fine for a small folder, ~50 ms for 50,000 items); walking the river index in
    // order and skipping other feeds' items stops after one page (fine unless the folder's
    // items are rare). The share of feeds decides: '+feed_id' keeps the planner off feed_id.
    const total = (ctx.stmt('SELECT COUNT(*) AS n FROM feeds').get() as { n: number }).n;
    const walk = total > 0 && q.feedIds.length / total >= FOLDER_WALK_SHARE;
    where.push(`${walk ? '+' : ''}feed_id IN (SELECT value FROM json_each(?))`);
    args.push(JSON.stringify(q.feedIds));
  }
  if (q.batch) {
    where.push('feed_id = ? AND seen_at = ?');
    args.push(q.batch.feedId, q.batch.seenAt);
  }
  if (q.unreadOnly) where.push('read = 0');
  if (q.starredOnly) where.push('starred = 1');
  if (!q.includeMuted) where.push('muted_hide = 0');
  const start = q.cursor ? decodeCursor(q.cursor) : null;
  const dir = oldest ? 'ASC' : 'DESC';
  const filter = `WHERE ${[...where, `(seen_at, pub_key, id) ${oldest ? '>' : '<'} (?, ?, ?)`].join(' AND ')}
    ORDER BY seen_at ${dir}, pub_key ${dir}, id ${dir} LIMIT ?`;
  const sql = `SELECT ${ITEM_COLUMNS} FROM items ${filter}`;
  // The capped scan reads keys only: a 5,000-item fetch is skipped without reading its bodies.
  const keysSql = `SELECT id, feed_id, seen_at, pub_key FROM items ${filter}`;
  const from = (k: RiverKey | null): number[] =>
    k
      ? [k.seenAt, k.pubKey, k.id]
      : oldest
        ? [-1, Number.MIN_SAFE_INTEGER, -1]
        : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  const cap = q.groupCap && q.groupCap > 0 && !q.batch ? Math.trunc(q.groupCap) : null;
  if (cap === null) {
    // One row more than asked tells whether another page exists.
    const rows = ctx.stmt(sql).all(...args, ...from(start), limit + 1) as RawItem[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor(keyOf(last)) : null;
    return { items: page.map(toItemRow), nextCursor };
  }
  // Group cap: rows past the cap of their fetch batch are skipped and counted. The scan goes on
  // past a full page until the next row that would show, so a capped batch is counted whole and
  // the next page does not start inside it.
  const shown = new Map<string, number>();
  const more = new Map<string, number>();
  if (start?.feedId !== undefined && start.shown !== undefined) {
    shown.set(batchKey(start.feedId, start.seenAt), start.shown);
  }
  const out: RawItem[] = [];
  const chunk = Math.max(limit + 1, 200);
  let at = start;
  let lastTaken: RawItem | null = null;
  let hasMore = false;
  scan: for (;;) {
    const rows = ctx.stmt(keysSql).all(...args, ...from(at), chunk) as RawItem[];
    for (const r of rows) {
      const key = batchKey(r.feed_id as number, r.seen_at as number);
      const n = shown.get(key) ?? 0;
      if (n >= cap) {
        more.set(key, (more.get(key) ?? 0) + 1);
        lastTaken = r;
        continue;
      }
      if (out.length === limit) {
        hasMore = true;
        break scan;
      }
      out.push(r);
      shown.set(key, n + 1);
      lastTaken = r;
    }
    if (rows.length < chunk) break;
    at = keyOf(rows[rows.length - 1]!);
  }
  let nextCursor: string | null = null;
  if (hasMore && lastTaken) {
    const feedId = lastTaken.feed_id as number;
    const k = keyOf(lastTaken);
    nextCursor = encodeCursor({ ...k, feedId, shown: shown.get(batchKey(feedId, k.seenAt)) ?? 0 });
  }
  const ids = out.map((r) => r.id as number);
  const full = ctx
    .stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as RawItem[];
  return { items: itemsByIds(full, ids), nextCursor, more };
}

/** Items by row id, in the order asked; ids that no longer exist are skipped (at most 500 read). */
export function getItems(ctx: StoreContext, ids: readonly number[]): ItemRow[] {
  const wanted = ids.slice(0, 500);
  if (wanted.length === 0) return [];
  const rows = ctx
    .stmt(`SELECT ${ITEM_COLUMNS} FROM items WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(wanted)) as RawItem[];
  return itemsByIds(rows, wanted);
}
