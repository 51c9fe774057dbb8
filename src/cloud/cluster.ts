/**
 * Several instances, one cloud (PostgreSQL): the fan-out is a queue in the database that every
 * instance draws from. A change is written once (`changes`) with its live subscribers split into
 * chunks of up to `batch` subscription ids (`delivery_chunks`, made in the same statement: one
 * change is delivered once per subscriber). An instance claims chunks with FOR UPDATE SKIP LOCKED
 * and a lease (database time, so clocks of the instances need not agree); a delivered chunk is
 * marked done in the statement that records its outcomes (queue-outcomes.ts). A killed instance's
 * claimed chunks become free when the lease ends and another instance delivers them: it may repeat
 * at most what it held. Stopping hands back what was not delivered yet.
 *
 * Why chunks and not one row per subscriber: a change to 100,000 was 100,000 rows inserted,
 * claimed, deleted, and a tally row every batch of every instance updated; it is now 100 rows, and
 * the change's report sums its chunks' tallies once at the end.
 *
 * Instances hear of new work through LISTEN/NOTIFY and also look every `pollMs` (a lease that
 * ended makes no notification).
 */
import { randomUUID } from 'node:crypto';
import type { Client, Pool } from 'pg';
import type { TopicContent } from './deliver.ts';
import type { FanoutReport } from './fanout.ts';
import type { CloudLog, CloudLogEntry } from './log.ts';
import { OutcomeWriter } from './queue-outcomes.ts';
import {
  type ContentSeen,
  type DeliveryResult,
  type DeliveryTarget,
  MAX_CONSECUTIVE_ERRORS,
} from './store.ts';
import { bumpDelivered, type PgCloudStore, RECORD_CONTENT_CTES, recordContentParams } from './store-pg.ts';

const CHANNEL = 'tidings_deliveries';

/**
 * CTEs that queue a change of the feed for its live subscribers when `when` holds: `ch` is the
 * change (none when nobody is owed it), its chunks of `batch` subscription ids are inserted, and
 * every instance is notified (at commit). Placeholders name the statement's parameters. The feed's
 * subscriptions are read first, by the feed's index alone (materialized), then filtered to the live
 * ones: numbering them in the same step made the planner walk the whole table in id order, and
 * with the expiry test in the same scan it ANDed in the expiry index, whose every entry is in the
 * future (a bitmap of all subscriptions, 40-70 ms of database CPU under each ping of a
 * 10-subscriber feed once there were 230,000 of them).
 */
function queueChangeCtes(p: {
  feed: string;
  content: string;
  contentType: string;
  now: string;
  batch: string;
  when: string;
}): string {
  return `feed AS MATERIALIZED (
    SELECT id, state, when_expires, ct_consecutive_errors FROM subscriptions WHERE ${p.when} AND feed_url = ${p.feed}),
  live AS (
    SELECT id FROM feed
    WHERE state = 'active' AND when_expires > ${p.now} AND ct_consecutive_errors < ${MAX_CONSECUTIVE_ERRORS}),
  subs AS MATERIALIZED (SELECT id, (row_number() OVER (ORDER BY id) - 1) / ${p.batch} AS chunk FROM live),
  ch AS (
    INSERT INTO changes (feed_url, content, content_type, when_created, subscribers)
    SELECT ${p.feed}, ${p.content}, ${p.contentType}, ${p.now}, n FROM (SELECT COUNT(*) AS n FROM subs) c
    WHERE n > 0 RETURNING id, subscribers),
  chunks AS (
    INSERT INTO delivery_chunks (change_id, subscription_ids, size)
    SELECT ch.id, array_agg(subs.id ORDER BY subs.id), COUNT(*) FROM ch, subs GROUP BY ch.id, subs.chunk),
  notified AS (SELECT pg_notify('${CHANNEL}', '') FROM ch)`; // a plain CTE runs only when read: the SELECT reads it
}

/** A change in the queue (changeId 0: nobody was owed it, nothing was queued). */
export interface QueuedChange {
  changeId: number;
  subscribers: number;
}
/** Milliseconds now, by the database's clock (every instance's leases on one clock). */
const DB_NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
/**
 * Chunks one claim looks at (locked for the claim's statement only). A claim takes as many of
 * them as fit in `batch` subscribers: one chunk of a big change, or many changes of few subscribers.
 */
const CLAIM_LOOKAHEAD = 32;

