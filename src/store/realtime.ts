/**
 * Real-time reading's tables: one row per feed we asked a cloud to notify us about, and the
 * bounded activity log of every rssCloud call in or out (the seed calls the cloud's log "an
 * essential tool").
 *
 * The schema tracks its own version in `realtime_schema` instead of PRAGMA user_version, so these
 * tables can live in the reader's database (pass its connection) or in a file of their own
 * without ever colliding with the store's migrations: openDatabase skips every migration whose
 * version is <= user_version, so a shared counter would make one schema's later steps vanish.
 */
import type { DatabaseSync } from 'node:sqlite';
import { statementCache } from './context.ts';
import {
  type Columns,
  columns,
  flag,
  int,
  intOrNull,
  oneOf,
  type Raw,
  text,
  textOrNull,
} from './realtime-columns.ts';
import { transaction } from './sqlite.ts';

export type CloudSubscriptionStatus = 'pending' | 'live' | 'failed' | 'unsupported';

export interface CloudSubscriptionRow {
  feedId: number;
  /** The URL we asked about (url1): the one the cloud will notify us with. */
  feedUrl: string;
  /** Where we asked (the cloud's registration endpoint). */
  cloudUrl: string;
  /** The feed's <cloud> protocol as given (http-post, https-post, xml-rpc, soap...). */
  protocol: string;
  /** The callback we registered (null until a request was made). */
  callbackUrl: string | null;
  status: CloudSubscriptionStatus;
  /** The cloud's own words (or ours when it could not be asked). */
  message: string | null;
  lastOkAt: number | null;
  lastAttemptAt: number | null;
  nextRenewalAt: number | null;
  /** Failed requests in a row (drives the retry back-off). */
  failures: number;
  lastNotifiedAt: number | null;
}

export type ActivityDirection = 'in' | 'out';

export interface ActivityInput {
  /** ms since the epoch. */
  at: number;
  direction: ActivityDirection;
  /** Who: the cloud's host for calls out, the caller's address for calls in. */
  peer: string;
  /** pleaseNotify, rssCloud.pleaseNotify, notify, challenge... */
  procedure: string;
  /** Masked feed URL the call was about. */
  feedUrl: string | null;
  /** Readable outcome: the cloud's message, "404 not subscribed", "fetch queued"... */
  result: string;
  ok: boolean;
  latencyMs: number | null;
}

export interface ActivityRow extends ActivityInput {
  id: number;
}

export const DEFAULT_ACTIVITY_CAP = 2_000;

/** Schema steps, applied in order once each; never edit a step, add one. */
const STEPS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE IF NOT EXISTS cloud_subscriptions (
  feed_id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL,
  cloud_url TEXT NOT NULL,
  protocol TEXT NOT NULL,
  callback_url TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'live', 'failed', 'unsupported')),
  message TEXT,
  last_ok_at INTEGER,
  last_attempt_at INTEGER,
  next_renewal_at INTEGER,
  failures INTEGER NOT NULL DEFAULT 0,
  last_notified_at INTEGER
);
CREATE INDEX IF NOT EXISTS cloud_subscriptions_feed_url ON cloud_subscriptions(feed_url);
CREATE TABLE IF NOT EXISTS activity_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  peer TEXT NOT NULL,
  procedure TEXT NOT NULL,
  feed_url TEXT,
  result TEXT NOT NULL,
  ok INTEGER NOT NULL,
  latency_ms INTEGER
);`,
  },
  {
    // WebSub (src/realtime/websub/): one row per feed read through a hub. The callback id is the
    // unguessable last segment of the callback path; the secret signs the hub's deliveries.
    version: 2,
    sql: `
