/**
 * Several instances, one cloud (PostgreSQL): the fan-out is a queue in the database that every
 * instance draws from. A change is written once (`changes`) with one row per live subscriber
 * (`deliveries`, unique per change and subscriber: one change is delivered once per subscriber).
 * An instance claims a batch with FOR UPDATE SKIP LOCKED and a lease (database time, so clocks
 * of the instances need not agree); a delivered row is deleted in the transaction that records
 * its outcome. A killed instance's claimed rows become free when the lease ends and another
 * instance delivers them: it may repeat at most what it held. Stopping hands back what was not
 * delivered yet.
 *
 * Instances hear of new work through LISTEN/NOTIFY and also look every `pollMs` (a lease that
 * ended makes no notification).
 */
import { randomUUID } from 'node:crypto';
import type { Client, Pool } from 'pg';
import type { TopicContent } from './deliver.ts';
import type { FanoutReport } from './fanout.ts';
import type { CloudLog, CloudLogEntry } from './log.ts';
import type { DeliveryResult, DeliveryTarget } from './store.ts';
import { bumpDelivered, type PgCloudStore, writeDeliveries } from './store-pg.ts';

const CHANNEL = 'tidings_deliveries';
/** Milliseconds now, by the database's clock (every instance's leases on one clock). */
const DB_NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

export interface QueueLimits {
  /** Deliveries claimed at once (the most a killed instance may repeat is `batch` x `batches`). */
  batch: number;
  /** Batches one instance delivers at a time. */
  batches: number;
  /** How long a claim lasts before another instance may take it over. */
  leaseMs: number;
  /** How often an instance looks for work besides notifications (ended leases). */
  pollMs: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = { batch: 1000, batches: 4, leaseMs: 60_000, pollMs: 1000 };

/** Delivers one claimed batch of one change (core.ts: the fan-out with its limits and log). */
export type BatchDeliverer = (
  feedUrl: string,
  content: TopicContent | null,
  targets: DeliveryTarget[],
  record: (results: DeliveryResult[]) => Promise<void>,
  signal: AbortSignal,
) => Promise<unknown>;

interface Claimed {
  changeId: number;
  feedUrl: string;
  id: number | null;
  callbackUrl: string;
  protocol: DeliveryTarget['protocol'];
  notifyProcedure: string | null;
  secret: string | null;
}

export class DeliveryQueue {
  /** This instance's name in leases. */
  readonly instanceId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly store: PgCloudStore;
  private readonly deliver: BatchDeliverer;
  readonly limits: QueueLimits;
  private pool: Pool | null = null;
  private listener: Client | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private pumping = false;
  private again = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly waiters = new Map<number, { resolve: (r: FanoutReport) => void; started: number }>();
  private waitTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private started: Promise<void> | null = null;

  constructor(store: PgCloudStore, deliver: BatchDeliverer, limits: Partial<QueueLimits> = {}) {
    this.store = store;
    this.deliver = deliver;
    this.limits = { ...DEFAULT_QUEUE_LIMITS, ...limits };
  }

  /** Connects the listener and starts looking for work (idempotent). */
  start(): Promise<void> {
    this.started ??= this.begin();
    return this.started;
  }

  private async begin(): Promise<void> {
    this.pool = await this.store.connection();
    if (this.stopping.signal.aborted) return;
    try {
      const { default: pg } = await import('pg');
      const listener = new pg.Client({ connectionString: this.store.url });
      listener.on('error', () => undefined); // the poll carries on; notifications are a speed-up
      listener.on('notification', () => this.kick());
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
      this.listener = listener;
    } catch {
      this.listener = null;
    }
    this.pollTimer = setInterval(() => this.kick(), this.limits.pollMs);
    // Claims being worked on are renewed, so a lease ends only for an instance that died (or
    // lost the database), not for one that is slow.
    this.renewTimer = setInterval(
      () => void this.renew(),
      Math.max(100, Math.floor(this.limits.leaseMs / 3)),
    );
    this.renewTimer.unref?.();
    this.pollTimer.unref?.();
    this.kick();
  }