export interface QueueLimits {
  /**
   * Subscribers in one chunk and in one claim (the most a killed instance may repeat is
   * `batch` x `batches`).
   */
  batch: number;
  /** Claims one instance delivers at a time. */
  batches: number;
  /** How long a claim lasts before another instance may take it over. */
  leaseMs: number;
  /** How often an instance looks for work besides notifications (ended leases). */
  pollMs: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = { batch: 1000, batches: 4, leaseMs: 60_000, pollMs: 1000 };

/** Delivers one claimed chunk of one change (core.ts: the fan-out with its limits and log). */
export type BatchDeliverer = (
  feedUrl: string,
  content: TopicContent | null,
  targets: DeliveryTarget[],
  record: (results: DeliveryResult[]) => Promise<void>,
  signal: AbortSignal,
) => Promise<unknown>;

/** One subscriber of a claimed chunk (`id` null: the subscription was removed since). */
interface ClaimedRow {
  chunkId: number;
  changeId: number;
  feedUrl: string;
  id: number | null;
  callbackUrl: string;
  protocol: DeliveryTarget['protocol'];
  notifyProcedure: string | null;
  secret: string | null;
}

interface Chunk {
  id: number;
  changeId: number;
  feedUrl: string;
  targets: DeliveryTarget[];
}

export class DeliveryQueue {
  /** This instance's name in leases. */
  readonly instanceId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly store: PgCloudStore;
  private readonly deliver: BatchDeliverer;
  readonly limits: QueueLimits;
  private pool: Pool | null = null;
  private outcomes: OutcomeWriter | null = null;
  private listener: Client | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private pumping = false;
  /** The pump under way: stop() waits for it, so no claim lands after the hand-back. */
  private pumpRun: Promise<void> = Promise.resolve();
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
    this.outcomes = new OutcomeWriter(this.pool, this.instanceId);
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
   * A change for every live subscriber of the feed, as chunks of `batch` subscription ids, and a
   * notification to every instance, in one statement (nothing is written when nobody is owed it).
   * Resolves with the change's id and how many subscribers it is owed to.
   */
  async enqueue(feedUrl: string, content: TopicContent | null, now: number): Promise<QueuedChange> {
    await this.start();
    const pool = this.pool ?? (await this.store.connection());
    const r = await pool.query<{ id: number | null; n: number | null }>(
      `WITH ${queueChangeCtes({ feed: '$1', content: '$2', contentType: '$3', now: '$4', batch: '$5', when: 'true' })}
      SELECT id, subscribers AS n, (SELECT COUNT(*) FROM notified) AS notified FROM ch`,
      [feedUrl, content?.body ?? null, content?.contentType ?? null, now, this.limits.batch],
    );
    return this.queued(r.rows[0]);
  }

  /**
   * A read recorded (compare-and-set, as store.recordContent) and, when it changed the resource,
   * the change queued, in one statement: the round trip under every changed ping saved.
   */
  async recordAndEnqueue(
    url: string,
    c: ContentSeen,
    now: number,
    content: TopicContent,
  ): Promise<{ changed: boolean; queued: QueuedChange }> {
    await this.start();
    const pool = this.pool ?? (await this.store.connection());
    const r = await pool.query<{ changed: boolean | null; id: number | null; n: number | null }>(
      `WITH ${RECORD_CONTENT_CTES},
      ${queueChangeCtes({ feed: '$7', content: '$8', contentType: '$9', now: '$6', batch: '$10', when: 'EXISTS (SELECT 1 FROM rec WHERE changed)' })}
      SELECT (SELECT changed FROM rec) AS changed, (SELECT id FROM ch) AS id, (SELECT subscribers FROM ch) AS n,
        (SELECT COUNT(*) FROM notified) AS notified`,
      [...recordContentParams(url, c, now), content.body, content.contentType, this.limits.batch],
    );
    return { changed: r.rows[0]?.changed ?? false, queued: this.queued(r.rows[0]) };
  }

