/**
 * Retention: unstarred items that arrived more than `retentionDays` ago are deleted (starred ones
 * stay forever). Each leaves a tombstone (feed + identity), so a feed that still lists the item
 * cannot bring it back as new. Tombstones live while the feed keeps listing the item (upsert
 * touches them) and are dropped after TOMBSTONE_GRACE_DAYS without it: by then the feed has
 * long stopped carrying it.
 */
import type { StoreContext } from './context.ts';
import { transaction } from './sqlite.ts';

const DAY_MS = 86_400_000;
export const TOMBSTONE_GRACE_DAYS = 90;
/**
 * When an item arrived (schema v4): a backlog's seen_at is the item's own date, not its arrival,
 * so a feed's old items are not deleted the moment they come in. Matches the items_retention index.
 */
const ARRIVED = 'COALESCE(arrived_at, seen_at)';

/** Returns the number of items deleted. retentionDays <= 0 (or not finite) keeps everything. */
export function prune(ctx: StoreContext, now: number, retentionDays: number): number {
  if (!Number.isFinite(retentionDays) || retentionDays <= 0) return 0;
  const cutoff = now - retentionDays * DAY_MS;
  return transaction(ctx.db, () => {
    ctx
      .stmt(
        `INSERT INTO tombstones (feed_id, guid, last_seen)
         SELECT feed_id, guid, ?1 FROM items WHERE ${ARRIVED} < ?2 AND starred = 0
         ON CONFLICT (feed_id, guid) DO UPDATE SET last_seen = excluded.last_seen`,
      )
      .run(now, cutoff);
    const deleted = Number(
      ctx.stmt(`DELETE FROM items WHERE ${ARRIVED} < ? AND starred = 0`).run(cutoff).changes,
    );
    ctx.stmt('DELETE FROM tombstones WHERE last_seen < ?').run(now - TOMBSTONE_GRACE_DAYS * DAY_MS);
    return deleted;
  });
}