  /**
   * A change for every live subscriber of the feed: one row each, in one statement, and a
   * notification to every instance. Resolves with the change's id and how many rows it made.
   */
  async enqueue(
    feedUrl: string,
    content: TopicContent | null,
    now: number,
  ): Promise<{ changeId: number; subscribers: number }> {
    await this.start();
    const rows = await this.store.transaction(async (c) => {
      const r = await c.query<{ id: number; n: number }>(
        `WITH ch AS (INSERT INTO changes (feed_url, content, content_type, when_created) VALUES ($1, $2, $3, $4) RETURNING id),
        ins AS (INSERT INTO deliveries (change_id, subscription_id)
          SELECT ch.id, s.id FROM ch, subscriptions s WHERE s.feed_url = $1 AND s.state = 'active'
            AND s.when_expires > $4 AND s.ct_consecutive_errors < 3
          RETURNING 1)
        SELECT (SELECT id FROM ch) AS id, (SELECT COUNT(*) FROM ins) AS n`,
        [feedUrl, content?.body ?? null, content?.contentType ?? null, now],
      );
      const row = r.rows[0]!;
      if (row.n === 0) await c.query('DELETE FROM changes WHERE id = $1', [row.id]);
      else {
        await c.query('UPDATE changes SET subscribers = $2 WHERE id = $1', [row.id, row.n]);
        await c.query(`SELECT pg_notify('${CHANNEL}', '')`);
      }
      return row;
    });
    if (rows.n > 0) this.kick();
    return { changeId: rows.id, subscribers: rows.n };
  }

  /** Resolves when every delivery of the change was made, by any instance (or at stop). */
  done(changeId: number, feedUrl: string): Promise<FanoutReport> {
    return new Promise((resolve) => {
      this.waiters.set(changeId, {
        resolve: (r) => resolve({ ...r, feedUrl }),
        started: performance.now(),
      });
      this.watchWaiters();
    });
  }

  private watchWaiters(): void {
    if (this.waitTimer || this.waiters.size === 0) return;
    this.waitTimer = setTimeout(async () => {
      this.waitTimer = null;
      try {
        await this.settleWaiters();
      } catch {
        // the database is away: look again later
      }
      this.watchWaiters();
    }, 25);
  }

  /** One query for every change this instance waits on: those with no row left are done. */
  private async settleWaiters(): Promise<void> {
    if (!this.pool || this.waiters.size === 0) return;
    const ids = [...this.waiters.keys()];
    const done = await this.pool.query<{
      id: number;
      subscribers: number;
      delivered: number;
      failed: number;
    }>(
      `DELETE FROM changes WHERE id = ANY($1::bigint[])
        AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.change_id = changes.id)
      RETURNING id, subscribers, delivered, failed`,
      [ids],
    );
    for (const row of done.rows) {
      const w = this.waiters.get(row.id);
      this.waiters.delete(row.id);
      w?.resolve({
        feedUrl: '',
        subscribers: row.subscribers,
        delivered: row.delivered,
        failed: row.failed,
        elapsedMs: Math.round(performance.now() - (w?.started ?? 0)),
      });
    }
  }

  private async renew(): Promise<void> {
    if (this.inFlight.size === 0 || !this.pool) return;
    await this.pool
      .query(`UPDATE deliveries SET leased_until = ${DB_NOW} + $1 WHERE leased_by = $2`, [
        this.limits.leaseMs,
        this.instanceId,
      ])
      .catch(() => undefined);
  }

