import { describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { Scheduler } from './scheduler.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Lets settled promises run their callbacks (a run finishing), without waiting on time. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A scheduler whose runs finish only when the test says so, counting what ran and how many
 * were in flight at once (overall and per host).
 */
function harness(
  opts: {
    hosts?: Record<number, string>;
    globalConcurrency?: number;
    perHostConcurrency?: number;
    /** Called at the start of each run (e.g. the app's schedule() call). */
    onRun?: (feedId: number, s: Scheduler, clock: ManualClock) => void;
    /** Feeds whose run throws synchronously / rejects. */
    throws?: number[];
    rejects?: number[];
  } = {},
) {
  const clock = new ManualClock('2026-01-07T10:00:00Z');
  const started: number[] = [];
  /** Whether each run was asked for by the person, in start order. */
  const asked: boolean[] = [];
  const pending: { feedId: number; resolve: () => void }[] = [];
  const hostActive = new Map<string, number>();
  const maxHostActive = new Map<string, number>();
  let active = 0;
  let maxActive = 0;
  const progress: { active: number; queued: number }[] = [];
  const hostOf = (id: number) => opts.hosts?.[id] ?? `host${id}.example`;

  const scheduler: Scheduler = new Scheduler({
    clock,
    hostOf,
    globalConcurrency: opts.globalConcurrency,
    perHostConcurrency: opts.perHostConcurrency,
    onProgress: (p) => progress.push(p),
    run: (feedId, why) => {
      started.push(feedId);
      asked.push(why.asked);
      opts.onRun?.(feedId, scheduler, clock);
      if (opts.throws?.includes(feedId)) throw new Error('sync boom');
      if (opts.rejects?.includes(feedId)) return Promise.reject(new Error('async boom'));
      const host = hostOf(feedId);
      active++;
      maxActive = Math.max(maxActive, active);
      const h = (hostActive.get(host) ?? 0) + 1;
      hostActive.set(host, h);
      maxHostActive.set(host, Math.max(maxHostActive.get(host) ?? 0, h));
      return new Promise<void>((resolve) => {
        pending.push({
          feedId,
          resolve: () => {
            active--;
            hostActive.set(host, hostActive.get(host)! - 1);
            resolve();
          },
        });
      });
    },
  });

  /** Finishes the oldest run in flight (of `feedId` if given) and lets the scheduler react. */
  async function finish(feedId?: number): Promise<void> {
    const i = feedId === undefined ? 0 : pending.findIndex((p) => p.feedId === feedId);
    if (i < 0 || pending.length === 0) throw new Error(`no run in flight for ${feedId}`);
    pending.splice(i, 1)[0]!.resolve();
    await flush();
  }
  async function finishAll(): Promise<void> {
    while (pending.length) await finish();
  }

  return {
    clock,
    scheduler,
    started,
    asked,
    pending,
    progress,
    finish,
    finishAll,
    maxActive: () => maxActive,
    maxHostActive,
  };
}

describe('Scheduler: due times', () => {
  it('runs a feed when the clock reaches its due time, not before', async () => {
    const h = harness();
    h.scheduler.schedule(1, h.clock.now() + HOUR);
    h.scheduler.start();
    h.clock.advance(HOUR - 1);
    expect(h.started).toEqual([]);
    h.clock.advance(1);
    expect(h.started).toEqual([1]);
    expect(h.scheduler.isRunning(1)).toBe(true);
    expect(h.scheduler.stats()).toEqual({ active: 1, queued: 0 });
    await h.finish(1);
    expect(h.scheduler.isRunning(1)).toBe(false);
    await h.scheduler.idle();
  });

  it('does nothing before start(); overdue feeds run at start', () => {
    const h = harness();
    h.scheduler.schedule(1, h.clock.now() - MIN);
    h.scheduler.schedule(2, h.clock.now() + MIN);
    h.clock.advance(2 * MIN);
    expect(h.started).toEqual([]);
    h.scheduler.start();
    expect(h.started).toEqual([1, 2]);
  });

  it('schedule() replaces the due time, sooner or later', () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.schedule(1, h.clock.now() + HOUR);
    h.scheduler.schedule(1, h.clock.now() + 30 * MIN);
    h.scheduler.schedule(2, h.clock.now() + 30 * MIN);
    h.scheduler.schedule(2, h.clock.now() + 90 * MIN);
    h.clock.advance(30 * MIN);
    expect(h.started).toEqual([1]);
    h.clock.advance(30 * MIN);
    expect(h.started).toEqual([1]); // feed 1's old time is gone
    h.clock.advance(30 * MIN);
    expect(h.started).toEqual([1, 2]);
  });

  it('does not reschedule by itself: the app calls schedule() inside run', async () => {
    const app = harness({ onRun: (id, s, clock) => s.schedule(id, clock.now() + HOUR) });
    const lazy = harness();
    for (const h of [app, lazy]) {
      h.scheduler.schedule(7, h.clock.now() + HOUR);
      h.scheduler.start();
      for (let i = 0; i < 3; i++) {
        h.clock.advance(HOUR);
        if (h.pending.length) await h.finish();
      }
    }
    expect(app.started).toEqual([7, 7, 7]);
    expect(lazy.started).toEqual([7]);
  });

  it('runs due feeds oldest due time first (FIFO)', async () => {
    const h = harness({ globalConcurrency: 1 });
    const now = h.clock.now();
    h.scheduler.schedule(3, now + 30 * MIN);
    h.scheduler.schedule(1, now + 10 * MIN);
    h.scheduler.schedule(2, now + 20 * MIN);
    h.scheduler.schedule(4, now + 40 * MIN);
    h.scheduler.start();
    h.clock.advance(HOUR); // all due while feed 1 holds the only slot
    expect(h.started).toEqual([1]);
    await h.finishAll();
    await h.finishAll();
    await h.finishAll();
    await h.finishAll();
    expect(h.started).toEqual([1, 2, 3, 4]);
  });

  it('orders overdue feeds found at start by due time, fetchNow after them', async () => {
    const h = harness({ globalConcurrency: 1 });
    const now = h.clock.now();
    h.scheduler.fetchNow(9);
    for (const [id, ago] of [
      [3, 10],
      [1, 30],
      [4, 5],
      [2, 20],
    ] as const)
      h.scheduler.schedule(id, now - ago * MIN);
    h.scheduler.start();
    for (let i = 0; i < 5; i++) await h.finishAll();
    expect(h.started).toEqual([1, 2, 3, 4, 9]);
  });

  it('a long sleep still wakes: a due time days away is reached', () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.schedule(1, h.clock.now() + 3 * 24 * HOUR);
    h.clock.advance(3 * 24 * HOUR - 1);
    expect(h.started).toEqual([]);
    expect(h.clock.pendingTimers()).toBe(1);
    h.clock.advance(1);
    expect(h.started).toEqual([1]);
  });
});

