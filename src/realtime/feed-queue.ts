/**
 * Requests to clouds and hubs, a few at a time and one per feed at most: a feed asked for again
 * while its request runs gets one follow-up after it (never two at once, never lost). Both
 * subscription managers (rssCloud and WebSub) run their requests through one of these.
 */
import type { Clock, TimerHandle } from '../common/clock.ts';

export class FeedQueue {
  private readonly run: (feedId: number) => Promise<void>;
  private readonly concurrency: number;
  private readonly inFlight = new Set<number>();
  private readonly again = new Set<number>();
  private readonly waiting: number[] = [];
  private readonly queued = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private open = false;

  constructor(run: (feedId: number) => Promise<void>, concurrency = 4) {
    this.run = run;
    this.concurrency = Math.max(1, concurrency);
  }

  start(): void {
    this.open = true;
  }

  /** Drops what waits; resolves when what runs has ended. */
  async stop(): Promise<void> {
    this.open = false;
    this.waiting.length = 0;
    this.queued.clear();
    await Promise.allSettled([...this.running]);
  }

  enqueue(feedId: number): void {
    if (!this.open) return;
    if (this.inFlight.has(feedId)) {
      this.again.add(feedId);
      return;
    }
    if (this.queued.has(feedId)) return;
    this.queued.add(feedId);
    this.waiting.push(feedId);
    this.pump();
  }

  /** Runs the feed's request once more after the one in flight (something changed meanwhile). */
  rerun(feedId: number): void {
    this.again.add(feedId);
  }

  isRunning(feedId: number): boolean {
    return this.inFlight.has(feedId);
  }

  isQueued(feedId: number): boolean {
    return this.queued.has(feedId);
  }

  /** Another job to wait for on stop() and idle() (an unsubscribe). */
  track(job: Promise<void>): void {
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }

  /** Resolves when nothing waits or runs (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.waiting.length > 0) await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (this.open && this.inFlight.size < this.concurrency && this.waiting.length > 0) {
      const feedId = this.waiting.shift()!;
      this.queued.delete(feedId);
      if (this.inFlight.has(feedId)) {
        this.again.add(feedId);
        continue;
      }
      this.inFlight.add(feedId);
      const job = this.run(feedId).finally(() => {
        this.inFlight.delete(feedId);
        this.running.delete(job);
        if (this.again.delete(feedId)) this.enqueue(feedId);
        this.pump();
      });
      this.running.add(job);
    }
  }
}

/** Each feed's renewal timer and lapse timer (both managers keep the pair). */
export class FeedTimers {
  private readonly renewal = new Map<number, TimerHandle>();
  private readonly lapse = new Map<number, TimerHandle>();
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Sets the feed's renewal (or lapse) timer, replacing the one it had; runs `fn` at `at`. */
  set(kind: 'renewal' | 'lapse', feedId: number, at: number, fn: () => void): void {
    const map = kind === 'renewal' ? this.renewal : this.lapse;
    map.get(feedId)?.cancel();
    map.set(
      feedId,
      this.clock.setTimer(Math.max(0, at - this.clock.now()), () => {
        map.delete(feedId);
        fn();
      }),
    );
  }

  cancel(feedId: number): void {
    for (const map of [this.renewal, this.lapse]) {
      map.get(feedId)?.cancel();
      map.delete(feedId);
    }
  }

  clear(): void {
    for (const map of [this.renewal, this.lapse]) {
      for (const t of map.values()) t.cancel();
      map.clear();
    }
  }
}
