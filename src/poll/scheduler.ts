/**
 * Runs feeds when they are due, a few at a time, politely per host.
 *
 * Contract with the app:
 * - The scheduler never fetches or parses: it calls `run(feedId)`, which the app supplies.
 * - It never decides WHEN a feed is due either (that is `nextDue` in due.ts). Each run consumes the
 *   feed's due time; inside `run` the app calls `schedule(feedId, nextDue(...).at)` to set the next
 *   one. A feed whose run does not call `schedule` is not polled again until something does (or
 *   `fetchNow`).
 * - `run` rejections are swallowed: the app records errors itself (and backs off through
 *   `nextDue`). A failing run never stops the scheduler.
 * - `fetchNow` is the one "fetch now" entry point (user refresh, rssCloud notifications). A feed
 *   already queued is not queued twice; a feed already running gets ONE follow-up run after it
 *   finishes, however many notifications arrive meanwhile (content may have changed mid-fetch).
 *   A fetch the person asked for (`{ asked: true }`: Retry now, Refresh) reaches `run` marked so:
 *   its failure must not count against the feed's back-off (src/poll/due.ts, plannedAfterAsked).
 *
 * Time comes from the injected Clock: with ManualClock, advancing time starts the due runs
 * synchronously (each `run` is called during `advance`).
 */
import type { Clock, TimerHandle } from '../common/clock.ts';

/** Why a run happens: `asked` when the person asked for it (Retry now, Refresh), not a due time or a notification. */
export interface RunReason {
  asked: boolean;
}

export interface SchedulerOptions {
  clock: Clock;
  run: (feedId: number, why: RunReason) => Promise<void>;
  /** Host name of the feed's URL: runs to one host are limited to `perHostConcurrency`. */
  hostOf: (feedId: number) => string;
  /** Runs at once overall (default 8). */
  globalConcurrency?: number;
  /** Runs at once per host (default 2). */
  perHostConcurrency?: number;
  onProgress?: (p: { active: number; queued: number }) => void;
}

interface QueueEntry {
  feedId: number;
  /** Due time: the queue is FIFO by it (ties by arrival). */
  at: number;
  seq: number;
  host: string;
}

/** (at, seq) order: the due time first, then arrival. */
const before = (a: { at: number; seq: number }, b: { at: number; seq: number }) =>
  a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * A host whose head entry may start: the heap below orders hosts by their head (at, seq). Kept
 * lazily: an entry whose host has since started that head, or filled its slots, is dropped when
 * it comes up.
 */
interface ReadyHost {
  host: string;
  at: number;
  seq: number;
}