describe('Scheduler: concurrency limits', () => {
  it('respects the global limit', async () => {
    const h = harness({ globalConcurrency: 3, perHostConcurrency: 10 });
    h.scheduler.start();
    for (let id = 1; id <= 10; id++) h.scheduler.fetchNow(id);
    expect(h.started).toEqual([1, 2, 3]);
    expect(h.scheduler.stats()).toEqual({ active: 3, queued: 7 });
    await h.finish(2);
    expect(h.started).toEqual([1, 2, 3, 4]);
    await h.finishAll();
    await h.scheduler.idle();
    expect(h.started).toHaveLength(10);
    expect(h.maxActive()).toBe(3);
    expect(h.scheduler.stats()).toEqual({ active: 0, queued: 0 });
  });

  it('respects the per-host limit without blocking other hosts', async () => {
    const hosts: Record<number, string> = {};
    for (let id = 1; id <= 6; id++) hosts[id] = 'a.example';
    hosts[7] = 'b.example';
    hosts[8] = 'b.example';
    hosts[9] = 'b.example';
    hosts[10] = 'c.example';
    const h = harness({ hosts, globalConcurrency: 8, perHostConcurrency: 2 });
    h.scheduler.start();
    for (let id = 1; id <= 10; id++) h.scheduler.fetchNow(id);
    expect(h.started).toEqual([1, 2, 7, 8, 10]);
    await h.finish(7);
    expect(h.started).toEqual([1, 2, 7, 8, 10, 9]);
    await h.finishAll();
    await h.finishAll();
    await h.finishAll();
    await h.scheduler.idle();
    expect([...h.started].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(h.maxHostActive.get('a.example')).toBe(2);
    expect(h.maxHostActive.get('b.example')).toBe(2);
  });

  it('keeps both limits under a big due burst', async () => {
    const hosts: Record<number, string> = {};
    for (let id = 0; id < 200; id++) hosts[id] = `h${id % 5}.example`;
    const h = harness({ hosts, globalConcurrency: 8, perHostConcurrency: 2 });
    for (let id = 0; id < 200; id++) h.scheduler.schedule(id, h.clock.now() + (id % 17) * MIN);
    h.scheduler.start();
    h.clock.advance(HOUR);
    while (h.pending.length) await h.finishAll();
    await h.scheduler.idle();
    expect(new Set(h.started).size).toBe(200);
    expect(h.started).toHaveLength(200);
    expect(h.maxActive()).toBeLessThanOrEqual(8);
    for (const n of h.maxHostActive.values()) expect(n).toBeLessThanOrEqual(2);
    expect(h.maxActive()).toBe(8); // 5 hosts x 2 > 8: the global limit binds
  });
});

describe('Scheduler: fetchNow coalescing', () => {
  it('fetchNow while running gives exactly one follow-up run', async () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(1);
    expect(h.started).toEqual([1]);
    await h.finish(1);
    expect(h.started).toEqual([1, 1]);
    await h.finish(1);
    await h.scheduler.idle();
    expect(h.started).toEqual([1, 1]);
  });

  it('100 notifications during a run give one follow-up', async () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    for (let i = 0; i < 100; i++) h.scheduler.fetchNow(1);
    await h.finish(1);
    await h.finish(1);
    await h.scheduler.idle();
    expect(h.started).toEqual([1, 1]);
  });

  it('fetchNow on a queued feed does not queue it twice', async () => {
    const h = harness({ globalConcurrency: 1 });
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(2);
    h.scheduler.fetchNow(2);
    h.scheduler.schedule(2, h.clock.now()); // also due now: still one entry
    expect(h.scheduler.stats()).toEqual({ active: 1, queued: 1 });
    await h.finish(1);
    await h.finish(2);
    await h.scheduler.idle();
    expect(h.started).toEqual([1, 2]);
  });

  it('fetchNow runs a feed ahead of its due time', () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.schedule(1, h.clock.now() + HOUR);
    h.scheduler.fetchNow(1);
    expect(h.started).toEqual([1]);
  });
});

