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
 * The instance that queues a change leases its first chunk to itself in the same statement and
 * delivers it at once, when it holds room for it: a ping of a feed with few subscribers is
 * delivered by the instance that answered it with no notification, no claim, and no look at the
 * database for the change's end (its only chunk settled, the change is removed with it). Three
 * instances had each heard of every change and raced to claim it, and each looked every 25 ms for
 * the end of its changes: 3,000 pings of 10-subscriber feeds made 561 claims and 1,264 looks
 * (one instance: 111 and 311), now 39 claims (finding nothing) and none.
 *
 * Other instances hear of work left free (the other chunks of a big change, or a change its
 * instance had no room for) through LISTEN/NOTIFY and also look every `pollMs` (a lease that
 * ended makes no notification).
 */
import { randomUUID } from 'node:crypto';
import type { Client, Pool } from 'pg';
import { type Clock, systemClock } from '../../common/clock.ts';
import type { CloudLog, CloudLogEntry } from '../core/log.ts';
import { bumpDelivered, type PgCloudStore, RECORD_CONTENT_CTES, recordContentParams } from '../store/pg.ts';
import {
  type ContentSeen,
  type DeliveryResult,
  type DeliveryTarget,
  MAX_CONSECUTIVE_ERRORS,
} from '../store/store.ts';
import type { TopicContent } from './deliver.ts';
import { EarliestWake } from './earliest-wake.ts';
import type { FanoutReport } from './fanout.ts';
import { type ChunkSettlement, OutcomeWriter } from './queue-outcomes.ts';

const CHANNEL = 'tidings_deliveries';

/**
 * CTEs that queue a change of the feed for its live subscribers when `when` holds: `ch` is the
 * change (none when nobody is owed it), its chunks of `batch` subscription ids are inserted. The
 * first chunk is inserted leased to `me` when it holds no more than `room` subscribers (the
 * instance queueing it delivers it at once, its subscribers read here: `subs` where chunk = 0);
 * the other instances are notified (at commit) only when a chunk is left free for them. Placeholders name the statement's
 * parameters. The feed's subscriptions are read first, by the feed's index alone (materialized),
 * then filtered to the live ones: numbering them in the same step made the planner walk the whole
 * table in id order, and with the expiry test in the same scan it ANDed in the expiry index, whose
 * every entry is in the future (a bitmap of all subscriptions, 40-70 ms of database CPU under
 * each ping of a 10-subscriber feed once there were 230,000 of them).
 */
function queueChangeCtes(p: {
  feed: string;
  content: string;
  contentType: string;
  topicHash: string;
  now: string;
  batch: string;
  when: string;
  me: string;
  room: string;
  leaseMs: string;
}): string {
  const mine = `subs.chunk = 0 AND COUNT(*) <= ${p.room}`;
  return `feed AS MATERIALIZED (
    SELECT id, state, when_expires, ct_consecutive_errors, callback_url, protocol, notify_procedure, secret
    FROM subscriptions WHERE ${p.when} AND feed_url = ${p.feed}),
  subs AS MATERIALIZED (
    SELECT id, callback_url, protocol, notify_procedure, secret, (row_number() OVER (ORDER BY id) - 1) / ${p.batch} AS chunk
    FROM feed
    WHERE state = 'active' AND when_expires > ${p.now} AND ct_consecutive_errors < ${MAX_CONSECUTIVE_ERRORS}),
  ch AS (
    INSERT INTO changes (feed_url, content, content_type, topic_hash, when_created, subscribers)
    SELECT ${p.feed}, ${p.content}, ${p.contentType}, ${p.topicHash}, ${p.now}, n FROM (SELECT COUNT(*) AS n FROM subs) c
    WHERE n > 0 RETURNING id, subscribers),
  chunks AS (
    INSERT INTO delivery_chunks (change_id, subscription_ids, size, leased_until, leased_by)
    SELECT ch.id, array_agg(subs.id ORDER BY subs.id), COUNT(*),
      CASE WHEN ${mine} THEN ${DB_NOW} + ${p.leaseMs} END, CASE WHEN ${mine} THEN ${p.me} END
    FROM ch, subs GROUP BY ch.id, subs.chunk
    RETURNING id, leased_by IS NOT NULL AS mine),
  notified AS (
    SELECT pg_notify('${CHANNEL}', '') FROM ch WHERE ch.subscribers > ${p.batch} OR ch.subscribers > ${p.room})`; // a plain CTE runs only when read: the SELECT reads it
}