/** A binary min-heap of ready hosts by their head's (at, seq). */
class ReadyHeap {
  private readonly items: ReadyHost[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: ReadyHost): void {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!before(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): ReadyHost | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

/**
 * The timer never sleeps longer than this: after a laptop wakes, monotonic timers fire late, so a
 * regular wake-up bounds how late overdue feeds start. Also keeps under setTimeout's 24.8-day limit.
 */
const MAX_SLEEP_MS = 5 * 60_000;

export class Scheduler {
  private readonly clock: Clock;
  private readonly runFeed: (feedId: number, why: RunReason) => Promise<void>;
  private readonly hostOf: (feedId: number) => string;
  private readonly globalLimit: number;
  private readonly hostLimit: number;
  private readonly onProgress: ((p: { active: number; queued: number }) => void) | undefined;

  /** Future (or not yet promoted) due times. */
  private readonly due = new Map<number, number>();
  /**
   * Waiting for a free slot: one list per host, each sorted by (at, seq), and a heap of the hosts
   * that have a free slot by their first entry. Starting the next run looks at one host, not at
   * every waiting feed: with one list for all, a few busy hosts (two feeds each at a time) made
   * each start skip over thousands of their waiting feeds.
   */
  private readonly waiting = new Map<string, QueueEntry[]>();
  private readonly ready = new ReadyHeap();
  private readonly queued = new Set<number>();
  /** feedId -> host, for the runs in flight. */
  private readonly running = new Map<number, string>();
  private readonly perHost = new Map<string, number>();
  private readonly followUps = new Set<number>();
  /** The person asked for the feed's next run (queued, or a follow-up of the one running). */
  private readonly asked = new Set<number>();
  /** Removed while running: ignore its schedule()/fetchNow() until that run ends. */
  private readonly removedWhileRunning = new Set<number>();

  private started = false;
  private timer: TimerHandle | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  /**
   * A lower bound of the due times of feeds not running (exact after each scan). Every run ends
   * with a schedule(), so scanning all due times on each one cost O(feeds) per run, O(feeds^2)
   * per cycle (bench:poll at 10,000 feeds); now `due` is scanned only once something is due.
   */
  private minDue = Number.POSITIVE_INFINITY;
  private seq = 0;
  private dispatching = false;
  private dispatchAgain = false;
  private lastProgress = { active: 0, queued: 0 };
  private waiters: { kind: 'idle' | 'stop'; resolve: () => void }[] = [];

  constructor(opts: SchedulerOptions) {
    this.clock = opts.clock;
    this.runFeed = opts.run;
    this.hostOf = opts.hostOf;
    this.globalLimit = Math.max(1, Math.floor(opts.globalConcurrency ?? 8));
    this.hostLimit = Math.max(1, Math.floor(opts.perHostConcurrency ?? 2));
    this.onProgress = opts.onProgress;
  }

  /** Sets (or replaces) when the feed is next due; a time already past queues it at once. */
  schedule(feedId: number, at: number): void {
    if (this.removedWhileRunning.has(feedId)) return;
    this.due.set(feedId, at);
    if (!this.running.has(feedId)) this.minDue = Math.min(this.minDue, at);
    this.wake();
  }

  /** A removed feed is back (undo of an unsubscribe): due at `at`, even if its old run is still going. */
  restore(feedId: number, at: number): void {
    this.removedWhileRunning.delete(feedId);
    this.schedule(feedId, at);
  }

  /**
   * The one "fetch now" entry point: queue now, or one follow-up if running, or nothing if queued.
   * `asked`: the person asked (the next run of this feed is theirs, even when it was queued already).
   */
  fetchNow(feedId: number, opts: { asked?: boolean } = {}): void {
    if (this.removedWhileRunning.has(feedId)) return;
    if (opts.asked) this.asked.add(feedId);
    if (this.running.has(feedId)) {
      this.followUps.add(feedId);
      return;
    }
    if (this.queued.has(feedId)) return;
    this.enqueue(feedId, this.clock.now());
    this.dispatch();
  }

  /** Forgets the feed: no future runs. A run in flight finishes, without a follow-up. */
  remove(feedId: number): void {
    this.due.delete(feedId);
    this.followUps.delete(feedId);
    this.asked.delete(feedId);
    if (this.queued.delete(feedId)) this.unqueue(feedId);
    if (this.running.has(feedId)) this.removedWhileRunning.add(feedId);
    this.arm();
    this.dispatch();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.wake();
  }

  /** Stops starting runs (queued ones stay queued) and resolves once the runs in flight end. */
  stop(): Promise<void> {
    this.started = false;
    this.cancelTimer();
    this.settle(); // idle() waiters no longer wait for the queue
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ kind: 'stop', resolve }));
  }

  /** Resolves when nothing is running and nothing is queued (or queued but stopped). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ kind: 'idle', resolve }));
  }

  stats(): { active: number; queued: number } {
    return { active: this.running.size, queued: this.queued.size };
  }

  isRunning(feedId: number): boolean {
    return this.running.has(feedId);
  }

  /** Promotes due feeds to the queue, re-arms the timer, starts what the limits allow. */
  private wake(): void {
    if (this.started) this.promoteDue();
    this.arm();
    this.dispatch();
  }

  private promoteDue(): void {
    const now = this.clock.now();
    if (now < this.minDue) return; // nothing is due yet
    const ready: [number, number][] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [feedId, at] of this.due) {
      // A running feed keeps its due time until the run ends (the run will usually replace it).
      if (this.running.has(feedId)) continue;
      if (at <= now) ready.push([feedId, at]);
      else if (at < next) next = at;
    }
    this.minDue = next;
    for (const [feedId, at] of ready) {
      this.due.delete(feedId);
      if (!this.queued.has(feedId)) this.enqueue(feedId, at);
    }
  }

  private arm(): void {
    if (!this.started) {
      this.cancelTimer();
      return;
    }
    const next = this.minDue;
    if (next === Number.POSITIVE_INFINITY) {
      this.cancelTimer();
      return;
    }
    const now = this.clock.now();
    const wakeAt = Math.min(next, now + MAX_SLEEP_MS);
    if (this.timer && this.timerAt === wakeAt) return;
    this.cancelTimer();
    this.timerAt = wakeAt;
    this.timer = this.clock.setTimer(wakeAt - now, () => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.wake();
    });
  }

  private cancelTimer(): void {
    this.timer?.cancel();
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private enqueue(feedId: number, at: number): void {
    let host = '';
    try {
      host = this.hostOf(feedId);
    } catch {
      // An unknown host still runs, under the shared '' host.
    }
    const entry: QueueEntry = { feedId, at, seq: this.seq++, host };
    let list = this.waiting.get(host);
    if (!list) {
      list = [];
      this.waiting.set(host, list);
    }
    // Binary search for the insertion point: after every entry with at <= this one (seq grows).
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, entry);
    this.queued.add(feedId);
    if (lo === 0) this.offer(host);
    this.progress();
  }

  /** The host's first entry, if it has one and a free slot, may start: into the heap with it. */
  private offer(host: string): void {
    const head = this.waiting.get(host)?.[0];
    if (head && (this.perHost.get(host) ?? 0) < this.hostLimit)
      this.ready.push({ host, at: head.at, seq: head.seq });
  }

  private unqueue(feedId: number): void {
    for (const [host, list] of this.waiting) {
      const i = list.findIndex((e) => e.feedId === feedId);
      if (i < 0) continue;
      list.splice(i, 1);
      if (list.length === 0) this.waiting.delete(host);
      else if (i === 0) this.offer(host);
      return;
    }
  }

  /** Starts queued runs, oldest due first, skipping (not blocking on) hosts at their limit. */
  private dispatch(): void {
    if (this.dispatching) {
      // Called from inside a `run` that synchronously scheduled or fetched: loop once more.
      this.dispatchAgain = true;
      return;
    }
    this.dispatching = true;
    try {
      do {
        this.dispatchAgain = false;
        if (!this.started) break;
        while (this.running.size < this.globalLimit && this.ready.size > 0) {
          const { host, seq } = this.ready.pop()!;
          const list = this.waiting.get(host);
          // Stale: that head started already (or left), or the host filled its slots since.
          if (list?.[0]?.seq !== seq || (this.perHost.get(host) ?? 0) >= this.hostLimit) continue;
          const entry = list.shift()!;
          if (list.length === 0) this.waiting.delete(host);
          this.queued.delete(entry.feedId);
          this.begin(entry);
          this.offer(host);
        }
      } while (this.dispatchAgain);
    } finally {
      this.dispatching = false;
    }
    this.progress();
    this.settle();
  }

  private begin(entry: QueueEntry): void {
    const { feedId, host } = entry;
    this.due.delete(feedId); // this run consumes the due time; the app sets the next one
    this.running.set(feedId, host);
    this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
    const why: RunReason = { asked: this.asked.delete(feedId) };
    let result: Promise<void>;
    try {
      const run = this.runFeed; // called unbound: `this` is not the app's business
      result = Promise.resolve(run(feedId, why));
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      () => this.finish(feedId, host),
      () => this.finish(feedId, host), // the app records its own errors
    );
  }

  private finish(feedId: number, host: string): void {
    this.running.delete(feedId);
    const dueAt = this.due.get(feedId);
    if (dueAt !== undefined) this.minDue = Math.min(this.minDue, dueAt);
    const left = (this.perHost.get(host) ?? 1) - 1;
    if (left > 0) this.perHost.set(host, left);
    else this.perHost.delete(host);
    if (left === this.hostLimit - 1) this.offer(host); // a slot freed: its first waiting feed may go
    const removed = this.removedWhileRunning.delete(feedId);
    if (this.followUps.delete(feedId) && !removed && !this.queued.has(feedId)) {
      this.enqueue(feedId, this.clock.now());
    }
    this.wake();
  }

  private isIdle(): boolean {
    return this.running.size === 0 && (this.queued.size === 0 || !this.started);
  }

  private progress(): void {
    const p = this.stats();
    if (p.active === this.lastProgress.active && p.queued === this.lastProgress.queued) return;
    this.lastProgress = p;
    this.onProgress?.(p);
  }

  /** Resolves idle() and stop() waiters whose condition now holds. */
  private settle(): void {
    if (this.waiters.length === 0) return;
    const idle = this.isIdle();
    const stopped = this.running.size === 0;
    const keep: typeof this.waiters = [];
    for (const w of this.waiters) {
      if ((w.kind === 'idle' && idle) || (w.kind === 'stop' && stopped)) w.resolve();
      else keep.push(w);
    }
    this.waiters = keep;
  }
}
