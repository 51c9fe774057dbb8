/**
 * The statements a cloud runs at once on PostgreSQL, shared by its instances. PostgreSQL runs
 * only as many statements at once as it has cores; the rest wait anyway, and where they wait
 * matters: queued in an instance they cost nothing, running in a backend they are one more
 * process for the cores to switch between, holding locks and buffers while it is switched out.
 * Each instance holding 8 connections, three instances ran 24 backends on 2 cores, and
 * bench:cluster's PostgreSQL spent about 1.9 ms a ping where one instance (8 backends) spent
 * 1.6; three held to 3 each spent about the same as one.
 *
 * So the cloud has one budget (`budget` statements at once, default 8) and each instance takes
 * its share: the budget divided by the instances connected now (rounded up), counted every
 * 5 s (PgStoreOptions.shareEveryMs) from pg_stat_activity, where each instance's connections carry its own
 * application_name (`tidings-cloud <pid>-<id>`). One instance alone keeps the whole budget, and
 * its pool holds that many connections (store/pg.ts). `tidings cloud --database-statements` sets
 * the budget.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/** Every instance's connections are named `${APP_PREFIX} <id>`, so they can be counted. */
export const APP_PREFIX = 'tidings-cloud';

/** A fresh application_name for one instance's connections. */
export function instanceAppName(): string {
  return `${APP_PREFIX} ${process.pid}-${randomUUID().slice(0, 8)}`;
}

/** Statements the whole cloud runs at once by default (see the module comment). */
export const DEFAULT_CLOUD_STATEMENTS = 8;

/** This instance's share of `budget` when `instances` are connected (at least one statement). */
export function shareOf(budget: number, instances: number): number {
  return Math.max(1, Math.ceil(budget / Math.max(1, instances)));
}

/**
 * At most `limit` statements under way at once; the rest wait their turn in order. The limit may
 * change at any time: a lower one is reached as statements end, a higher one lets waiters go.
 */
export class StatementGate {
  private limit: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  get current(): number {
    return this.limit;
  }

  /** Statements under way, those waiting their turn, and those that failed so far (/metrics). */
  stats(): { running: number; waiting: number; failed: number } {
    return { running: this.running, waiting: this.waiting.length, failed: this.failed };
  }
  private failed = 0;

  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    while (this.running < this.limit && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) {
      this.running++;
      return this.settle(fn);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => void this.settle(fn).then(resolve, reject));
    });
  }

  private async settle<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      this.failed++;
      throw e;
    } finally {
      // The slot passes straight to the next waiter (no newcomer can take it in between),
      // unless the limit came down meanwhile.
      const next = this.running <= this.limit ? this.waiting.shift() : undefined;
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Puts the pool's one-statement queries (`pool.query`, what every ping, claim and settle runs)
 * behind `gate`. Transactions (`pool.connect()`: migrations, the sweep) are few and not gated.
 */
export function gatePool(pool: Pool, gate: StatementGate): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) =>
    typeof args.at(-1) === 'function'
      ? query(...args) // the callback form: not used by the cloud, left as it was
      : gate.run(() => query(...args) as Promise<unknown>)) as Pool['query'];
}

/** Instances of this cloud connected now (distinct application names of its connections). */
export async function countInstances(pool: Pool): Promise<number> {
  const r = await pool.query<{ n: number }>(
    `SELECT count(DISTINCT application_name)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND application_name LIKE $1`,
    [`${APP_PREFIX} %`],
  );
  return r.rows[0]?.n ?? 1;
}
