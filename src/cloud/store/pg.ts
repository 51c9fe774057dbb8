/**
 * The cloud's state in PostgreSQL: the store every instance of one cloud shares (`tidings cloud
 * --database postgres://...`). Same behaviour as SqliteCloudStore (the same tests run on both);
 * what differs is that many processes write at once, so every step is one statement or one
 * transaction, and whatever compares-then-writes does it in one statement (recordContent).
 *
 * The schema is created and migrated on first use, versioned in cloud_schema, under a
 * transaction-scoped advisory lock: instances starting together apply each migration once.
 * `pg` is loaded on first use, so a cloud on SQLite never loads it.
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { CloudLogEntry } from '../core/log.ts';
import type { NewWebSub } from '../core/types.ts';
import { PgCounterBuffer } from './pg-counters.ts';
import { OUTCOME_CTES, outcomeParams } from './pg-outcomes.ts';
import {
  countInstances,
  DEFAULT_CLOUD_STATEMENTS,
  gatePool,
  instanceAppName,
  StatementGate,
  shareOf,
} from './pg-share.ts';
import {
  ACCOUNT_COLUMNS,
  countersFrom,
  FEED_COLUMNS,
  RESOURCE_COLUMNS,
  SUB_COLUMNS,
  seedValues,
  TARGET_COLUMNS,
} from './rows.ts';
import {
  type AccountRow,
  type BulkSubscription,
  type CheckStart,
  type CloudStore,
  type ContentSeen,
  type CounterName,
  type DeliveryResult,
  type DeliveryTarget,
  MAX_CONSECUTIVE_ERRORS,
  type NewSubscription,
  type RecentChange,
  type ResourceRow,
  type SavedFeedRow,
  type SeedSubscription,
  type StoreCensus,
  type StoreCounts,
  type SubscriptionRow,
  type SweepResult,
} from './store.ts';

/** Advisory lock keys (one namespace: the first number). */
export const LOCKS = { migrate: [7_403_001, 1], sweep: [7_403_001, 2] } as const;

export interface PgMigration {
  version: number;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE resources (
  url TEXT PRIMARY KEY,
  last_hash TEXT,
  last_size BIGINT,
  etag TEXT,
  last_modified TEXT,
  title TEXT,
  ct_checks BIGINT NOT NULL DEFAULT 0,
  when_last_check BIGINT,
  ct_updates BIGINT NOT NULL DEFAULT 0,
  when_last_update BIGINT,
  site_name TEXT,
  site_url TEXT
);
CREATE INDEX resources_updated ON resources(when_last_update);
CREATE TABLE subscriptions (
  id BIGSERIAL PRIMARY KEY,
  feed_url TEXT NOT NULL,
  callback_url TEXT NOT NULL,
  protocol TEXT NOT NULL CHECK (protocol IN ('http-post', 'https-post', 'xml-rpc', 'websub')),
  notify_procedure TEXT,
  ct_updates BIGINT NOT NULL DEFAULT 0,
  ct_errors BIGINT NOT NULL DEFAULT 0,
  ct_consecutive_errors INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  when_created BIGINT NOT NULL,
  when_last_update BIGINT,
  when_last_error BIGINT,
  when_expires BIGINT NOT NULL,
  secret TEXT,
  lease_seconds INTEGER,
  state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'pending')),
  UNIQUE (feed_url, callback_url)
);
CREATE INDEX subscriptions_expiry ON subscriptions(when_expires);
CREATE INDEX subscriptions_callback ON subscriptions(callback_url);
-- Account names compare without case, as SQLite's COLLATE NOCASE: one lower-cased key each.
CREATE TABLE accounts (
  name TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  when_created BIGINT NOT NULL
);
CREATE UNIQUE INDEX accounts_name_nocase ON accounts(lower(name));
CREATE TABLE saved_feeds (
  name TEXT PRIMARY KEY REFERENCES accounts(name) ON DELETE CASCADE ON UPDATE CASCADE,
  public_url TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  content_type TEXT NOT NULL,
  hash TEXT NOT NULL,
  when_saved BIGINT NOT NULL
);
CREATE UNIQUE INDEX saved_feeds_name_nocase ON saved_feeds(lower(name));
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
`,
  },
  {
    // The fan-out as a queue every instance draws from (delivery/queue.ts): a change, and one row per
    // subscriber it is owed to, leased by the instance delivering it.
    version: 2,
    sql: `
CREATE TABLE changes (
  id BIGSERIAL PRIMARY KEY,
  feed_url TEXT NOT NULL,
  content BYTEA,
  content_type TEXT,
  subscribers INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  when_created BIGINT NOT NULL
);
CREATE TABLE deliveries (
  id BIGSERIAL PRIMARY KEY,
  change_id BIGINT NOT NULL REFERENCES changes(id) ON DELETE CASCADE,
  subscription_id BIGINT NOT NULL,
  leased_until BIGINT,
  leased_by TEXT,
  UNIQUE (change_id, subscription_id)
);
CREATE INDEX deliveries_leased_by ON deliveries(leased_by) WHERE leased_by IS NOT NULL;
`,
  },
  {
    // The log every instance writes and /viewLog reads: the same page from every instance.
    version: 3,
    sql: `
