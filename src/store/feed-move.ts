/**
 * A feed moved permanently (301/308, or <redirect>): the subscription takes the new URL. When
 * another subscription already has that URL, the two are one feed now: this one (the id the
 * caller is working with) absorbs the other's items, read/starred marks, tombstones, folder and
 * credentials, and the other is removed.
 */
import type { StoreContext } from './context.ts';
import { getFeed } from './feeds.ts';
import { transaction } from './sqlite.ts';
import type { MoveResult } from './types.ts';

export function moveFeedUrl(ctx: StoreContext, id: number, newUrl: string): MoveResult | null {
  const url = newUrl.trim();
  return transaction(ctx.db, () => {
    const feed = getFeed(ctx, id);
    if (!feed) return null;
    if (feed.url === url) return { feed, mergedFrom: null };
    const other = ctx.stmt('SELECT id FROM feeds WHERE url = ?').get(url) as { id: number } | undefined;
    if (other) mergeInto(ctx, id, other.id);
    ctx.stmt('UPDATE feeds SET url = ? WHERE id = ?').run(url, id);
    return { feed: getFeed(ctx, id)!, mergedFrom: other?.id ?? null };
  });
}

function mergeInto(ctx: StoreContext, keep: number, drop: number): void {
  // Items both have: read or starred in either stays so.
  ctx
    .stmt(
      `UPDATE items AS mine SET starred = MAX(mine.starred, o.starred), read = MAX(mine.read, o.read)
       FROM items AS o
       WHERE mine.feed_id = ?1 AND o.feed_id = ?2 AND o.guid = mine.guid
         AND (o.starred > mine.starred OR o.read > mine.read)`,
    )
    .run(keep, drop);
  // Items only the other has move over (OR IGNORE leaves the duplicates to go with the feed).
  ctx.stmt('UPDATE OR IGNORE items SET feed_id = ?1 WHERE feed_id = ?2').run(keep, drop);
  ctx
    .stmt(
      `INSERT OR IGNORE INTO tombstones (feed_id, guid, last_seen)
       SELECT ?1, guid, last_seen FROM tombstones WHERE feed_id = ?2`,
    )
    .run(keep, drop);
  // A tombstone must not shadow an item that is alive after the merge.
  ctx
    .stmt('DELETE FROM tombstones WHERE feed_id = ?1 AND guid IN (SELECT guid FROM items WHERE feed_id = ?1)')
    .run(keep);
  ctx
    .stmt(
      `UPDATE feeds SET
         title = IFNULL(feeds.title, o.title), site_url = IFNULL(feeds.site_url, o.site_url),
         folder_id = IFNULL(feeds.folder_id, o.folder_id), credentials = IFNULL(feeds.credentials, o.credentials),
         interval_min = IFNULL(feeds.interval_min, o.interval_min), created_at = MIN(feeds.created_at, o.created_at)
       FROM feeds AS o WHERE feeds.id = ?1 AND o.id = ?2`,
    )
    .run(keep, drop);
  ctx.stmt('DELETE FROM feeds WHERE id = ?').run(drop);
}
