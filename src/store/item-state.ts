/** Read and starred state. Unread counters follow by trigger (schema.ts). */
import type { StoreContext } from './context.ts';
import { transaction } from './sqlite.ts';

/** Returns how many items changed state. */
export function markRead(ctx: StoreContext, ids: readonly number[], read: boolean): number {
  if (ids.length === 0) return 0;
  return transaction(ctx.db, () =>
    Number(
      ctx
        .stmt('UPDATE items SET read = ?1 WHERE read <> ?1 AND id IN (SELECT value FROM json_each(?2))')
        .run(read ? 1 : 0, JSON.stringify(ids)).changes,
    ),
  );
}

export function markFeedRead(ctx: StoreContext, feedId: number): number {
  return transaction(ctx.db, () =>
    Number(ctx.stmt('UPDATE items SET read = 1 WHERE feed_id = ? AND read = 0').run(feedId).changes),
  );
}

export function setStarred(ctx: StoreContext, id: number, starred: boolean): boolean {
  return Number(ctx.stmt('UPDATE items SET starred = ? WHERE id = ?').run(starred ? 1 : 0, id).changes) > 0;
}

/** Unread items of one feed, or of all feeds. */
export function unreadCount(ctx: StoreContext, feedId?: number | null): number {
  const row =
    feedId === undefined || feedId === null
      ? (ctx.stmt('SELECT IFNULL(SUM(unread), 0) AS n FROM feeds').get() as { n: number })
      : (ctx.stmt('SELECT unread AS n FROM feeds WHERE id = ?').get(feedId) as { n: number } | undefined);
  return row?.n ?? 0;
}

/** The feed an item belongs to, or null for an unknown id (the app refreshes that feed's row). */
export function getItemFeedId(ctx: StoreContext, id: number): number | null {
  const row = ctx.stmt('SELECT feed_id FROM items WHERE id = ?').get(id) as { feed_id: number } | undefined;
  return row?.feed_id ?? null;
}

/**
 * These items by the feed each belongs to, in the order given (unknown ids left out): one query
 * for a batch (a phone marks thousands at once), where a look-up per item was two per mark.
 */
export function itemsByFeed(ctx: StoreContext, ids: readonly number[]): Map<number, number[]> {
  const byFeed = new Map<number, number[]>();
  if (ids.length === 0) return byFeed;
  const rows = ctx
    .stmt('SELECT id, feed_id FROM items WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ids)) as { id: number; feed_id: number }[];
  const feedOf = new Map(rows.map((r) => [r.id, r.feed_id]));
  for (const id of ids) {
    const feedId = feedOf.get(id);
    if (feedId === undefined) continue;
    const list = byFeed.get(feedId);
    if (list) list.push(id);
    else byFeed.set(feedId, [id]);
  }
  return byFeed;
}

/** Marks every item of these feeds read (a folder); null: every feed. Returns how many changed. */
export function markFeedsRead(ctx: StoreContext, feedIds: readonly number[] | null): number {
  return transaction(ctx.db, () =>
    Number(
      feedIds === null
        ? ctx.stmt('UPDATE items SET read = 1 WHERE read = 0').run().changes
        : ctx
            .stmt('UPDATE items SET read = 1 WHERE read = 0 AND feed_id IN (SELECT value FROM json_each(?))')
            .run(JSON.stringify(feedIds)).changes,
    ),
  );
}

export interface OlderScope {
  /** Items dated before this (ms since epoch): their own date, else when they arrived. */
  before: number;
  /** Only these feeds (a feed, a folder's feeds); null: every feed. */
  feedIds: readonly number[] | null;
  starredOnly?: boolean;
}

/**
 * Marks read the unread items older than `before` (issue 35: "older than a day / a week"), by the
 * date the river shows. Returns the ids it changed, so the change can be undone exactly.
 */
export function markOlderRead(ctx: StoreContext, scope: OlderScope): number[] {
  const feeds = scope.feedIds === null ? null : JSON.stringify(scope.feedIds);
  return transaction(ctx.db, () =>
    (
      ctx
        .stmt(
          `UPDATE items SET read = 1
           WHERE read = 0 AND (CASE WHEN pub_key > 0 THEN pub_key ELSE seen_at END) < ?1
             AND (?2 IS NULL OR feed_id IN (SELECT value FROM json_each(?2)))
             AND (?3 = 0 OR starred = 1)
           RETURNING id`,
        )
        .all(scope.before, feeds, scope.starredOnly ? 1 : 0) as { id: number }[]
    ).map((r) => r.id),
  );
}