describe('Scheduler: remove, errors, stop, idle', () => {
  it('remove() stops future runs, queued or scheduled', async () => {
    const h = harness({ globalConcurrency: 1 });
    h.scheduler.start();
    h.scheduler.schedule(1, h.clock.now() + HOUR);
    h.scheduler.fetchNow(2);
    h.scheduler.fetchNow(3);
    h.scheduler.remove(1);
    h.scheduler.remove(3);
    expect(h.scheduler.stats()).toEqual({ active: 1, queued: 0 });
    h.clock.advance(2 * HOUR);
    await h.finish(2);
    await h.scheduler.idle();
    expect(h.started).toEqual([2]);
  });

  it('remove() during a run: the run ends, no follow-up, its own reschedule is ignored', async () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(1); // a follow-up was pending
    h.scheduler.remove(1);
    h.scheduler.schedule(1, h.clock.now() + MIN); // the app's run finishing
    h.scheduler.fetchNow(1);
    await h.finish(1);
    h.clock.advance(2 * HOUR);
    await h.scheduler.idle();
    expect(h.started).toEqual([1]);
    h.scheduler.schedule(1, h.clock.now() + MIN); // re-added later: works again
    h.clock.advance(MIN);
    expect(h.started).toEqual([1, 1]);
  });

  it('a throwing or rejecting run stops nothing', async () => {
    const h = harness({ throws: [1], rejects: [2] });
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(2);
    h.scheduler.fetchNow(3);
    await flush();
    expect(h.started).toEqual([1, 2, 3]);
    expect(h.scheduler.stats()).toEqual({ active: 1, queued: 0 });
    await h.finish(3);
    h.scheduler.schedule(1, h.clock.now() + MIN);
    h.scheduler.schedule(4, h.clock.now() + MIN);
    h.clock.advance(MIN);
    await h.finish(4);
    await h.scheduler.idle();
    expect(h.started).toEqual([1, 2, 3, 1, 4]);
  });

  it('stop() waits for running jobs and starts nothing new', async () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(2);
    h.scheduler.schedule(3, h.clock.now() + MIN);
    let stopped = false;
    const stopping = h.scheduler.stop().then(() => {
      stopped = true;
    });
    h.scheduler.fetchNow(4);
    h.clock.advance(HOUR);
    await h.finish(1);
    expect(stopped).toBe(false);
    await h.finish(2);
    await stopping;
    expect(stopped).toBe(true);
    expect(h.started).toEqual([1, 2]);
    expect(h.scheduler.stats()).toEqual({ active: 0, queued: 1 });
    expect(h.clock.pendingTimers()).toBe(0);
    await h.scheduler.idle(); // stopped: the queue no longer counts
    h.scheduler.start(); // resumes: the queued fetch and the overdue feed
    expect(h.started).toEqual([1, 2, 4, 3]);
  });

  it('idle() resolves at once when empty, else when the queue drains', async () => {
    const h = harness({ globalConcurrency: 1 });
    await h.scheduler.idle();
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(2);
    let idle = false;
    const waiting = h.scheduler.idle().then(() => {
      idle = true;
    });
    await h.finish(1);
    expect(idle).toBe(false);
    await h.finish(2);
    await waiting;
    expect(idle).toBe(true);
  });

  it('reports progress as active/queued change', async () => {
    const h = harness({ globalConcurrency: 1 });
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(2);
    await h.finish(1);
    await h.finish(2);
    expect(h.progress).toEqual([
      { active: 0, queued: 1 },
      { active: 1, queued: 0 },
      { active: 1, queued: 1 },
      { active: 1, queued: 0 },
      { active: 0, queued: 0 },
    ]);
  });

  it('a feed whose host cannot be told still runs', () => {
    const clock = new ManualClock();
    const ran: number[] = [];
    const s = new Scheduler({
      clock,
      hostOf: () => {
        throw new Error('no url');
      },
      run: async (id) => {
        ran.push(id);
      },
    });
    s.start();
    s.fetchNow(5);
    expect(ran).toEqual([5]);
  });
});

