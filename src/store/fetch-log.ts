/**
 * The log of every fetch (issue 17): when, which feed, what came back (status, bytes on the wire,
 * new items, time taken, the error). It lives beside the store's tables in the same file, with its
 * own version table, as the realtime tables do. Entries wait in memory and are written together
 * (one commit per burst, not one more per fetch: an all-304 cycle at 10,000 feeds is mostly
 * commits), and the log keeps the newest `cap` entries.
 */
import type { DatabaseSync } from 'node:sqlite';
import { systemClock } from '../common/clock.ts';
import { createContext, type StoreContext } from './context.ts';
import { transaction } from './sqlite.ts';

export type FetchOutcome = 'ok' | 'notModified' | 'unchanged' | 'error' | 'parseError' | 'gone' | 'redirect';

export interface FetchLogRow {
  id: number;
  at: number;
  feedId: number;
  /** The address fetched, secrets masked. */
  url: string;
  outcome: FetchOutcome;
  /** The HTTP status; null when no answer came (DNS, refused, timeout). */
  status: number | null;
  /** Bytes on the wire; null when no body came. */
  bytes: number | null;
  newItems: number;
  ms: number;
  /** The readable reason of a failure; null when it went well. */
  message: string | null;
  ok: boolean;
}

const DEFAULT_CAP = 5_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS fetch_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  feed_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  outcome TEXT NOT NULL,
  status INTEGER,
  bytes INTEGER,
  new_items INTEGER NOT NULL,
  ms INTEGER NOT NULL,
  message TEXT,
  ok INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS fetch_log_feed ON fetch_log(feed_id, id);`;

type Raw = Record<string, unknown>;

function fromRaw(r: Raw): FetchLogRow {
  return {
    id: r.id as number,
    at: r.at as number,
    feedId: r.feed_id as number,
    url: r.url as string,
    outcome: r.outcome as FetchOutcome,
    status: (r.status as number | null) ?? null,
    bytes: (r.bytes as number | null) ?? null,
    newItems: r.new_items as number,
    ms: r.ms as number,
    message: (r.message as string | null) ?? null,
    ok: r.ok === 1,
  };
}

export class FetchLog {
  private readonly db: DatabaseSync;
  private readonly cap: number;
  /** The store's statement cache (prepared once each); the clock is not used here. */
  private readonly ctx: StoreContext;
  private pending: FetchLogRow[] = [];
  private nextId: number;
  private readonly lastOk = new Map<number, number>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(db: DatabaseSync, opts: { cap?: number } = {}) {
    this.db = db;
    this.cap = Math.max(1, Math.floor(opts.cap ?? DEFAULT_CAP));
    this.ctx = createContext(db, systemClock);
    db.exec(SCHEMA);
    this.nextId = (this.stmt('SELECT IFNULL(MAX(id), 0) AS m FROM fetch_log').get() as { m: number }).m + 1;
    for (const r of this.stmt(
      'SELECT feed_id, MAX(at) AS at FROM fetch_log WHERE ok = 1 GROUP BY feed_id',
    ).all() as Raw[])
      this.lastOk.set(r.feed_id as number, r.at as number);
  }

  private stmt(sql: string) {
    return this.ctx.stmt(sql);
  }

  record(entry: Omit<FetchLogRow, 'id'>): FetchLogRow {
    const row = { ...entry, id: this.nextId++ };
    this.pending.push(row);
    if (row.ok) this.lastOk.set(row.feedId, row.at);
    this.flushTimer ??= setTimeout(() => this.flush(), 200);
    this.flushTimer.unref?.();
    return row;
  }

  /** Newest first; one feed's only when feedId is given. */
  list(opts: { feedId?: number | null; limit?: number } = {}): FetchLogRow[] {
    this.flush();
    const limit = Math.min(Math.max(1, Math.floor(opts.limit ?? 100) || 1), this.cap);
    const rows =
      opts.feedId == null
        ? this.stmt('SELECT * FROM fetch_log ORDER BY id DESC LIMIT ?').all(limit)
        : this.stmt('SELECT * FROM fetch_log WHERE feed_id = ? ORDER BY id DESC LIMIT ?').all(
            opts.feedId,
            limit,
          );
    return (rows as Raw[]).map(fromRaw);
  }

  /** When the feed was last fetched without a failure (null: never, as far as the log knows). */
  lastSuccess(feedId: number): number | null {
    return this.lastOk.get(feedId) ?? null;
  }

  /**
   * A removed subscription's entries go with it, and are handed back: an Undo of the unsubscribe
   * puts them back (putBack), so the feed returns with its history.
   */
  take(feedId: number): FetchLogRow[] {
    this.flush();
    this.lastOk.delete(feedId);
    if (!this.db.isOpen) return [];
    const rows = (
      this.stmt('SELECT * FROM fetch_log WHERE feed_id = ? ORDER BY id').all(feedId) as Raw[]
    ).map(fromRaw);
    this.stmt('DELETE FROM fetch_log WHERE feed_id = ?').run(feedId);
    return rows;
  }

  /** Entries taken with take(), back under their own ids (the newest `cap` are still all that is kept). */
  putBack(rows: readonly FetchLogRow[]): void {
    for (const r of rows) if (r.ok) this.lastOk.set(r.feedId, Math.max(this.lastOk.get(r.feedId) ?? 0, r.at));
    this.write(rows);
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const rows = this.pending;
    this.pending = [];
    this.write(rows);
  }

  private write(rows: readonly FetchLogRow[]): void {
    if (rows.length === 0 || !this.db.isOpen) return;
    transaction(this.db, () => {
      const insert = this.stmt(
        `INSERT INTO fetch_log (id, at, feed_id, url, outcome, status, bytes, new_items, ms, message, ok)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of rows)
        insert.run(
          r.id,
          r.at,
          r.feedId,
          r.url,
          r.outcome,
          r.status,
          r.bytes,
          r.newItems,
          r.ms,
          r.message,
          r.ok ? 1 : 0,
        );
      const last = this.nextId - 1;
      if (last > this.cap) this.stmt('DELETE FROM fetch_log WHERE id <= ?').run(last - this.cap);
    });
  }
}