/**
 * The statement's answer after queueChangeCtes: one row per subscriber of the chunk leased to
 * this instance (one row with no subscriber when none was), with the change.
 */
const QUEUED_COLUMNS = `ch.id, ch.subscribers AS n, k.id AS "chunkId", t.id AS sid, t.callback_url AS "callbackUrl",
  t.protocol, t.notify_procedure AS "notifyProcedure", t.secret, (SELECT COUNT(*) FROM notified) AS notified`;
const QUEUED_FROM = `(SELECT 1) one LEFT JOIN ch ON true LEFT JOIN chunks k ON k.mine
  LEFT JOIN subs t ON k.mine AND t.chunk = 0`;

interface QueuedRow {
  id: number | null;
  n: number | null;
  chunkId: number | null;
  sid: number | null;
  callbackUrl: string;
  protocol: DeliveryTarget['protocol'];
  notifyProcedure: string | null;
  secret: string | null;
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
  /**
   * Claims one instance delivers at a time: it holds at most `batch` x `batches` subscribers,
   * claimed or leased to itself as it queued them.
   */
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
  attempt: number;
  /** A retry of a topic read since with another hash: dropped, not delivered. */
  outdated: boolean;
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
  /** 0: the change's first delivery; n: its n-th retry (a chunk of failed WebSub deliveries). */
  attempt: number;
  outdated: boolean;
  /** Subscription ids in the chunk (what it counts against the instance's hold). */
  size: number;
  targets: DeliveryTarget[];
}

/** What delivering a chunk came to; `finished`: the change was its only chunk and it is delivered. */
interface ChunkEnd {
  delivered: number;
  failed: number;
  finished: boolean;
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
  /** The pump stopped for want of room: a chunk that ends kicks it again. */
  private full = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Subscribers of the chunks this instance holds (claimed, leased as queued, or reserved for either). */
  private held = 0;
  /** Changes this instance queued and delivers itself, by id (done() takes their report from here). */
  private readonly local = new Map<number, { end: Promise<ChunkEnd | null>; subscribers: number }>();
  private readonly stopping = new AbortController();
  private readonly waiters = new Map<number, { resolve: (r: FanoutReport) => void; started: number }>();
  private waitTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private started: Promise<void> | null = null;

  private readonly clock: Clock;
  /** Delays before each retry of a failed WebSub delivery (none: no retries). */
  private readonly retryDelaysMs: readonly number[];

  constructor(
    store: PgCloudStore,
    deliver: BatchDeliverer,
    limits: Partial<QueueLimits> = {},
    opts: { clock?: Clock; retryDelaysMs?: readonly number[] } = {},
  ) {
    this.store = store;
    this.deliver = deliver;
    this.limits = { ...DEFAULT_QUEUE_LIMITS, ...limits };
    this.clock = opts.clock ?? systemClock;
    this.wake = new EarliestWake(this.clock, () => this.kick());
    this.retryDelaysMs = opts.retryDelaysMs ?? [];
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
    await this.listen();
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
    // Retries kept before this instance started (by it before a restart, or by another).
    await this.wakeForRetries().catch(() => undefined);
  }

