/**
 * How far behind the shared delivery queue is (delivery/queue.ts), for /metrics: the changes with
 * chunks not yet delivered, the subscribers those chunks still owe, and when the oldest of those
 * changes was queued. The queue is the cloud's, not one instance's: every instance reads the same.
 */
import type { Pool } from 'pg';

export interface QueueBacklog {
  changes: number;
  deliveries: number;
  /** When the oldest change still owed was queued (ms since the epoch), or null when none is. */
  oldestQueuedAt: number | null;
}

export async function queueBacklog(pool: Pool): Promise<QueueBacklog> {
  const r = await pool.query<{ changes: number; deliveries: number; oldest: number | null }>(
    `SELECT COUNT(DISTINCT c.change_id)::float8 AS changes, COALESCE(SUM(c.size), 0)::float8 AS deliveries,
      MIN(ch.when_created)::float8 AS oldest
    FROM delivery_chunks c JOIN changes ch ON ch.id = c.change_id WHERE NOT c.done`,
  );
  const row = r.rows[0];
  return {
    changes: row?.changes ?? 0,
    deliveries: row?.deliveries ?? 0,
    oldestQueuedAt: row?.oldest ?? null,
  };
}