CREATE TABLE log_entries (
  id BIGSERIAL PRIMARY KEY,
  entry JSONB NOT NULL
);
`,
  },
  {
    // The queue's unit becomes a chunk of a change's subscribers (delivery/queue.ts): one row per up to
    // --delivery-batch subscription ids instead of one per subscriber, so a change to 100,000
    // is 100 rows to write, claim and settle, not 100,000. A chunk keeps its outcome tallies and
    // is marked done in the statement that records its outcomes; the change's report sums them
    // (no row every batch of every instance updates). Rows still queued move over, one chunk each.
    // Subscriptions get free room on their pages (fillfactor) so that recording a delivery is a
    // HOT update that need not touch the four indexes.
    version: 4,
    sql: `
CREATE TABLE delivery_chunks (
  id BIGSERIAL PRIMARY KEY,
  change_id BIGINT NOT NULL REFERENCES changes(id) ON DELETE CASCADE,
  subscription_ids BIGINT[] NOT NULL,
  size INTEGER NOT NULL,
  delivered INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  done BOOLEAN NOT NULL DEFAULT false,
  leased_until BIGINT,
  leased_by TEXT
);
CREATE INDEX delivery_chunks_waiting ON delivery_chunks(id) WHERE NOT done;
CREATE INDEX delivery_chunks_change ON delivery_chunks(change_id);
CREATE INDEX delivery_chunks_leased_by ON delivery_chunks(leased_by) WHERE leased_by IS NOT NULL AND NOT done;
INSERT INTO delivery_chunks (change_id, subscription_ids, size)
  SELECT change_id, array_agg(subscription_id ORDER BY subscription_id), COUNT(*) FROM deliveries GROUP BY change_id;
INSERT INTO delivery_chunks (change_id, subscription_ids, size, delivered, failed, done)
  SELECT id, '{}', 0, delivered, failed, true FROM changes;
DROP TABLE deliveries;
ALTER TABLE changes DROP COLUMN delivered, DROP COLUMN failed;
ALTER TABLE subscriptions SET (fillfactor = 80);
`,
  },
  {
    // The log as one row per write of an instance (its entries as one JSON array, oldest first,
    // `n` of them) instead of one row per entry: a ping of a feed with 10 subscribers logged 12
    // entries, 12 heap and index insertions. What was logged moves over as one write;
    // log_entries stays for instances not upgraded yet (the sweep still trims it).
    version: 5,
    sql: `
CREATE TABLE log_batches (
  id BIGSERIAL PRIMARY KEY,
  entries JSONB NOT NULL,
  n INTEGER NOT NULL
);
INSERT INTO log_batches (entries, n)
  SELECT jsonb_agg(entry ORDER BY id), COUNT(*) FROM log_entries HAVING COUNT(*) > 0;
`,
  },
  {
    // Registrations under way (a resource is read before its subscription is stored: the sweep
    // keeps it meanwhile). WebSub deliveries that failed are tried again as chunks of their change
    // (delivery/queue.ts): `attempt` counts the tries, `not_before` (the cloud's clock, ms) says
    // when a retry may be claimed; the change keeps the resource's hash it was read with, so a
    // retry of a topic that changed since is dropped.
    version: 6,
    sql: `