  /**
   * LISTENs for free work on a connection of its own. The poll carries on without it (a speed-up,
   * not a need), but a listener lost with the database (a restart, a failover) is connected again,
   * a second later and then up to every 30 s while it cannot be: after a PostgreSQL restart the
   * instances listened no more, and found free work only by the poll.
   */
  private async listen(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    const { default: pg } = await import('pg');
    const listener = new pg.Client({ connectionString: this.store.url });
    let lost = false;
    const again = () => {
      if (lost) return;
      lost = true;
      if (this.listener === listener) this.listener = null;
      void listener.end().catch(() => undefined);
      if (this.stopping.signal.aborted) return;
      const wait = Math.min(30_000, 1000 * 2 ** this.listenFailures++);
      this.relisten = setTimeout(() => void this.listen(), wait);
      this.relisten.unref?.();
    };
    listener.on('error', again);
    listener.on('end', again);
    listener.on('notification', () => this.kick());
    try {
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
    } catch {
      again();
      return;
    }
    if (this.stopping.signal.aborted) {
      lost = true;
      await listener.end().catch(() => undefined);
      return;
    }
    this.listener = listener;
    this.listenFailures = 0;
    this.kick(); // what was left free while no one listened
  }
  private relisten: NodeJS.Timeout | null = null;
  private listenFailures = 0;

  /** Connections listening for free work (0 or 1; tests). */
  get listening(): boolean {
    return this.listener !== null;
  }

  /** The pool once started (no await after the first: every ping comes through here). */
  private connected(): Pool | Promise<Pool> {
    return this.pool ?? this.start().then(() => this.pool ?? this.store.connection());
  }

  /**
   * A change for every live subscriber of the feed, as chunks of `batch` subscription ids, in one
   * statement (nothing is written when nobody is owed it). The first chunk is leased to this
   * instance when it has room for it and delivered from here at once: no notification, no claim,
   * and the report needs no look at the database. Resolves with the change's id and how many
   * subscribers it is owed to.
   */
  async enqueue(feedUrl: string, content: TopicContent | null, now: number): Promise<QueuedChange> {
    const pool = await this.connected();
    const r = await pool.query<QueuedRow>({
      name: 'tidings-enqueue',
      text: `WITH ${queueChangeCtes({ feed: '$1', content: '$2', contentType: '$3', topicHash: 'NULL', now: '$4', batch: '$5', when: 'true', me: '$6', room: '$7::int', leaseMs: '$8' })}
      SELECT ${QUEUED_COLUMNS} FROM ${QUEUED_FROM}`,
      values: [feedUrl, content?.body ?? null, content?.contentType ?? null, now, ...this.queueParams()],
    });
    return this.queued(feedUrl, r.rows);
  }

  /**
   * A read recorded (compare-and-set, as store.recordContent) and, when it changed the resource,
   * the change queued as enqueue() does, in one statement: the round trip under every changed
   * ping saved.
   */
  async recordAndEnqueue(
    url: string,
    c: ContentSeen,
    now: number,
    content: TopicContent,
  ): Promise<{ changed: boolean; queued: QueuedChange }> {
    const pool = await this.connected();
    const r = await pool.query<QueuedRow & { changed: boolean | null }>({
      name: 'tidings-record-enqueue',
      text: `WITH ${RECORD_CONTENT_CTES},
      ${queueChangeCtes({ feed: '$7', content: '$8', contentType: '$9', topicHash: '$1', now: '$6', batch: '$10', when: 'EXISTS (SELECT 1 FROM rec WHERE changed)', me: '$11', room: '$12::int', leaseMs: '$13' })}
      SELECT (SELECT changed FROM rec) AS changed, ${QUEUED_COLUMNS} FROM ${QUEUED_FROM}`,
      values: [...recordContentParams(url, c, now), content.body, content.contentType, ...this.queueParams()],
    });
    return { changed: r.rows[0]?.changed ?? false, queued: this.queued(url, r.rows) };
  }

  /** The values of queueChangeCtes' batch, me, room and leaseMs, in that order. */
  private queueParams(): [number, string, number, number] {
    return [this.limits.batch, this.instanceId, this.room(), this.limits.leaseMs];
  }

  /** Subscribers this instance may still take on (none once stopping). */
  private room(): number {
    if (this.stopping.signal.aborted) return 0;
    return Math.max(0, this.limits.batch * this.limits.batches - this.held);
  }

  /**
   * Room for a claim of up to `batch` subscribers, taken until the claim answers (the pump's
   * claims are one at a time).
   */
  private reserve(): boolean {
    if (this.room() < this.limits.batch) return false;
    this.held += this.limits.batch;
    return true;
  }