  private queued(row: { id: number | null; n: number | null } | undefined): QueuedChange {
    if (!row?.id) return { changeId: 0, subscribers: 0 };
    this.kick();
    return { changeId: row.id, subscribers: row.n ?? 0 };
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

  /**
   * One statement for every change this instance waits on: those whose chunks are all done are
   * removed (their chunks with them) and reported with their chunks' tallies summed.
   */
  private async settleWaiters(): Promise<void> {
    if (!this.pool || this.waiters.size === 0) return;
    const ids = [...this.waiters.keys()];
    const done = await this.pool.query<{
      id: number;
      subscribers: number;
      delivered: number;
      failed: number;
    }>(
      `WITH fin AS (
        SELECT ch.id, ch.subscribers, COALESCE(SUM(c.delivered), 0)::int AS delivered,
          COALESCE(SUM(c.failed), 0)::int AS failed
        FROM changes ch LEFT JOIN delivery_chunks c ON c.change_id = ch.id
        WHERE ch.id = ANY($1::bigint[]) GROUP BY ch.id HAVING bool_and(c.done) IS NOT FALSE)
      DELETE FROM changes USING fin WHERE changes.id = fin.id
      RETURNING fin.id, fin.subscribers, fin.delivered, fin.failed`,
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
      .query(`UPDATE delivery_chunks SET leased_until = ${DB_NOW} + $1 WHERE leased_by = $2 AND NOT done`, [
        this.limits.leaseMs,
        this.instanceId,
      ])
      .catch(() => undefined);
  }

  /** Looks for work now (after a notification, an enqueue, a claim done, or the poll). */
  kick(): void {
    if (this.stopping.signal.aborted || !this.pool) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.pumpRun = this.pump()
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
      const chunks = await this.claim();
      // Claimed while stopping: left leased, for stop() to hand back (it waits for this pump).
      if (chunks.length === 0 || this.stopping.signal.aborted) return;
      // A claim that fails (the database went away while writing outcomes) stays leased and is
      // delivered again when its lease ends.
      const work = Promise.all(chunks.map((c) => this.runChunk(c)))
        .then(() => undefined)
        .catch(() => undefined)
        .finally(() => {
          this.inFlight.delete(work);
          this.kick();
        });
      this.inFlight.add(work);
    }
  }

  /**
   * Claims free chunks (never leased, or whose lease ended) holding at most `batch` subscribers
   * (at least one chunk), and reads their subscribers in the same statement.
   */
  private async claim(): Promise<Chunk[]> {
    const r = await this.pool!.query<ClaimedRow>(
      // The pick is materialized: run once, so a claim never takes more than it picked.
      `WITH picked AS MATERIALIZED (
        SELECT id, size FROM delivery_chunks WHERE NOT done AND (leased_until IS NULL OR leased_until < ${DB_NOW})
          ORDER BY id LIMIT ${CLAIM_LOOKAHEAD} FOR UPDATE SKIP LOCKED),
      fits AS (
        SELECT id FROM (SELECT id, SUM(size) OVER (ORDER BY id) AS upto, row_number() OVER (ORDER BY id) AS nth FROM picked) p
        WHERE upto <= $3 OR nth = 1),
      claimed AS (
        UPDATE delivery_chunks c SET leased_until = ${DB_NOW} + $1, leased_by = $2
        FROM fits WHERE c.id = fits.id
        RETURNING c.id, c.change_id, c.subscription_ids)
      SELECT c.id AS "chunkId", c.change_id AS "changeId", ch.feed_url AS "feedUrl", s.id,
        s.callback_url AS "callbackUrl", s.protocol, s.notify_procedure AS "notifyProcedure", s.secret
      FROM claimed c JOIN changes ch ON ch.id = c.change_id
        CROSS JOIN LATERAL unnest(c.subscription_ids) AS u(sid)
        LEFT JOIN subscriptions s ON s.id = u.sid`,
      [this.limits.leaseMs, this.instanceId, this.limits.batch],
    );
    const chunks = new Map<number, Chunk>();
    for (const row of r.rows) {
      let chunk = chunks.get(row.chunkId);
      if (!chunk) {
        chunk = { id: row.chunkId, changeId: row.changeId, feedUrl: row.feedUrl, targets: [] };
        chunks.set(row.chunkId, chunk);
      }
      // A subscription removed since the change was queued: nothing to deliver.
      if (row.id !== null)
        chunk.targets.push({
          id: row.id,
          callbackUrl: row.callbackUrl,
          protocol: row.protocol,
          notifyProcedure: row.notifyProcedure,
          secret: row.secret,
        });
    }
    return [...chunks.values()];
  }

  /**
   * Delivers one chunk (the chunks of a claim go out side by side: 100 changes of 10 subscribers
   * would otherwise wait on one another's slowest subscriber), then settles it: its outcomes and
   * its end in one statement. Stopped midway, what was not delivered goes back to the queue.
   */
  private async runChunk(chunk: Chunk): Promise<void> {
    const results: DeliveryResult[] = [];
    if (chunk.targets.length > 0) {
      // The body is only read for WebSub subscribers (rssCloud ones are told the URL).
      const content = chunk.targets.some((t) => t.protocol === 'websub')
        ? await this.contentOf(chunk.changeId)
        : null;
      await this.deliver(
        chunk.feedUrl,
        content,
        chunk.targets,
        async (batch) => {
          for (const r of batch) results.push(r);
        },
        this.stopping.signal,
      );
    }
    const reached = new Set(results.map((r) => r.id));
    await this.outcomes!.settle({
      chunkId: chunk.id,
      changeId: chunk.changeId,
      feedUrl: chunk.feedUrl,
      results,
      remaining: chunk.targets.filter((t) => !reached.has(t.id)).map((t) => t.id),
    });
    await bumpDelivered(this.store, results);
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
    await this.started?.catch(() => undefined);
    await this.pumpRun;
    await Promise.allSettled([...this.inFlight]);
    if (this.pool)
      await this.pool
        .query(
          'UPDATE delivery_chunks SET leased_until = NULL, leased_by = NULL WHERE leased_by = $1 AND NOT done',
          [this.instanceId],
        )
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