CREATE TABLE registrations (
  id BIGSERIAL PRIMARY KEY,
  feed_url TEXT NOT NULL,
  until BIGINT NOT NULL
);
CREATE INDEX registrations_feed ON registrations(feed_url);
ALTER TABLE changes ADD COLUMN topic_hash TEXT;
ALTER TABLE delivery_chunks ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0, ADD COLUMN not_before BIGINT;
`,
  },
];

/** Log entries kept across the cloud (the sweep trims the rest). */
export const LOG_KEPT = 1000;

/**
 * recordContent as CTEs (`rec` says whether the read changed the resource), for the queue to
 * add the change in the same statement (delivery/queue.ts). Parameters $1-$7: recordContentParams.
 * The row is locked first; `old` is what it held before. Two instances writing the same read
 * one after the other: the second finds the hash already there, unchanged. A row the sweep took
 * while the feed was being read (a ping's resource nobody subscribes to) is written anew, as a
 * first read: changed. `old` is read by the insert's own source, so before it: read after, a row
 * this statement updated would be skipped by FOR UPDATE.
 */
export const RECORD_CONTENT_CTES = `old AS (SELECT last_hash, last_size FROM resources WHERE url = $7 FOR UPDATE),
  up AS (
    INSERT INTO resources (url, last_hash, last_size, etag, last_modified, title, ct_checks,
      when_last_check, ct_updates, when_last_update)
    SELECT $7::text, $1::text, $2::bigint, $3::text, $4::text, $5::text, 1, $6::bigint, 1, $6::bigint
    FROM (SELECT 1) one LEFT JOIN old ON true
    ON CONFLICT (url) DO UPDATE SET last_hash = $1, last_size = $2, etag = $3, last_modified = $4,
      title = COALESCE($5, resources.title),
      ct_updates = resources.ct_updates + (CASE WHEN resources.last_hash IS DISTINCT FROM $1 OR resources.last_size IS DISTINCT FROM $2::bigint THEN 1 ELSE 0 END),
      when_last_update = CASE WHEN resources.last_hash IS DISTINCT FROM $1 OR resources.last_size IS DISTINCT FROM $2::bigint THEN $6 ELSE resources.when_last_update END
    RETURNING 1),
  rec AS (
    SELECT NOT EXISTS (SELECT 1 FROM old WHERE old.last_hash IS NOT DISTINCT FROM $1 AND old.last_size IS NOT DISTINCT FROM $2::bigint) AS changed
    FROM up)`;

export const recordContentParams = (url: string, c: ContentSeen, now: number): unknown[] => [
  c.hash,
  c.size,
  c.etag,
  c.lastModified,
  c.title,
  now,
  url,
];

/** Delivered to: verified, not expired, fewer than 3 failures in a row ($n: now). */
const live = (n: number) =>
  `state = 'active' AND when_expires > $${n} AND ct_consecutive_errors < ${MAX_CONSECUTIVE_ERRORS}`;

export interface PoolStats {
  connections: number;
  idle: number;
  waitingForConnection: number;
  share: number;
  running: number;
  waiting: number;
  failed: number;
}

export interface PgStoreOptions {
  /** Connections this instance keeps at most (default DEFAULT_MAX_CONNECTIONS, or the cloud's budget if larger). */
  maxConnections?: number;
  /** Statements the whole cloud runs at once, shared by its instances (default DEFAULT_CLOUD_STATEMENTS). */
  cloudStatements?: number;
  /** How often the instances are counted for that share (default 5 s). */
  shareEveryMs?: number;
}

/**
 * Connections (PostgreSQL backends) one instance keeps at most. Each backend warms its own
 * caches and maps the shared memory it touches page by page, and the database runs only as many
 * at once as it has cores, so every instance holding 20 gave three instances 60 backends for what
 * 8 each serve: bench:cluster pg3, PostgreSQL 1.90 -> 1.51 ms a ping; pg1 the same (1.61, 1.56).
 */
export const DEFAULT_MAX_CONNECTIONS = 8;

export class PgCloudStore implements CloudStore {
  readonly kind = 'postgres';
  readonly url: string;
  private readonly opening: Promise<Pool>;
  private pool: Pool | null = null;
  private closed = false;
  private readonly counted = new PgCounterBuffer(() => this.connection());
  /** This instance's connections' application_name (how the cloud counts its instances). */
  readonly appName = instanceAppName();
  /** Statements of this instance under way at once: its share of the cloud's (pg-share.ts). */
  private readonly gate: StatementGate;
  private shareTimer: NodeJS.Timeout | null = null;

  constructor(url: string, opts: PgStoreOptions = {}) {
    this.url = url;
    const budget = opts.cloudStatements ?? DEFAULT_CLOUD_STATEMENTS;
    this.gate = new StatementGate(budget);
    // One instance alone may run the whole budget: it needs that many connections.
    const max = opts.maxConnections ?? Math.max(DEFAULT_MAX_CONNECTIONS, budget);
    this.opening = openPool(url, max, this.appName).then((pool) => {
      gatePool(pool, this.gate);
      this.pool = pool;
      // Counted first one interval after opening (until then this instance keeps the whole
      // budget): a count at once would take the connection the migrations left idle and make the
      // start-up work open a backend of its own.
      this.shareTimer = setInterval(() => void this.takeShare(pool, budget), opts.shareEveryMs ?? 5000);
      this.shareTimer.unref?.();
      return pool;
    });
    // A failure to open is reported by the first call that needs the database, not as an
    // unhandled rejection here.
    this.opening.catch(() => undefined);
  }

  /** Statements this instance runs at once now (its share of the cloud's). */
  get statementShare(): number {
    return this.gate.current;
  }

  /**
   * This instance's use of the database (/metrics): connections open, idle and waited for, its
   * share of the cloud's statements, statements running and waiting for it, and statements that
   * failed (connection lost, refused, timed out, or an error in the statement).
   */
  poolStats(): PoolStats {
    const pool = this.pool;
    return {
      connections: pool?.totalCount ?? 0,
      idle: pool?.idleCount ?? 0,
      waitingForConnection: pool?.waitingCount ?? 0,
      share: this.gate.current,
      ...this.gate.stats(),
    };
  }

  /** Counts the instances connected and takes this one's share (a failed count keeps the last). */
  private async takeShare(pool: Pool, budget: number): Promise<void> {
    if (this.closed) return;
    const n = await countInstances(pool).catch(() => null);
    if (n !== null) this.gate.setLimit(shareOf(budget, n));
  }

  /** Resolves when connected and migrated (rejects with the reason it could not). */
  async ready(): Promise<void> {
    await this.opening;
  }

  /**
   * One statement; `name` makes it a prepared statement (parsed and planned once per connection):
   * for the statements under every ping, whose planning cost more than their execution.
   */
  private async q<R extends QueryResultRow>(
    sql: string,
    params: unknown[] = [],
    name?: string,
  ): Promise<R[]> {
    const pool = this.pool ?? (await this.opening);
    return (await pool.query<R>(name ? { name, text: sql, values: params } : { text: sql, values: params }))
      .rows;
  }

  private async count(sql: string, params: unknown[] = []): Promise<number> {
    const pool = this.pool ?? (await this.opening);
    return (await pool.query(sql, params)).rowCount ?? 0;
  }

  /** Runs `fn` in one transaction on one connection. */
  async transaction<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool ?? (await this.opening), fn);
  }

  /** The pool (after migrations), for the cluster's queue (delivery/queue.ts). */
  async connection(): Promise<Pool> {
    return this.pool ?? (await this.opening);
  }

  /** Log entries of this instance, oldest first: one row (a JSON array) per write. */
  async appendLog(entries: readonly CloudLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.q(
      'INSERT INTO log_batches (entries, n) VALUES ($1::jsonb, $2)',
      [JSON.stringify(entries), entries.length],
      'tidings-append-log',
    );
  }

  /** The newest entries of the whole cloud, newest first: the newest writes until `limit` entries. */
  async recentLog(limit: number): Promise<CloudLogEntry[]> {
    const out: CloudLogEntry[] = [];
    const page = 16;
    let before = Number.MAX_SAFE_INTEGER;
    while (out.length < limit) {
      const rows = await this.q<{ id: number; entries: CloudLogEntry[] }>(
        'SELECT id, entries FROM log_batches WHERE id < $1 ORDER BY id DESC LIMIT $2',
        [before, page],
      );
      for (const r of rows)
        for (let i = r.entries.length - 1; i >= 0 && out.length < limit; i--) out.push(r.entries[i]!);
      if (rows.length < page) break;
      before = rows.at(-1)!.id;
    }
    return out;
  }

  async upsertSubscription(sub: NewSubscription, now: number, expiresAt: number): Promise<void> {
    await this.q(
      `INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure, ct_updates,
        when_created, when_last_update, when_expires) VALUES ($1, $2, $3, $4, 1, $5, $5, $6)
      ON CONFLICT (feed_url, callback_url) DO UPDATE SET protocol = excluded.protocol,
        notify_procedure = excluded.notify_procedure, ct_updates = subscriptions.ct_updates + 1,
        ct_consecutive_errors = 0, when_last_update = excluded.when_last_update,
        when_expires = excluded.when_expires, secret = NULL, lease_seconds = NULL, state = 'active'`,
      [sub.feedUrl, sub.callbackUrl, sub.protocol, sub.notifyProcedure, now, expiresAt],
    );
  }

  async insertSubscriptions(subs: readonly BulkSubscription[], now: number): Promise<void> {
    // One statement per 10,000 rows over arrays (unnest), not one round trip per row.
    for (let from = 0; from < subs.length; from += 10_000) {
      const slice = subs.slice(from, from + 10_000);
      await this.q(
        `INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure,
          ct_consecutive_errors, when_created, when_expires, secret, lease_seconds)
        SELECT f, c, p, np, ce, $1, e, s, l FROM unnest($2::text[], $3::text[], $4::text[], $5::text[],
          $6::int[], $7::bigint[], $8::text[], $9::int[]) AS t(f, c, p, np, ce, e, s, l)
        ON CONFLICT (feed_url, callback_url) DO UPDATE SET protocol = excluded.protocol,
          notify_procedure = excluded.notify_procedure, ct_consecutive_errors = excluded.ct_consecutive_errors,
          when_expires = excluded.when_expires, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
          state = 'active'`,
        [
          now,
          slice.map((s) => s.feedUrl),
          slice.map((s) => s.callbackUrl),
          slice.map((s) => s.protocol),
          slice.map((s) => s.notifyProcedure),
          slice.map((s) => s.consecutiveErrors ?? 0),
          slice.map((s) => s.expiresAt),
          slice.map((s) => s.secret ?? null),
          slice.map((s) => s.leaseSeconds ?? null),
        ],
      );
    }
  }

  liveSubscriptions(feedUrl: string, now: number): Promise<SubscriptionRow[]> {
    return this.q(`SELECT ${SUB_COLUMNS} FROM subscriptions WHERE feed_url = $1 AND ${live(2)} ORDER BY id`, [
      feedUrl,
      now,
    ]);
  }

  liveTargetsPage(feedUrl: string, now: number, afterUrl: string, limit: number): Promise<DeliveryTarget[]> {
    // COLLATE "C": byte order, the order SQLite's index has and the page cursor relies on.
    return this.q(
      `SELECT ${TARGET_COLUMNS} FROM subscriptions WHERE feed_url = $1 AND callback_url COLLATE "C" > $3
        AND ${live(2)} ORDER BY callback_url COLLATE "C" LIMIT $4`,
      [feedUrl, now, afterUrl, limit],
    );
  }

  async getSubscription(feedUrl: string, callbackUrl: string): Promise<SubscriptionRow | undefined> {
    const rows = await this.q<SubscriptionRow>(
      `SELECT ${SUB_COLUMNS} FROM subscriptions WHERE feed_url = $1 AND callback_url = $2`,
      [feedUrl, callbackUrl],
    );
    return rows[0];
  }

  allSubscriptions(): Promise<SubscriptionRow[]> {
    return this.q(`SELECT ${SUB_COLUMNS} FROM subscriptions ORDER BY feed_url COLLATE "C", id`);
  }

  async recordDeliveries(results: readonly DeliveryResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.q(`WITH ${OUTCOME_CTES} SELECT 1`, outcomeParams(results));
    await bumpDelivered(this, results);
  }

  removeExpired(now: number): Promise<number> {
    return this.count('DELETE FROM subscriptions WHERE when_expires <= $1', [now]);
  }

  /**
   * The sweep, once across the cloud: an instance that finds another sweeping (the advisory
   * lock taken) leaves it to that one and reports nothing removed.
   */
  async sweep(now: number, retainMs: number, opts: { wait?: boolean } = {}): Promise<SweepResult> {
    return this.transaction(async (c) => {
      if (opts.wait) await c.query('SELECT pg_advisory_xact_lock($1, $2)', [...LOCKS.sweep]);
      else {
        const locked = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS ok', [
          ...LOCKS.sweep,
        ]);
        if (!locked.rows[0]?.ok) return { subscriptionsRemoved: 0, resourcesRemoved: 0 };
      }
      const subs = await c.query(
        `DELETE FROM subscriptions WHERE when_expires <= $1 OR ct_consecutive_errors >= ${MAX_CONSECUTIVE_ERRORS}`,
        [now],
      );
      await c.query('DELETE FROM registrations WHERE until <= $1', [now]);
      const resources = await c.query(
        `DELETE FROM resources WHERE (when_last_update IS NULL OR when_last_update < $1)
          AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.feed_url = resources.url)
          AND NOT EXISTS (SELECT 1 FROM saved_feeds f WHERE f.public_url = resources.url)
          AND NOT EXISTS (SELECT 1 FROM registrations r WHERE r.feed_url = resources.url)`,
        [now - retainMs],
      );
      // The newest writes holding LOG_KEPT entries are kept.
      await c.query(
        `DELETE FROM log_batches WHERE id < (SELECT id FROM (
          SELECT id, SUM(n) OVER (ORDER BY id DESC) AS upto FROM log_batches) t
          WHERE upto >= $1 ORDER BY id DESC LIMIT 1)`,
        [LOG_KEPT],
      );
      await c.query('DELETE FROM log_entries WHERE id <= (SELECT MAX(id) FROM log_entries) - $1', [LOG_KEPT]);
      // Changes fully delivered whose instance went away before reading the report.
      await c.query(
        `DELETE FROM changes WHERE when_created < $1
          AND NOT EXISTS (SELECT 1 FROM delivery_chunks d WHERE d.change_id = changes.id AND NOT d.done)`,
        [now - 3_600_000],
      );
      return { subscriptionsRemoved: subs.rowCount ?? 0, resourcesRemoved: resources.rowCount ?? 0 };
    });
  }

  async beginRegistration(feedUrl: string, until: number): Promise<number> {
    const rows = await this.q<{ id: number }>(
      'INSERT INTO registrations (feed_url, until) VALUES ($1, $2) RETURNING id',
      [feedUrl, until],
      'tidings-begin-registration',
    );
    return rows[0]!.id;
  }

  async endRegistration(id: number): Promise<void> {
    await this.q('DELETE FROM registrations WHERE id = $1', [id], 'tidings-end-registration');
  }

  async addPendingWebSub(sub: NewWebSub, now: number, expiresAt: number): Promise<boolean> {
    const n = await this.count(
      `INSERT INTO subscriptions (feed_url, callback_url, protocol, when_created, when_expires, secret,
        lease_seconds, state) VALUES ($1, $2, 'websub', $3, $4, $5, $6, 'pending')
      ON CONFLICT (feed_url, callback_url) DO NOTHING`,
      [sub.feedUrl, sub.callbackUrl, now, expiresAt, sub.secret, sub.leaseSeconds],
    );
    return n > 0;
  }

  async activateWebSub(sub: NewWebSub, now: number, expiresAt: number): Promise<void> {
    await this.q(
      `INSERT INTO subscriptions (feed_url, callback_url, protocol, ct_updates, when_created,
        when_last_update, when_expires, secret, lease_seconds, state) VALUES ($1, $2, 'websub', 0, $3, $3, $4, $5, $6, 'active')
      ON CONFLICT (feed_url, callback_url) DO UPDATE SET protocol = 'websub', notify_procedure = NULL,
        ct_consecutive_errors = 0, when_last_update = excluded.when_last_update,
        when_expires = excluded.when_expires, secret = excluded.secret,
        lease_seconds = excluded.lease_seconds, state = 'active'`,
      [sub.feedUrl, sub.callbackUrl, now, expiresAt, sub.secret, sub.leaseSeconds],
    );
  }

  async dropPending(feedUrl: string, callbackUrl: string): Promise<void> {
    await this.q(
      `DELETE FROM subscriptions WHERE feed_url = $1 AND callback_url = $2 AND state = 'pending'`,
      [feedUrl, callbackUrl],
    );
  }

  async removeSubscription(feedUrl: string, callbackUrl: string): Promise<boolean> {
    return (
      (await this.count('DELETE FROM subscriptions WHERE feed_url = $1 AND callback_url = $2', [
        feedUrl,
        callbackUrl,
      ])) > 0
    );
  }

  async countForCallback(callbackUrl: string): Promise<number> {
    const rows = await this.q<{ n: number }>(
      'SELECT COUNT(*) AS n FROM subscriptions WHERE callback_url = $1',
      [callbackUrl],
    );
    return rows[0]!.n;
  }

  subscriptionsOf(feedUrl: string): Promise<SubscriptionRow[]> {
    return this.q(`SELECT ${SUB_COLUMNS} FROM subscriptions WHERE feed_url = $1 ORDER BY id`, [feedUrl]);
  }

  async replaceSubscriptions(feedUrl: string, rows: readonly SeedSubscription[]): Promise<void> {
    await this.transaction(async (c) => {
      await c.query('DELETE FROM subscriptions WHERE feed_url = $1', [feedUrl]);
      await c.query('INSERT INTO resources (url) VALUES ($1) ON CONFLICT (url) DO NOTHING', [feedUrl]);
      for (const r of rows) {
        await c.query(
          `INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure, ct_updates,
            ct_errors, ct_consecutive_errors, last_error, when_created, when_last_update, when_last_error,
            when_expires, secret, lease_seconds, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
          ON CONFLICT (feed_url, callback_url) DO NOTHING`,
          [...seedValues(feedUrl, r)],
        );
      }
    });
  }

  async putResource(
    row: Omit<ResourceRow, 'etag' | 'lastModified' | 'title' | 'siteName' | 'siteUrl'>,
  ): Promise<void> {
    await this.q(
      `INSERT INTO resources (url, last_hash, last_size, ct_checks, when_last_check, ct_updates,
        when_last_update) VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (url) DO UPDATE SET last_hash = excluded.last_hash, last_size = excluded.last_size,
        ct_checks = excluded.ct_checks, when_last_check = excluded.when_last_check,
        ct_updates = excluded.ct_updates, when_last_update = excluded.when_last_update`,
      [
        row.url,
        row.lastHash,
        row.lastSize,
        row.ctChecks,
        row.whenLastCheck,
        row.ctUpdates,
        row.whenLastUpdate,
      ],
    );
  }

  async clearFeeds(): Promise<void> {
    await this.transaction(async (c) => {
      await c.query('DELETE FROM subscriptions');
      await c.query('DELETE FROM resources');
    });
  }

  async nameSite(url: string, siteName: string | null, siteUrl: string | null): Promise<void> {
    await this.q(
      `INSERT INTO resources (url, site_name, site_url) VALUES ($1, $2, $3)
      ON CONFLICT (url) DO UPDATE SET site_name = COALESCE(excluded.site_name, resources.site_name),
        site_url = COALESCE(excluded.site_url, resources.site_url)`,
      [url, siteName, siteUrl],
    );
  }

  recentChanges(since: number, limit: number): Promise<RecentChange[]> {
    return this.q(
      `SELECT url, site_name AS "siteName", site_url AS "siteUrl", when_last_update AS "whenLastUpdate"
      FROM resources WHERE when_last_update >= $1 ORDER BY when_last_update DESC LIMIT $2`,
      [since, limit],
    );
  }

  async getResource(url: string): Promise<ResourceRow | undefined> {
    return (await this.q<ResourceRow>(`SELECT ${RESOURCE_COLUMNS} FROM resources WHERE url = $1`, [url]))[0];
  }

  allResources(): Promise<ResourceRow[]> {
    return this.q(`SELECT ${RESOURCE_COLUMNS} FROM resources ORDER BY url COLLATE "C"`);
  }

  async touchResource(url: string, now: number): Promise<void> {
    await this.q(
      `INSERT INTO resources (url, ct_checks, when_last_check) VALUES ($1, 1, $2)
      ON CONFLICT (url) DO UPDATE SET ct_checks = resources.ct_checks + 1, when_last_check = excluded.when_last_check`,
      [url, now],
    );
  }

  async beginCheck(url: string, now: number, minIntervalSec: number): Promise<CheckStart> {
    // `before` is the row as the statement began (the touch in the same statement is not in it).
    // The interval test is resource.ts's: whole seconds since the last check below the minimum.
    const rows = await this.q<{ before: ResourceRow | null; tooRecent: boolean; saved: SavedFeedRow | null }>(
      `WITH before AS (SELECT ${RESOURCE_COLUMNS} FROM resources WHERE url = $1),
      recent AS (SELECT 1 FROM before WHERE $3::int > 0 AND "whenLastCheck" IS NOT NULL
        AND floor(($2::bigint - "whenLastCheck") / 1000.0) < $3::int),
      touch AS (
        INSERT INTO resources (url, ct_checks, when_last_check) SELECT $1, 1, $2 WHERE NOT EXISTS (SELECT 1 FROM recent)
        ON CONFLICT (url) DO UPDATE SET ct_checks = resources.ct_checks + 1, when_last_check = excluded.when_last_check
        RETURNING 1)
      SELECT (SELECT row_to_json(before) FROM before) AS before,
        EXISTS (SELECT 1 FROM recent) AS "tooRecent",
        (SELECT row_to_json(f) FROM (SELECT ${FEED_COLUMNS} FROM saved_feeds WHERE public_url = $1) f
          WHERE NOT EXISTS (SELECT 1 FROM recent)) AS saved,
        (SELECT COUNT(*) FROM touch) AS touched`,
      [url, now, minIntervalSec],
      'tidings-begin-check',
    );
    const row = rows[0]!;
    return { before: row.before ?? undefined, tooRecent: row.tooRecent, saved: row.saved ?? undefined };
  }

  async recordContent(url: string, c: ContentSeen, now: number): Promise<boolean> {
    const rows = await this.q<{ changed: boolean }>(
      `WITH ${RECORD_CONTENT_CTES} SELECT changed FROM rec`,
      recordContentParams(url, c, now),
      'tidings-record-content',
    );
    return rows[0]?.changed ?? false;
  }

  /** Added in memory and written with the others every 200 ms (pg-counters.ts). */
  async bump(name: CounterName, by = 1): Promise<void> {
    this.counted.add(name, by);
  }

  /** Writes this instance's counts first: its own are exact, other instances' at most 200 ms behind. */
  async counters(): Promise<Record<CounterName, number>> {
    await this.counted.flush();
    return countersFrom(await this.q<{ name: string; value: number }>('SELECT name, value FROM counters'));
  }

  /** Writes the counts this instance holds (a test, or before reading across instances). */
  flushCounters(): Promise<void> {
    return this.counted.flush();
  }

  async counts(now: number): Promise<StoreCounts> {
    const rows = await this.q<StoreCounts>(
      `SELECT (SELECT COUNT(*) FROM subscriptions WHERE ${live(1)}) AS "liveSubscriptions",
        (SELECT COUNT(DISTINCT feed_url) FROM subscriptions WHERE ${live(1)}) AS "liveFeeds",
        (SELECT COUNT(*) FROM subscriptions) AS "allSubscriptions",
        (SELECT COUNT(*) FROM saved_feeds) AS "savedFeeds",
        (SELECT COUNT(*) FROM accounts) AS accounts`,
      [now],
    );
    return rows[0]!;
  }

  async census(now: number, soonMs: number): Promise<StoreCensus> {
    const [byProtocol, soon] = await Promise.all([
      this.q<StoreCensus['byProtocol'][number]>(
        `SELECT protocol, COUNT(*) AS subscribers, COUNT(DISTINCT feed_url) AS resources
        FROM subscriptions WHERE ${live(1)} GROUP BY protocol ORDER BY protocol`,
        [now],
      ),
      this.q<{ n: number }>(
        `SELECT COUNT(*) AS n FROM subscriptions WHERE protocol = 'websub' AND ${live(1)} AND when_expires <= $2`,
        [now, now + soonMs],
      ),
    ]);
    return { byProtocol, leasesEndingSoon: soon[0]?.n ?? 0 };
  }

  async probe(): Promise<void> {
    await this.q('SELECT 1');
  }

  async addAccount(name: string, passwordHash: string, now: number): Promise<void> {
    await this.q('INSERT INTO accounts (name, password_hash, when_created) VALUES ($1, $2, $3)', [
      name,
      passwordHash,
      now,
    ]);
  }

  async setPassword(name: string, passwordHash: string): Promise<boolean> {
    return (
      (await this.count('UPDATE accounts SET password_hash = $1 WHERE lower(name) = lower($2)', [
        passwordHash,
        name,
      ])) > 0
    );
  }

  async getAccount(name: string): Promise<AccountRow | undefined> {
    return (
      await this.q<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE lower(name) = lower($1)`, [
        name,
      ])
    )[0];
  }

  listAccounts(): Promise<AccountRow[]> {
    return this.q(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY lower(name)`);
  }

  async removeAccount(name: string): Promise<boolean> {
    return (await this.count('DELETE FROM accounts WHERE lower(name) = lower($1)', [name])) > 0;
  }

  async saveFeed(row: SavedFeedRow): Promise<void> {
    await this.q(
      `INSERT INTO saved_feeds (name, public_url, body, content_type, hash, when_saved) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (name) DO UPDATE SET public_url = excluded.public_url, body = excluded.body,
        content_type = excluded.content_type, hash = excluded.hash, when_saved = excluded.when_saved`,
      [row.name, row.publicUrl, row.body, row.contentType, row.hash, row.whenSaved],
    );
  }

  async savedFeedByName(name: string): Promise<SavedFeedRow | undefined> {
    return (
      await this.q<SavedFeedRow>(`SELECT ${FEED_COLUMNS} FROM saved_feeds WHERE lower(name) = lower($1)`, [
        name,
      ])
    )[0];
  }

  async savedFeedByUrl(url: string): Promise<SavedFeedRow | undefined> {
    return (
      await this.q<SavedFeedRow>(`SELECT ${FEED_COLUMNS} FROM saved_feeds WHERE public_url = $1`, [url])
    )[0];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pool = await this.opening.catch(() => null);
    if (this.shareTimer) clearInterval(this.shareTimer);
    if (pool) await this.counted.close();
    await pool?.end();
  }
}

/** The notification counters for a batch of outcomes already written. */
export async function bumpDelivered(store: CloudStore, results: readonly DeliveryResult[]): Promise<void> {
  const ok = results.filter((r) => r.ok).length;
  if (ok > 0) await store.bump('notifications', ok);
  if (results.length - ok > 0) await store.bump('notificationsFailed', results.length - ok);
}

/** Connects, then brings the schema up to date under the migration lock. */
async function openPool(url: string, max: number, appName: string): Promise<Pool> {
  const { default: pg } = await import('pg');
  // BIGINT and COUNT(*) come back as numbers (milliseconds and counts fit in 2^53).
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === 20
        ? (v: string) => Number(v)
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  // Connections are kept while idle (pg-pool closes them after 10 s by default). A new backend
  // costs PostgreSQL far more than the statements it then runs: a fork, a page fault for every
  // page of shared memory it touches, its catalog caches, and the prepared statements planned
  // again. Closed after every quiet spell, each instance's pool was opened anew for every burst:
  // bench:cluster's pings opened 39-48 backends with three instances (16 with one), and PostgreSQL
  // spent 2.97-3.43 ms a ping; kept, none (1.84 ms).
  // The named statements under every ping and chunk (tidings-record-enqueue, -enqueue, -claim,
  // -settle) look rows up by key: their generic plan is as good as any. Left to choose, PostgreSQL
  // kept planning tidings-record-enqueue anew on 55-96% of calls on some connections (bench:cluster
  // trace, pg_stat_statements: 0.78-1.01 ms a ping against 0.35-0.38 where it kept one plan).
  // No JIT: every statement here runs in milliseconds, and PostgreSQL compiles any whose estimate
  // passes jit_above_cost, for 100-300 ms of CPU each time it is planned. Estimates on the queue's
  // churned tables are not to be trusted: a backlog of 2,000 changes after 20,000 removed was
  // estimated at 640,000 in one form of the end check (compiled for 205 ms to run in 10).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 0,
    types,
    application_name: appName,
    options: '-c plan_cache_mode=force_generic_plan -c jit=off',
  });
  // An idle connection dropped by the server (restart, failover) is replaced on next use; the
  // error must not crash the process.
  pool.on('error', () => undefined);
  try {
    await migrate(pool);
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
  return pool;
}

/**
 * Applies the migrations this database lacks, each in one transaction holding the migration
 * lock: an instance that starts while another migrates waits, then finds the work done.
 */
export function migrate(pool: Pool, migrations: readonly PgMigration[] = PG_MIGRATIONS): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...LOCKS.migrate]);
    await client.query('CREATE TABLE IF NOT EXISTS cloud_schema (version INTEGER NOT NULL)');
    const found = await client.query<{ version: number }>('SELECT version FROM cloud_schema');
    let version = found.rows[0]?.version ?? 0;
    if (found.rows.length === 0) await client.query('INSERT INTO cloud_schema (version) VALUES (0)');
    const newest = migrations.at(-1)?.version ?? 0;
    if (version > newest)
      throw new Error(
        `this database's cloud schema is version ${version}, newer than this Tidings knows (${newest}): upgrade Tidings`,
      );
    for (const m of migrations) {
      if (m.version <= version) continue;
      await client.query(m.sql);
      await client.query('UPDATE cloud_schema SET version = $1', [m.version]);
      version = m.version;
    }
    return version;
  });
}

/** Runs `fn` in one transaction on one connection of the pool: committed, or rolled back on a throw. */
async function inTransaction<T>(pool: Pool, fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