  private queued(feedUrl: string, rows: QueuedRow[]): QueuedChange {
    const row = rows[0];
    if (!row?.id) return { changeId: 0, subscribers: 0 };
    const subscribers = row.n ?? 0;
    if (row.chunkId !== null) {
      const chunk: Chunk = {
        id: row.chunkId,
        changeId: row.id,
        feedUrl,
        attempt: 0,
        outdated: false,
        size: 0,
        targets: [],
      };
      for (const t of rows) {
        chunk.size++;
        if (t.sid !== null) chunk.targets.push(targetOf(t.sid, t));
      }
      if (this.held + chunk.size > this.limits.batch * this.limits.batches || this.stopping.signal.aborted) {
        // Pings queued side by side all saw the room: this one came last. Not one of its
        // subscribers was reached, so it goes back to the queue for whoever has room.
        void this.handBack(chunk.id);
      } else {
        const end = this.track([chunk], subscribers <= this.limits.batch);
        this.local.set(row.id, { end, subscribers });
      }
    }
    // Chunks left free: this instance looks for them too (the others were notified).
    if (row.chunkId === null || subscribers > this.limits.batch) this.kick();
    return { changeId: row.id, subscribers };
  }

  /** Resolves when every delivery of the change was made, by any instance (or at stop). */
  async done(changeId: number, feedUrl: string): Promise<FanoutReport> {
    const started = performance.now();
    const local = this.local.get(changeId);
    if (local) {
      this.local.delete(changeId);
      const end = await local.end;
      if (end?.finished)
        return {
          feedUrl,
          subscribers: local.subscribers,
          delivered: end.delivered,
          failed: end.failed,
          elapsedMs: Math.round(performance.now() - started),
        };
      // Other chunks, a stop midway, or a failed write: the database says when the change is done.
    }
    if (this.stopping.signal.aborted)
      return { feedUrl, subscribers: 0, delivered: 0, failed: 0, elapsedMs: 0 };
    return new Promise((resolve) => {
      this.waiters.set(changeId, {
        resolve: (r) => resolve({ ...r, feedUrl }),
        started: performance.now(),
      });
      this.watchWaiters();
    });
  }

