/**
 * Failed WebSub deliveries tried again from the store, not from memory (issue 31: the content of
 * a delivery that failed once never arrived after a restart, kill -9 or a plain SIGTERM). The
 * fan-out writes each retry in the transaction that records the failure (RetryStore, SQLite's
 * delivery_retries); this runner wakes when the next one is due, by the cloud's clock, delivers
 * what is due, and the outcomes settle the rows in their own transaction (a failure that has
 * tries left is written back for its next one). A process that dies mid-retry leaves the rows in
 * place, and the next start delivers them: a subscriber hears of a content twice only if it
 * answered 2xx just before the process died.
 *
 * A cloud on PostgreSQL keeps its retries in the shared queue instead (queue.ts: chunks that may be
 * claimed once due), so whichever instance is alive delivers them.
 */
import type { Clock } from '../../common/clock.ts';
import type { DueRetry, RetryStore } from '../store/store.ts';
import { EarliestWake } from './earliest-wake.ts';

/** Retries taken from the store at a time. */
const TAKE = 1000;

export interface RetryRunnerDeps {
  store: RetryStore;
  clock: Clock;
  /** Delivers one group of due retries; its outcomes settle them (core.ts). */
  deliver(due: DueRetry): Promise<unknown>;
  /** Tracks work so the cloud's idle() and close() wait for it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Told when the store could not be read (its database away); the next wake tries again. */
  failed(e: unknown): void;
}

export class RetryRunner {
  private readonly deps: RetryRunnerDeps;
  private readonly wake: EarliestWake;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(deps: RetryRunnerDeps) {
    this.deps = deps;
    this.wake = new EarliestWake(deps.clock, () => void this.deps.track(this.run()));
  }

  /** Wakes for the first retry the store holds (those a previous process left included). */
  start(): void {
    void this.deps.track(this.armForNext());
  }

  /** A retry was written for `dueAt`: wake then, unless already waking sooner. */
  kept(dueAt: number): void {
    this.wake.at(dueAt);
  }

  /** No more wakes; what is due stays in the store for the next start. */
  stop(): void {
    this.stopped = true;
    this.wake.stop();
  }

  private async armForNext(): Promise<void> {
    try {
      const at = await this.deps.store.nextRetryAt();
      if (at !== null) this.kept(at);
    } catch (e) {
      this.deps.failed(e);
    }
  }

  /** Delivers what is due, then waits for the next; one run at a time. */
  private run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          for (;;) {
            if (this.stopped) return;
            const due = await this.deps.store.dueRetries(this.deps.clock.now(), TAKE);
            if (due.length === 0) break;
            for (const group of due) if (!this.stopped) await this.deps.deliver(group);
          }
        } while (this.again);
      } catch (e) {
        this.deps.failed(e);
      } finally {
        this.running = null;
      }
      if (!this.stopped) await this.armForNext();
    })();
    return this.running;
  }
}
