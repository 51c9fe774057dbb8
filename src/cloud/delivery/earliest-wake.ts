/**
 * One timer set for the earliest of the times it is asked to wake at: a retry written for later
 * than the one already waited for changes nothing, one written for sooner moves the timer. Both
 * ways of keeping retries (retries.ts on SQLite, queue.ts's chunks on PostgreSQL) wake by it.
 */
import type { Clock, TimerHandle } from '../../common/clock.ts';

export class EarliestWake {
  private timer: TimerHandle | null = null;
  /** When the timer fires (Infinity: not set). */
  private due = Number.POSITIVE_INFINITY;
  private stopped = false;
  private readonly clock: Clock;
  private readonly wake: () => void;

  constructor(clock: Clock, wake: () => void) {
    this.clock = clock;
    this.wake = wake;
  }

  /** Wake at `at` (by the clock), unless already waking sooner or stopped. */
  at(at: number): void {
    if (this.stopped || at >= this.due) return;
    this.timer?.cancel();
    this.due = at;
    this.timer = this.clock.setTimer(Math.max(0, at - this.clock.now()), () => {
      this.timer = null;
      this.due = Number.POSITIVE_INFINITY;
      this.wake();
    });
  }

  /** No more wakes. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
  }
}