  /**
   * Looks for the end of the changes waited on 25 ms from now, then again while any are left.
   * The timer stays set until its look has answered: one look at a time. Cleared as it fired, a
   * look that was slow (a busy database, row locks) let every change waited on meanwhile start
   * another, each over all the changes waited on, each taking a connection from the pings (6 at
   * once in queue.pg.test; bench:cluster caught one instance behind on its deliveries spending
   * about 900 ms a look, 20.8 ms a ping, in a round of 173 pings/s against 337-456 in the others).
   */
  private watchWaiters(): void {
    if (this.waitTimer || this.waiters.size === 0 || this.stopping.signal.aborted) return;
    this.waitTimer = setTimeout(async () => {
      try {
        await this.settleWaiters();
      } catch {
        // the database is away: look again later
      }
      this.waitTimer = null;
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
      // The report is of the first delivery (attempt 0); a change with a retry kept stays (its
      // body is the retry's) until the sweep finds all its chunks done.
      `WITH fin AS (
        SELECT ch.id, ch.subscribers, COALESCE(SUM(c.delivered) FILTER (WHERE c.attempt = 0), 0)::int AS delivered,
          COALESCE(SUM(c.failed) FILTER (WHERE c.attempt = 0), 0)::int AS failed, bool_and(c.done) IS NOT FALSE AS "allDone"
        FROM changes ch LEFT JOIN delivery_chunks c ON c.change_id = ch.id
        WHERE ch.id = ANY($1::bigint[]) GROUP BY ch.id HAVING bool_and(c.done OR c.attempt > 0) IS NOT FALSE),
      gone AS (DELETE FROM changes USING fin WHERE changes.id = fin.id AND fin."allDone")
      SELECT id, subscribers, delivered, failed FROM fin`,
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
    for (;;) {
      if (!this.reserve()) {
        // Full: the next chunk to end looks again (not every ending one: most find nothing).
        this.full = !this.stopping.signal.aborted;
        return;
      }
      let chunks: Chunk[];
      try {
        chunks = await this.claim();
      } finally {
        this.held -= this.limits.batch;
      }
      // Claimed while stopping: left leased, for stop() to hand back (it waits for this pump).
      if (chunks.length === 0 || this.stopping.signal.aborted) return;
      void this.track(chunks, false);
    }
  }

  /**
   * Delivers chunks leased to this instance, held until settled. A chunk that fails (the database
   * went away while writing outcomes) stays leased and is delivered again when its lease ends.
   * `only`: the change has no other chunk (its report is this chunk's).
   */
  private track(chunks: Chunk[], only: boolean): Promise<ChunkEnd | null> {
    const size = chunks.reduce((n, c) => n + c.size, 0);
    this.held += size;
    const work = Promise.all(chunks.map((c) => this.runChunk(c, only)))
      .then((ends) => ends[0] ?? null)
      .catch(() => null)
      .finally(() => {
        this.held -= size;
        this.inFlight.delete(work);
        if (this.full) {
          this.full = false;
          this.kick();
        }
      });
    this.inFlight.add(work);
    return work;
  }

  /**
   * Claims free chunks (never leased, or whose lease ended) holding at most `batch` subscribers
   * (at least one chunk), and reads their subscribers in the same statement.
   */
  private async claim(): Promise<Chunk[]> {
    const r = await this.pool!.query<ClaimedRow>({
      name: 'tidings-claim',
      // The pick is materialized: run once, so a claim never takes more than it picked.
      // A retry is claimable once due by the cloud's clock ($4), whichever instance kept it.
      text: `WITH picked AS MATERIALIZED (
        SELECT id, size FROM delivery_chunks WHERE NOT done AND (leased_until IS NULL OR leased_until < ${DB_NOW})
          AND (not_before IS NULL OR not_before <= $4)
          ORDER BY id LIMIT ${CLAIM_LOOKAHEAD} FOR UPDATE SKIP LOCKED),
      fits AS (
        SELECT id FROM (SELECT id, SUM(size) OVER (ORDER BY id) AS upto, row_number() OVER (ORDER BY id) AS nth FROM picked) p
        WHERE upto <= $3 OR nth = 1),
      claimed AS (
        UPDATE delivery_chunks c SET leased_until = ${DB_NOW} + $1, leased_by = $2
        FROM fits WHERE c.id = fits.id
        RETURNING c.id, c.change_id, c.subscription_ids, c.attempt)
      SELECT c.id AS "chunkId", c.change_id AS "changeId", ch.feed_url AS "feedUrl", c.attempt,
        (c.attempt > 0 AND ch.topic_hash IS NOT NULL
          AND ch.topic_hash IS DISTINCT FROM (SELECT last_hash FROM resources r WHERE r.url = ch.feed_url)) AS outdated,
        s.id,
        s.callback_url AS "callbackUrl", s.protocol, s.notify_procedure AS "notifyProcedure", s.secret
      FROM claimed c JOIN changes ch ON ch.id = c.change_id
        CROSS JOIN LATERAL unnest(c.subscription_ids) AS u(sid)
        LEFT JOIN subscriptions s ON s.id = u.sid`,
      values: [this.limits.leaseMs, this.instanceId, this.limits.batch, this.clock.now()],
    });
    const chunks = new Map<number, Chunk>();
    for (const row of r.rows) {
      let chunk = chunks.get(row.chunkId);
      if (!chunk) {
        chunk = {
          id: row.chunkId,
          changeId: row.changeId,
          feedUrl: row.feedUrl,
          attempt: row.attempt,
          outdated: row.outdated,
          size: 0,
          targets: [],
        };
        chunks.set(row.chunkId, chunk);
      }
      chunk.size++;
      // A subscription removed since the change was queued: nothing to deliver.
      if (row.id !== null) chunk.targets.push(targetOf(row.id, row));
    }
    return [...chunks.values()];
  }

  /**
   * Delivers one chunk (the chunks of a claim go out side by side: 100 changes of 10 subscribers
   * would otherwise wait on one another's slowest subscriber), then settles it: its outcomes and
   * its end in one statement. Stopped midway, what was not delivered goes back to the queue.
   */
  private async runChunk(chunk: Chunk, only: boolean): Promise<ChunkEnd> {
    const results: DeliveryResult[] = [];
    if (chunk.targets.length > 0 && !chunk.outdated) {
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
    const remaining = chunk.outdated ? [] : chunk.targets.filter((t) => !reached.has(t.id)).map((t) => t.id);
    const retry = this.retryOf(chunk, results);
    // The change goes with its only chunk unless a retry of it is kept (its body with it).
    const finished = only && remaining.length === 0 && retry === null;
    await this.outcomes!.settle({
      chunkId: chunk.id,
      changeId: chunk.changeId,
      feedUrl: chunk.feedUrl,
      results,
      remaining,
      finished,
      retry,
    });
    if (retry) this.wake.at(retry.notBefore);
    await bumpDelivered(this.store, results);
    const delivered = results.filter((r) => r.ok).length;
    return { delivered, failed: results.length - delivered, finished };
  }

  /**
   * The WebSub deliveries of the chunk that failed (not 410), as a chunk of their own tried again
   * after the next delay of the schedule; null when none failed or the tries are spent.
   */
  private retryOf(chunk: Chunk, results: readonly DeliveryResult[]): ChunkSettlement['retry'] {
    const delay = this.retryDelaysMs[chunk.attempt];
    if (delay === undefined) return null;
    const websub = new Set(chunk.targets.filter((t) => t.protocol === 'websub').map((t) => t.id));
    const ids = results.filter((r) => !r.ok && !r.gone && websub.has(r.id)).map((r) => r.id);
    return ids.length === 0 ? null : { ids, attempt: chunk.attempt + 1, notBefore: this.clock.now() + delay };
  }

  /** Looks for work when a retry is due, besides the poll. */
  private readonly wake: EarliestWake;

  /** When the first retry in the queue is due (any instance's), to wake for it. */
  private async wakeForRetries(): Promise<void> {
    const r = await this.pool!.query<{ at: number | null }>(
      'SELECT MIN(not_before) AS at FROM delivery_chunks WHERE NOT done AND not_before IS NOT NULL',
    );
    const at = r.rows[0]?.at;
    if (at !== null && at !== undefined) this.wake.at(at);
  }

  /** A pump or a chunk of this instance is under way. */
  get busy(): boolean {
    return this.pumping || this.inFlight.size > 0;
  }

  /** Resolves when this instance has nothing under way: no pump, no chunk in flight (tests, idle()). */
  async settled(): Promise<void> {
    while (this.pumping || this.inFlight.size > 0) await Promise.allSettled([this.pumpRun, ...this.inFlight]);
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

  /** Leases of this instance (one chunk, or all) ended, and every instance told there is work. */
  private async handBack(chunkId: number | null): Promise<void> {
    if (!this.pool) return;
    await this.pool
      .query(
        `WITH back AS (UPDATE delivery_chunks SET leased_until = NULL, leased_by = NULL
          WHERE leased_by = $1 AND NOT done AND ($2::bigint IS NULL OR id = $2) RETURNING 1)
        SELECT pg_notify('${CHANNEL}', '') FROM (SELECT 1) one WHERE EXISTS (SELECT 1 FROM back)`,
        [this.instanceId, chunkId],
      )
      .catch(() => undefined);
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
    this.wake.stop();
    await this.started?.catch(() => undefined);
    await this.pumpRun;
    await Promise.allSettled([...this.inFlight]);
    await this.handBack(null);
    if (this.relisten) clearTimeout(this.relisten);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    for (const [, w] of this.waiters)
      w.resolve({ feedUrl: '', subscribers: 0, delivered: 0, failed: 0, elapsedMs: 0 });
    this.waiters.clear();
    this.local.clear();
  }
}

function targetOf(
  id: number,
  row: Pick<DeliveryTarget, 'callbackUrl' | 'protocol' | 'notifyProcedure' | 'secret'>,
): DeliveryTarget {
  return {
    id,
    callbackUrl: row.callbackUrl,
    protocol: row.protocol,
    notifyProcedure: row.notifyProcedure,
    secret: row.secret,
  };
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
