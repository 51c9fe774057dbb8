/**
 * The WebSub subscriptions table (schema steps 2 and 3 in realtime.ts): one row per feed we read
 * through a hub. Lives beside cloud_subscriptions in the realtime database, and reads and writes
 * its rows through the same column tables (realtime-columns.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import { statementCache } from './context.ts';
import { ensureRealtimeSchema } from './realtime.ts';
import { columns, int, intOrNull, oneOf, type Raw, text, textOrNull } from './realtime-columns.ts';

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
  /**
   * When the subscription's next step runs: the renewal, the retry after a failure, or the end of
   * the wait for a verification. Null only for a row never asked yet (asked at once).
   */
  nextRenewalAt: number | null;
  failures: number;
  lastDeliveryAt: number | null;
  /**
   * Set while a subscribe we asked for waits for the hub's verification: until when we take it.
   * Kept in the row, not only in memory, so a verification arriving after a restart is accepted.
   */
  verifyUntil: number | null;
}

const ROW = columns<WebSubRow>({
  feedId: ['feed_id', int],
  topic: ['topic', text],
  hub: ['hub', text],
  callbackId: ['callback_id', text],
  secret: ['secret', textOrNull],
  callbackUrl: ['callback_url', textOrNull],
  status: ['status', oneOf<WebSubStatus>()],
  message: ['message', textOrNull],
  leaseSeconds: ['lease_seconds', intOrNull],
  leaseEndsAt: ['lease_ends_at', intOrNull],
  lastOkAt: ['last_ok_at', intOrNull],
  lastAttemptAt: ['last_attempt_at', intOrNull],
  nextRenewalAt: ['next_renewal_at', intOrNull],
  failures: ['failures', int],
  lastDeliveryAt: ['last_delivery_at', intOrNull],
  verifyUntil: ['verify_until', intOrNull],
});

export class WebSubStore {
  private readonly stmt: ReturnType<typeof statementCache>;
  /** Rows by feed and by callback id: every delivery looks its callback up. */
  private readonly rows = new Map<number, WebSubRow>();
  private readonly byCallback = new Map<string, number>();

  constructor(db: DatabaseSync) {
    ensureRealtimeSchema(db);
    this.stmt = statementCache(db);
    for (const r of this.stmt(`SELECT ${ROW.list} FROM websub_subscriptions`).all() as Raw[]) {
      const row = Object.freeze(ROW.read(r));
      this.rows.set(row.feedId, row);
      this.byCallback.set(row.callbackId, row.feedId);
    }
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
    this.stmt(`INSERT OR REPLACE INTO websub_subscriptions (${ROW.list}) VALUES (${ROW.params})`).run(
      ...ROW.values(row),
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