CREATE TABLE IF NOT EXISTS websub_subscriptions (
  feed_id INTEGER PRIMARY KEY,
  topic TEXT NOT NULL,
  hub TEXT NOT NULL,
  callback_id TEXT NOT NULL UNIQUE,
  secret TEXT,
  callback_url TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'live', 'failed', 'denied')),
  message TEXT,
  lease_seconds INTEGER,
  lease_ends_at INTEGER,
  last_ok_at INTEGER,
  last_attempt_at INTEGER,
  next_renewal_at INTEGER,
  failures INTEGER NOT NULL DEFAULT 0,
  last_delivery_at INTEGER
);`,
  },
  {
    // A subscribe waiting for the hub's verification says so in its row (until when), so a
    // restart accepts the hub's late verification and asks again at once (issue 31).
    version: 3,
    sql: 'ALTER TABLE websub_subscriptions ADD COLUMN verify_until INTEGER;',
  },
];

/** Creates or upgrades the tables in `db` (idempotent; safe on every start). */
export function ensureRealtimeSchema(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS realtime_schema (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS v FROM realtime_schema').get() as { v: number | null };
  const current = row.v ?? 0;
  for (const step of STEPS) {
    if (step.version <= current) continue;
    transaction(db, () => {
      db.exec(step.sql);
      db.prepare('INSERT INTO realtime_schema (version) VALUES (?)').run(step.version);
    });
  }
}

/** cloud_subscriptions, column by column. */
const SUBSCRIPTION: Columns<CloudSubscriptionRow> = columns<CloudSubscriptionRow>({
  feedId: ['feed_id', int],
  feedUrl: ['feed_url', text],
  cloudUrl: ['cloud_url', text],
  protocol: ['protocol', text],
  callbackUrl: ['callback_url', textOrNull],
  status: ['status', oneOf<CloudSubscriptionStatus>()],
  message: ['message', textOrNull],
  lastOkAt: ['last_ok_at', intOrNull],
  lastAttemptAt: ['last_attempt_at', intOrNull],
  nextRenewalAt: ['next_renewal_at', intOrNull],
  failures: ['failures', int],
  lastNotifiedAt: ['last_notified_at', intOrNull],
});

/** activity_log, column by column. */
const ACTIVITY: Columns<ActivityRow> = columns<ActivityRow>({
  id: ['id', int],
  at: ['at', int],
  direction: ['direction', oneOf<ActivityDirection>()],
  peer: ['peer', text],
  procedure: ['procedure', text],
  feedUrl: ['feed_url', textOrNull],
  result: ['result', text],
  ok: ['ok', flag],
  latencyMs: ['latency_ms', intOrNull],
});

/** How long a new activity entry may wait in memory before it is written. */
export const ACTIVITY_FLUSH_MS = 50;

/** The two tables behind one object; every statement prepared once. */
export class RealtimeStore {
  private readonly db: DatabaseSync;
  private readonly stmt: ReturnType<typeof statementCache>;
  private readonly activityCap: number;
  /** Entries not yet written: a burst of notifications costs one commit, not two each. */
  private pendingActivity: ActivityRow[] = [];
  private nextActivityId = 0;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(db: DatabaseSync, opts: { activityCap?: number } = {}) {
    this.db = db;
    this.stmt = statementCache(db);
    this.activityCap = Math.max(1, Math.floor(opts.activityCap ?? DEFAULT_ACTIVITY_CAP));
    ensureRealtimeSchema(db);
  }

  // Subscriptions

  /**
   * Rows as last read or written, frozen: every notification asks whether its feed is live, and a
   * SELECT per call was a large part of the receiver's cost under a storm (bench:latency). This
   * object is the table's only writer, so the cache is dropped exactly where rows change.
   */
  private readonly subs = new Map<number, CloudSubscriptionRow | null>();

  getSubscription(feedId: number): CloudSubscriptionRow | null {
    const cached = this.subs.get(feedId);
    if (cached !== undefined) return cached;
    const r = this.stmt(`SELECT ${SUBSCRIPTION.list} FROM cloud_subscriptions WHERE feed_id = ?`).get(feedId);
    const row = r ? Object.freeze(SUBSCRIPTION.read(r as Raw)) : null;
    this.subs.set(feedId, row);
    return row;
  }

  listSubscriptions(): CloudSubscriptionRow[] {
    return (
      this.stmt(`SELECT ${SUBSCRIPTION.list} FROM cloud_subscriptions ORDER BY feed_id`).all() as Raw[]
    ).map(SUBSCRIPTION.read);
  }

  /** Writes the whole row (insert or replace): one statement, so a row is never half-written. */
  putSubscription(row: CloudSubscriptionRow): void {
    this.subs.delete(row.feedId);
    this.stmt(
      `INSERT OR REPLACE INTO cloud_subscriptions (${SUBSCRIPTION.list}) VALUES (${SUBSCRIPTION.params})`,
    ).run(...SUBSCRIPTION.values(row));
  }

  /** To the second: a cloud calling 10,000 times a second must not mean 10,000 writes. */
  markNotified(feedId: number, at: number): void {
    this.subs.delete(feedId);
    this.stmt(
      `UPDATE cloud_subscriptions SET last_notified_at = ?1
       WHERE feed_id = ?2 AND (last_notified_at IS NULL OR last_notified_at < ?1 - 1000)`,
    ).run(at, feedId);
  }

  deleteSubscription(feedId: number): boolean {
    this.subs.delete(feedId);
    return Number(this.stmt('DELETE FROM cloud_subscriptions WHERE feed_id = ?').run(feedId).changes) > 0;
  }

  // Activity log

  /**
   * Appends an entry and drops the oldest beyond the cap; returns the row. Written within
   * ACTIVITY_FLUSH_MS together with the others that arrived meanwhile (one transaction): under a
   * storm of notifications the log was two commits per call and the receiver's limit, and a
   * commit per loop turn was still a quarter of its CPU at a few thousand calls a second.
   * Reads flush first, so they always see every entry; the owner flushes before closing.
   */
  addActivity(entry: ActivityInput): ActivityRow {
    if (this.nextActivityId === 0) {
      const max = this.stmt('SELECT IFNULL(MAX(id), 0) AS m FROM activity_log').get() as { m: number };
      this.nextActivityId = max.m + 1;
    }
    const row: ActivityRow = { id: this.nextActivityId++, ...entry };
    this.pendingActivity.push(row);
    if (this.flushTimer === null) {
      this.flushTimer = setTimeout(() => this.flushActivity(), ACTIVITY_FLUSH_MS);
      this.flushTimer.unref?.();
    }
    return row;
  }

  /** Writes the entries added so far (called before reads and before the database closes). */
  flushActivity(): void {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const rows = this.pendingActivity;
    if (rows.length === 0) return;
    this.pendingActivity = [];
    if (!this.db.isOpen) return;
    transaction(this.db, () => {
      const insert = this.stmt(`INSERT INTO activity_log (${ACTIVITY.list}) VALUES (${ACTIVITY.params})`);
      for (const r of rows) {
        const latencyMs = r.latencyMs === null ? null : Math.round(r.latencyMs); // an INTEGER column
        insert.run(...ACTIVITY.values({ ...r, latencyMs }));
      }
      // Ids only grow, so "older than the newest id - cap" is one range.
      const last = rows[rows.length - 1]!.id;
      if (last > this.activityCap)
        this.stmt('DELETE FROM activity_log WHERE id <= ?').run(last - this.activityCap);
    });
  }

  /** Newest first. */
  listActivity(limit = 100): ActivityRow[] {
    this.flushActivity();
    const cap = Math.min(Math.max(1, Math.floor(limit) || 1), this.activityCap);
    return (
      this.stmt(`SELECT ${ACTIVITY.list} FROM activity_log ORDER BY id DESC LIMIT ?`).all(cap) as Raw[]
    ).map(ACTIVITY.read);
  }

  activityCount(): number {
    this.flushActivity();
    return (this.stmt('SELECT COUNT(*) AS c FROM activity_log').get() as { c: number }).c;
  }
}
