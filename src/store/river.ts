/**
 * The river: items newest first by (seen_at, pub_key, id), paged by keyset (the cursor is the
 * last row's key), so page 2,000 costs what page 1 does. Filters are SQL literals (read = 0,
 * starred = 1) so the planner can use the partial indexes; each filter combination is one
 * cached statement.
 */
import { TidingsFailure, tidingsError } from '../common/errors.ts';
import type { StoreContext } from './context.ts';
import { ITEM_COLUMNS, type RawItem, toItemRow } from './item-row.ts';
import type { RiverPage, RiverQuery } from './types.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

interface RiverKey {
  seenAt: number;
  pubKey: number;
  id: number;
}

/** Opaque to callers: 'r1' + the key in base 36. */
export function encodeCursor(k: RiverKey): string {
  return ['r1', k.seenAt.toString(36), k.pubKey.toString(36), k.id.toString(36)].join('.');
}

export function decodeCursor(cursor: string): RiverKey {
  const parts = cursor.split('.');
  const nums = parts.slice(1).map((p) => (/^-?[0-9a-z]{1,12}$/.test(p) ? parseInt(p, 36) : Number.NaN));
  const [seenAt, pubKey, id] = nums;
  if (parts[0] !== 'r1' || nums.length !== 3 || nums.some((n) => !Number.isSafeInteger(n))) {
    throw new TidingsFailure(tidingsError('store.badCursor', 'This river page link is not valid any more.'));
  }
  return { seenAt: seenAt!, pubKey: pubKey!, id: id! };
}

export function riverItems(ctx: StoreContext, q: RiverQuery): RiverPage {
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.trunc(q.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
  const where: string[] = [];
  const args: number[] = [];
  if (q.feedId !== undefined && q.feedId !== null) {
    where.push('feed_id = ?');
    args.push(q.feedId);
  }
  if (q.unreadOnly) where.push('read = 0');
  if (q.starredOnly) where.push('starred = 1');
  if (q.cursor) {
    const k = decodeCursor(q.cursor);
    where.push('(seen_at, pub_key, id) < (?, ?, ?)');
    args.push(k.seenAt, k.pubKey, k.id);
  }
  const sql = `SELECT ${ITEM_COLUMNS} FROM items ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY seen_at DESC, pub_key DESC, id DESC LIMIT ?`;
  // One row more than asked tells whether another page exists.
  const rows = ctx.stmt(sql).all(...args, limit + 1) as RawItem[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last
      ? encodeCursor({
          seenAt: last.seen_at as number,
          pubKey: last.pub_key as number,
          id: last.id as number,
        })
      : null;
  return { items: page.map(toItemRow), nextCursor };
}
