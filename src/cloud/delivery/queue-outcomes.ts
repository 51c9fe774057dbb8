/**
 * Settling delivered chunks of the shared queue (delivery/queue.ts): each chunk's outcomes are written
 * to its subscriptions and the chunk is marked done (or, after a stop mid-chunk, left with the
 * subscribers it still owes, unleased; or, the only chunk of its change all delivered, removed
 * with its change: nobody needs to look for the change's end) in ONE statement, so a chunk is
 * either settled with its outcomes or not at all: a killed instance repeats at most the chunks it
 * held, never one it settled. Small chunks that end within 50 ms of one another (or
 * while a write is under way) are written together (one statement for many small changes).
 *
 * Two outcomes for one subscription in one statement would update its row twice (PostgreSQL keeps
 * one): a subscription belongs to one feed, so a write takes chunks of at most one change per
 * feed, and a later change of the same feed waits for the next write.
 */
import type { Pool } from 'pg';
import { OUTCOME_CTES, outcomeParams } from '../store/pg-outcomes.ts';
import type { DeliveryResult } from '../store/store.ts';

export interface ChunkSettlement {
  chunkId: number;
  changeId: number;
  feedUrl: string;
  results: readonly DeliveryResult[];
  /** Subscription ids of the chunk not delivered (stopped mid-chunk): handed back, unleased. */
  remaining: readonly number[];
  /** The change's only chunk, all delivered: the change goes (its chunk with it), not marked done. */
  finished?: boolean;
  /** Failed WebSub deliveries kept as a chunk of the change, claimable from `notBefore` (cloud clock). */
  retry?: { ids: readonly number[]; attempt: number; notBefore: number } | null;
}

const SETTLE_SQL = `
WITH ${OUTCOME_CTES},
chunks AS (
  UPDATE delivery_chunks c SET delivered = c.delivered + k.delivered, failed = c.failed + k.failed,
    subscription_ids = k.remaining::bigint[], size = cardinality(k.remaining::bigint[]),
    done = cardinality(k.remaining::bigint[]) = 0, leased_until = NULL, leased_by = NULL
  FROM unnest($5::bigint[], $6::int[], $7::int[], $8::text[]) AS k(id, delivered, failed, remaining)
  WHERE c.id = k.id AND c.leased_by = $9 AND NOT c.done RETURNING 1),
finished AS (
  DELETE FROM changes ch USING delivery_chunks c
  WHERE c.id = ANY($10::bigint[]) AND ch.id = c.change_id AND c.leased_by = $9 AND NOT c.done RETURNING 1),
retried AS (
  INSERT INTO delivery_chunks (change_id, subscription_ids, size, attempt, not_before)
  SELECT c.change_id, r.ids::bigint[], cardinality(r.ids::bigint[]), r.attempt, r.not_before
  FROM unnest($11::bigint[], $12::text[], $13::int[], $14::bigint[]) AS r(chunk_id, ids, attempt, not_before)
    JOIN delivery_chunks c ON c.id = r.chunk_id AND c.leased_by = $9 AND NOT c.done
  RETURNING 1)
SELECT (SELECT COUNT(*) FROM chunks) + (SELECT COUNT(*) FROM finished) AS settled`;

/**
 * The retries of a group of settlements as the columns SETTLE_SQL inserts them from (a retry is
 * written in the statement that records the failure it retries: neither is kept without the other).
 */
function retryParams(group: readonly ChunkSettlement[]): unknown[] {
  const kept = group.filter((s) => s.retry && s.retry.ids.length > 0);
  return [
    kept.map((s) => s.chunkId),
    kept.map((s) => `{${s.retry!.ids.join(',')}}`),
    kept.map((s) => s.retry!.attempt),
    kept.map((s) => s.retry!.notBefore),
  ];
}

/** PostgreSQL's "deadlock detected": two writes took the same rows in opposite orders; tried again. */
const DEADLOCK = '40P01';

/**
 * How long a settlement of a small chunk waits for others to share its statement, and the
 * subscribers waiting that start the write at once (a chunk of a big change is not delayed: the
 * instance's room is held until it is settled). Written as soon as each ended, three instances
 * each answering a third of the pings wrote 0.7 statements a ping (one, 0.3): a statement costs
 * the database about as much to receive, plan and commit as to run.
 */
export interface SettleWindow {
  ms: number;
  subscribers: number;
}
export const DEFAULT_SETTLE_WINDOW: SettleWindow = { ms: 50, subscribers: 500 };

interface Waiting {
  s: ChunkSettlement;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class OutcomeWriter {
  private readonly pool: Pool;
  private readonly instanceId: string;
  private readonly batching: SettleWindow;
  private waiting: Waiting[] = [];
  /** Subscribers (reached or handed back) of the settlements waiting. */
  private waitingSubscribers = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing = false;

  constructor(pool: Pool, instanceId: string, batching: SettleWindow = DEFAULT_SETTLE_WINDOW) {
    this.pool = pool;
    this.instanceId = instanceId;
    this.batching = batching;
  }

  /** Resolves when the chunk's outcomes are written (rejects when the database would not take them). */
  settle(s: ChunkSettlement): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ s, resolve, reject });
      this.waitingSubscribers += s.results.length + s.remaining.length;
      this.schedule();
    });
  }

  /** Writes now when enough waits (or no wait is set), else once the wait ends; never two at once. */
  private schedule(): void {
    if (this.writing || this.waiting.length === 0) return;
    if (this.batching.ms <= 0 || this.waitingSubscribers >= this.batching.subscribers) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      void this.drain();
    } else
      this.timer ??= setTimeout(() => {
        this.timer = null;
        void this.drain();
      }, this.batching.ms);
  }

  /**
   * One statement of what waits (a later change of a feed already in it waits for the next);
   * then what came meanwhile is scheduled afresh.
   */
  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      const changeOfFeed = new Map<string, number>();
      const group: Waiting[] = [];
      const later: Waiting[] = [];
      for (const w of this.waiting) {
        const change = changeOfFeed.get(w.s.feedUrl);
        if (change === undefined || change === w.s.changeId) {
          changeOfFeed.set(w.s.feedUrl, w.s.changeId);
          group.push(w);
        } else later.push(w);
      }
      this.waiting = later;
      this.waitingSubscribers = later.reduce((n, w) => n + w.s.results.length + w.s.remaining.length, 0);
      try {
        await this.write(group.map((w) => w.s));
        for (const w of group) w.resolve();
      } catch (e) {
        for (const w of group) w.reject(e);
      }
    } finally {
      this.writing = false;
      this.schedule();
    }
  }

  private async write(group: readonly ChunkSettlement[]): Promise<void> {
    const kept = group.filter((s) => !s.finished);
    const params = [
      ...outcomeParams(group.flatMap((s) => s.results)),
      kept.map((s) => s.chunkId),
      kept.map((s) => s.results.filter((r) => r.ok).length),
      kept.map((s) => s.results.filter((r) => !r.ok).length),
      kept.map((s) => `{${s.remaining.join(',')}}`),
      this.instanceId,
      group.filter((s) => s.finished).map((s) => s.chunkId),
      ...retryParams(group),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        await this.pool.query({ name: 'tidings-settle', text: SETTLE_SQL, values: params });
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== DEADLOCK || attempt >= 5) throw e;
      }
    }
  }
}
