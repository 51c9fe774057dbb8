/**
 * The outbox's clock-work: runs due tasks from publish.db in batches (saves one by one, since
 * each renders the whole site; pings in parallel), sleeps until the next one falls due, and looks
 * again every few seconds for tasks another process on the same data folder added. Leases held
 * by processes that died (kill -9) are released before each batch. What a task does is the
 * publisher's: this only decides when, and how many requests: pings due at the same moment that
 * say the same thing (one sink, one feed, "this feed changed") go out as one request, whose answer
 * settles them all. So a burst of posts, or saves re-run after a kill -9, ping a sink once per
 * feed. Fat pings (RSS Ping) carry their post and are never merged.
 */
import type { Clock, TimerHandle } from '../common/clock.ts';
import { pidAlive } from '../common/process.ts';
import type { PublishStore, TaskRow } from './publish-store.ts';

export interface OutboxRunnerDeps {
  store: PublishStore;
  clock: Clock;
  run(task: TaskRow): Promise<void>;
  leaseMs?: number;
  pollMs?: number;
  handles?: (task: TaskRow) => boolean;
  /** Tasks settled by another's request (merged pings): their posts' views changed too. */
  onCovered?: (taskIds: number[]) => void;
  /** Called before each look at the outbox (the publisher notices a new public address). */
  onTick?: () => void;
}

const BATCH = 16;

export class OutboxRunner {
  private readonly deps: OutboxRunnerDeps;
  private timer: TimerHandle | null = null;
  private running = false;
  private ticking = false;
  private again = false;
  private inFlight = new Set<Promise<void>>();

  constructor(deps: OutboxRunnerDeps) {
    this.deps = deps;
  }

  start(): void {
    this.running = true;
    this.kick();
  }

  /** Stops planning; waits for the batch in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.timer?.cancel();
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Runs due tasks now (and again as they fall due). */
  kick(): void {
    if (!this.running) return;
    this.timer?.cancel();
    this.timer = this.deps.clock.setTimer(0, () => void this.tick());
  }

  /** For the CLI: runs the tasks this runner handles until none is due before the deadline. */
  async drain(deadlineMs: number): Promise<void> {
    const until = this.deps.clock.now() + deadlineMs;
    for (;;) {
      if ((await this.runBatch()) > 0) continue;
      const next = this.deps.store.nextDueAt(this.deps.handles);
      if (next === null || next > until) return;
      await new Promise((r) => setTimeout(r, Math.max(10, next - this.deps.clock.now())));
    }
  }

  private async tick(): Promise<void> {
    if (this.ticking) {
      this.again = true; // a kick while a batch runs: look again right after it
      return;
    }
    this.ticking = true;
    const work = (async () => {
      try {
        this.deps.onTick?.();
        do {
          this.again = false;
          while (this.running && (await this.runBatch()) > 0) {}
        } while (this.again && this.running);
      } finally {
        this.ticking = false;
      }
    })();
    this.inFlight.add(work);
    await work.finally(() => this.inFlight.delete(work));
    if (!this.running) return;
    const now = this.deps.clock.now();
    const next = this.deps.store.nextDueAt();
    const poll = this.deps.pollMs ?? 5_000;
    const at = next === null ? now + poll : Math.min(Math.max(next, now), now + poll);
    this.timer?.cancel();
    this.timer = this.deps.clock.setTimer(at - now, () => void this.tick());
  }

  private async runBatch(): Promise<number> {
    const { store, clock } = this.deps;
    if (!store.db.isOpen) return 0;
    store.releaseDeadLeases(clock.now(), pidAlive);
    const leaseMs = this.deps.leaseMs ?? 60_000;
    const tasks = store.claimDue(clock.now(), leaseMs, BATCH, this.deps.handles);
    for (const t of tasks.filter((t) => t.kind === 'save')) await this.deps.run(t);
    const pings = new Map<string, { ping: TaskRow; covered: number[] }>();
    for (const t of tasks.filter((t) => t.kind === 'ping')) {
      const key = mergeable(t) ? `${t.target}\n${t.endpoint}\n${t.url}` : `#${t.id}`;
      const seen = pings.get(key);
      if (seen) seen.covered.push(t.id);
      else pings.set(key, { ping: t, covered: [] });
    }
    await Promise.all(
      [...pings.values()].map(async ({ ping, covered }) => {
        if (mergeable(ping)) covered.push(...store.leaseSamePings(ping, clock.now(), leaseMs));
        await this.deps.run(ping);
        if (!store.db.isOpen || covered.length === 0) return;
        store.settleLike(ping.id, covered);
        this.deps.onCovered?.(covered);
      }),
    );
    return tasks.length;
  }
}

/** A ping that only says "this feed changed" (a fat ping carries its post: never merged). */
function mergeable(ping: TaskRow): boolean {
  return ping.target !== 'rssPing';
}
