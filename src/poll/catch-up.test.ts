/** Which feeds a restart catches up, in what order, how spread out, and skipped when read since. */
import { expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { CATCH_UP_WINDOW_MS, type CatchUpFeed, planCatchUp, startCatchUp } from './catch-up.ts';

const NET = 'real-time; safety net every 6 h';
const feed = (id: number, over: Partial<CatchUpFeed> = {}): CatchUpFeed => ({
  id,
  status: 'ok',
  dueReason: NET,
  lastFetchedAt: 1_000 + id,
  ...over,
});

it('catches up the feeds polled as a safety net for pushes, busiest first, a second apart', () => {
  const plan = planCatchUp([
    feed(1),
    feed(2, { dueReason: 'interval 60 min' }), // polled as usual: its own due time comes soon
    feed(3, { lastFetchedAt: 9_000 }),
    feed(4, { status: 'gone' }),
    feed(5, { lastFetchedAt: null }),
  ]);
  expect(plan).toEqual([
    { feedId: 3, afterMs: 0 },
    { feedId: 1, afterMs: 1_000 },
    { feedId: 5, afterMs: 2_000 },
  ]);
});

it('spreads a thousand feeds over five minutes, not a thousand seconds', () => {
  const plan = planCatchUp(Array.from({ length: 1_000 }, (_, i) => feed(i + 1)));
  expect(plan).toHaveLength(1_000);
  expect(plan.at(-1)!.afterMs).toBeLessThan(CATCH_UP_WINDOW_MS);
  expect(plan[1]!.afterMs - plan[0]!.afterMs).toBe(300);
});

it('asks the scheduler for each in turn, skipping a feed read since the start', () => {
  const clock = new ManualClock(0);
  const asked: number[] = [];
  const readSince = new Set([2]);
  const run = startCatchUp({
    clock,
    feeds: [feed(1, { lastFetchedAt: 3 }), feed(2, { lastFetchedAt: 2 }), feed(3, { lastFetchedAt: 1 })],
    fetchNow: (id) => asked.push(id),
    stillBehind: (id) => !readSince.has(id),
  });
  expect(run.planned).toBe(3);
  clock.advance(0);
  expect(asked).toEqual([1]);
  clock.advance(1_000);
  expect(asked).toEqual([1]); // feed 2 was read meanwhile
  run.stop();
  clock.advance(10_000);
  expect(asked).toEqual([1]);
});
