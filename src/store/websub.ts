/**
 * The WebSub subscriptions table (schema step 2 in realtime.ts): one row per feed we read
 * through a hub. Lives beside cloud_subscriptions in the realtime database.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ensureRealtimeSchema, n, type Raw, s } from './realtime.ts';

export type WebSubStatus = 'pending' | 'live' | 'failed' | 'denied';

export interface WebSubRow {
  feedId: number;
  /** hub.topic: the feed's self URL as the hub knows it. */
  topic: string;
  hub: string;
  /** The unguessable last segment of the callback path (one per subscription). */
  callbackId: string;
  /** hub.secret (https callbacks only), null when none was given. */
  secret: string | null;
  /** The full callback URL last sent to the hub (null until asked). */
  callbackUrl: string | null;
  status: WebSubStatus;
  /** The hub's words, or ours. */
  message: string | null;
  /** The lease the hub granted (seconds). */
  leaseSeconds: number | null;
  leaseEndsAt: number | null;
  /** When the hub last verified a subscribe. */
  lastOkAt: number | null;
  lastAttemptAt: number | null;
  nextRenewalAt: number | null;
  failures: number;
  lastDeliveryAt: number | null;
}

const COLUMNS = `feed_id, topic, hub, callback_id, secret, callback_url, status, message, lease_seconds,
  lease_ends_at, last_ok_at, last_attempt_at, next_renewal_at, failures, last_delivery_at`;

function toRow(r: Raw): WebSubRow {
  return {
    feedId: r.feed_id as number,
    topic: r.topic as string,
    hub: r.hub as string,
    callbackId: r.callback_id as string,
    secret: s(r.secret),
    callbackUrl: s(r.callback_url),
    status: r.status as WebSubStatus,
    message: s(r.message),
    leaseSeconds: n(r.lease_seconds),
    leaseEndsAt: n(r.lease_ends_at),
    lastOkAt: n(r.last_ok_at),
    lastAttemptAt: n(r.last_attempt_at),
    nextRenewalAt: n(r.next_renewal_at),
    failures: (r.failures as number) ?? 0,
    lastDeliveryAt: n(r.last_delivery_at),
  };
}

export class WebSubStore {
  private readonly db: DatabaseSync;
  private readonly cache = new Map<string, StatementSync>();
  /** Rows by feed and by callback id: every delivery looks its callback up. */
  private readonly rows = new Map<number, WebSubRow>();
  private readonly byCallback = new Map<string, number>();

  constructor(db: DatabaseSync) {
    this.db = db;
    ensureRealtimeSchema(db);
    for (const r of this.stmt(`SELECT ${COLUMNS} FROM websub_subscriptions`).all() as Raw[]) {
      const row = Object.freeze(toRow(r));
      this.rows.set(row.feedId, row);
      this.byCallback.set(row.callbackId, row.feedId);
    }
  }

  private stmt(sql: string): StatementSync {
    let st = this.cache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.cache.set(sql, st);
    }
    return st;
  }

  get(feedId: number): WebSubRow | null {
    return this.rows.get(feedId) ?? null;
  }

  byCallbackId(callbackId: string): WebSubRow | null {
    const feedId = this.byCallback.get(callbackId);
    return feedId === undefined ? null : this.get(feedId);
  }

  list(): WebSubRow[] {
    return [...this.rows.values()].sort((a, b) => a.feedId - b.feedId);
  }

  /** Writes the whole row (one statement: never half-written). */
  put(row: WebSubRow): WebSubRow {
    const old = this.rows.get(row.feedId);
    if (old && old.callbackId !== row.callbackId) this.byCallback.delete(old.callbackId);
    this.stmt(
      `INSERT OR REPLACE INTO websub_subscriptions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      row.feedId,
      row.topic,
      row.hub,
      row.callbackId,
      row.secret,
      row.callbackUrl,
      row.status,
      row.message,
      row.leaseSeconds,
      row.leaseEndsAt,
      row.lastOkAt,
      row.lastAttemptAt,
      row.nextRenewalAt,
      row.failures,
      row.lastDeliveryAt,
    );
    const frozen = Object.freeze({ ...row });
    this.rows.set(row.feedId, frozen);
    this.byCallback.set(row.callbackId, row.feedId);
    return frozen;
  }

  delete(feedId: number): WebSubRow | null {
    const old = this.rows.get(feedId) ?? null;
    if (!old) return null;
    this.stmt('DELETE FROM websub_subscriptions WHERE feed_id = ?').run(feedId);
    this.rows.delete(feedId);
    this.byCallback.delete(old.callbackId);
    return old;
  }
}