describe('Scheduler: runs the person asked for', () => {
  it('marks the run of a fetchNow({ asked }) as asked, and a due or notified run as not', async () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.schedule(1, h.clock.now() + MIN);
    h.clock.advance(MIN);
    h.scheduler.fetchNow(2);
    h.scheduler.fetchNow(3, { asked: true });
    expect(h.started).toEqual([1, 2, 3]);
    expect(h.asked).toEqual([false, false, true]);
    await h.finishAll();
  });

  it('an ask while the feed runs makes its one follow-up asked; the ask is used once', async () => {
    const h = harness();
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(1, { asked: true });
    h.scheduler.fetchNow(1);
    await h.finish(1);
    expect(h.started).toEqual([1, 1]);
    expect(h.asked).toEqual([false, true]);
    await h.finish(1);
    h.scheduler.fetchNow(1);
    expect(h.asked).toEqual([false, true, false]);
    await h.finishAll();
  });

  it('an ask for a feed already queued by its due time makes that run asked', async () => {
    const h = harness({ globalConcurrency: 1 });
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.schedule(2, h.clock.now());
    h.scheduler.fetchNow(2, { asked: true });
    await h.finish(1);
    expect(h.started).toEqual([1, 2]);
    expect(h.asked).toEqual([false, true]);
    await h.finishAll();
  });

  it('a removed feed forgets that it was asked for', async () => {
    const h = harness({ globalConcurrency: 1 });
    h.scheduler.start();
    h.scheduler.fetchNow(1);
    h.scheduler.fetchNow(2, { asked: true });
    h.scheduler.remove(2);
    h.scheduler.fetchNow(2);
    await h.finish(1);
    expect(h.started).toEqual([1, 2]);
    expect(h.asked).toEqual([false, false]);
    await h.finishAll();
  });
});
