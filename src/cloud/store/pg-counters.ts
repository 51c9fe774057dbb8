/**
 * The cloud's counters on PostgreSQL, added up in memory and written every `everyMs` in one
 * statement. A counter is one row that every ping, change and delivery of every instance adds
 * to: one UPDATE each was three round trips a ping and a row lock the instances queued on.
 * A read (the status page, counters()) writes what this instance holds first, so an instance
 * reads its own counts exactly and another instance's as of that one's last write (at most
 * `everyMs` behind). close() writes the rest; an instance killed with SIGKILL loses what it
 * held (at most `everyMs` of counts, never a delivery).
 */
import type { Pool } from 'pg';
import type { CounterName } from './store.ts';

export class PgCounterBuffer {
  private readonly pool: () => Promise<Pool>;
  private readonly everyMs: number;
  private held = new Map<CounterName, number>();
  private timer: NodeJS.Timeout | null = null;
  /** The write under way; the next waits for it (counts are added once, in order). */
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(pool: () => Promise<Pool>, everyMs = 200) {
    this.pool = pool;
    this.everyMs = everyMs;
  }

  add(name: CounterName, by: number): void {
    this.held.set(name, (this.held.get(name) ?? 0) + by);
    if (!this.timer && !this.closed) {
      this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.everyMs);
      this.timer.unref?.();
    }
  }

  /** Writes what is held; rejects when the database could not take it (kept for the next write). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.writing.catch(() => undefined).then(() => this.write());
    this.writing = next;
    return next;
  }

  /** Writes what is held, then takes no more timers (the pool is about to end). */
  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async write(): Promise<void> {
    if (this.held.size === 0) return;
    const batch = this.held;
    this.held = new Map();
    // Names in one order, so two instances writing at once lock the rows in the same order.
    const names = [...batch.keys()].sort();
    try {
      const pool = await this.pool();
      await pool.query(
        `INSERT INTO counters (name, value) SELECT * FROM unnest($1::text[], $2::bigint[])
        ON CONFLICT (name) DO UPDATE SET value = counters.value + excluded.value`,
        [names, names.map((n) => batch.get(n)!)],
      );
    } catch (e) {
      // Kept, added to whatever came meanwhile, for the next write.
      for (const [n, v] of batch) this.add(n, v);
      throw e;
    }
  }
}