  /** Looks for work now (after a notification, an enqueue, a batch done, or the poll). */
  kick(): void {
    if (this.stopping.signal.aborted || !this.pool) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump()
      .catch(() => undefined) // the database is away: the poll tries again
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pump(): Promise<void> {
    while (!this.stopping.signal.aborted && this.inFlight.size < this.limits.batches) {
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      // A batch that fails (the database went away while writing outcomes) stays leased and is
      // delivered again when its lease ends.
      const batch = this.run(claimed)
        .catch(() => undefined)
        .finally(() => {
          this.inFlight.delete(batch);
          this.kick();
        });
      this.inFlight.add(batch);
    }
  }

  private async claim(): Promise<Claimed[]> {
    const r = await this.pool!.query<Claimed>(
      // The pick is materialized: run once, so a claim never takes more than `batch` rows.
      `WITH picked AS MATERIALIZED (
        SELECT id FROM deliveries WHERE leased_until IS NULL OR leased_until < ${DB_NOW}
          ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED),
      claimed AS (
        UPDATE deliveries d SET leased_until = ${DB_NOW} + $1, leased_by = $2
        FROM picked WHERE d.id = picked.id
        RETURNING d.change_id, d.subscription_id)
      SELECT c.change_id AS "changeId", ch.feed_url AS "feedUrl", s.id, s.callback_url AS "callbackUrl",
        s.protocol, s.notify_procedure AS "notifyProcedure", s.secret
      FROM claimed c JOIN changes ch ON ch.id = c.change_id LEFT JOIN subscriptions s ON s.id = c.subscription_id`,
      [this.limits.leaseMs, this.instanceId, this.limits.batch],
    );
    return r.rows;
  }

  /** Delivers a claimed batch change by change; each outcome and its row's removal in one transaction. */
  private async run(claimed: Claimed[]): Promise<void> {
    const byChange = new Map<number, Claimed[]>();
    for (const c of claimed) {
      const list = byChange.get(c.changeId) ?? [];
      list.push(c);
      byChange.set(c.changeId, list);
    }
    // The changes of a batch go out side by side (10,000 changes of 10 subscribers each would
    // otherwise wait on one another's slowest subscriber).
    await Promise.all([...byChange].map(([changeId, rows]) => this.runChange(changeId, rows)));
  }

  private async runChange(changeId: number, rows: Claimed[]): Promise<void> {
    // A subscription removed since the change was queued: nothing to deliver.
    const gone = rows.filter((r) => r.id === null);
    if (gone.length > 0)
      await this.pool!.query(
        'DELETE FROM deliveries WHERE change_id = $1 AND subscription_id IS NOT NULL AND leased_by = $2 AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = deliveries.subscription_id)',
        [changeId, this.instanceId],
      );
    const targets: DeliveryTarget[] = rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        callbackUrl: r.callbackUrl,
        protocol: r.protocol,
        notifyProcedure: r.notifyProcedure,
        secret: r.secret,
      }));
    if (targets.length === 0) return;
    // The body is only read for WebSub subscribers (rssCloud ones are told the URL).
    const content = targets.some((t) => t.protocol === 'websub') ? await this.contentOf(changeId) : null;
    await this.deliver(
      rows[0]!.feedUrl,
      content,
      targets,
      (results) => this.record(changeId, results),
      this.stopping.signal,
    );
  }

  private async contentOf(changeId: number): Promise<TopicContent | null> {
    const r = await this.pool!.query<{ content: Buffer | null; contentType: string | null }>(
      'SELECT content, content_type AS "contentType" FROM changes WHERE id = $1',
      [changeId],
    );
    const row = r.rows[0];
    return row?.content
      ? { body: row.content, contentType: row.contentType ?? 'application/octet-stream' }
      : null;
  }

  private async record(changeId: number, results: DeliveryResult[]): Promise<void> {
    const ok = results.filter((r) => r.ok).length;
    await this.store.transaction(async (c) => {
      await c.query('DELETE FROM deliveries WHERE change_id = $1 AND subscription_id = ANY($2::bigint[])', [
        changeId,
        results.map((r) => r.id),
      ]);
      await writeDeliveries(c, results);
      await c.query('UPDATE changes SET delivered = delivered + $2, failed = failed + $3 WHERE id = $1', [
        changeId,
        ok,
        results.length - ok,
      ]);
    });
    await bumpDelivered(this.store, results);
  }

  /**
   * Stops claiming; deliveries in flight finish (each within its own deadline), what was
   * claimed and not delivered is handed back for another instance, waiters are let go.
   */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.waitTimer) clearTimeout(this.waitTimer);
    await Promise.allSettled([...this.inFlight]);
    await this.started?.catch(() => undefined);
    if (this.pool)
      await this.pool
        .query('UPDATE deliveries SET leased_until = NULL, leased_by = NULL WHERE leased_by = $1', [
          this.instanceId,
        ])
        .then(() => this.pool!.query(`SELECT pg_notify('${CHANNEL}', '')`))
        .catch(() => undefined);
    await this.listener?.end().catch(() => undefined);
    for (const [, w] of this.waiters)
      w.resolve({ feedUrl: '', subscribers: 0, delivered: 0, failed: 0, elapsedMs: 0 });
    this.waiters.clear();
  }
}

/**
 * The log of a cloud on PostgreSQL: every entry this instance adds is written, in batches, to
 * the table every instance reads (/viewLog the same from each). A read first writes what is
 * waiting, so an instance's own last entries are on its page.
 */
export class SharedLog {
  private readonly store: PgCloudStore;
  private waiting: CloudLogEntry[] = [];
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;

  constructor(store: PgCloudStore, log: CloudLog) {
    this.store = store;
    this.unsubscribe = log.subscribe((e) => {
      this.waiting.push(e);
      if (this.waiting.length >= 500) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), 100);
    });
  }

  /** Writes what is waiting (after the writes before it). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    // A database away loses these entries, never the request that logged them.
    this.writing = this.writing.then(() => this.store.appendLog(batch).catch(() => undefined));
    return this.writing;
  }

  async recent(limit: number): Promise<CloudLogEntry[]> {
    await this.flush();
    return this.store.recentLog(limit);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.flush();
  }
}
