/**
 * Catching up after a restart. A feed read in real time is polled only as a safety net (every
 * 6 h), so whatever its cloud or hub pushed while the reader was down (a kill -9, a crash, a
 * plain quit) would wait hours. On start every such feed is fetched once, conditionally (its
 * ETag and Last-Modified: a 304 when nothing changed), spread out so a reader of a thousand feeds
 * does not burst, each through the scheduler's one "fetch now" (the same path as every fetch).
 *
 * The moment the reader went down is not known after a kill -9, and any push meant for a feed
 * may have been lost, so every feed whose polling was relaxed for pushes is caught up, busiest
 * first (the most recently read: the ones most likely to have news). A feed read again since
 * this start (a poll, a delivery, a notification) is skipped when its turn comes.
 * docs/decisions/0029-reader-real-time-across-restarts.md
 */
import type { Clock, TimerHandle } from '../common/clock.ts';
import { isSafetyNet } from './due.ts';

/** One fetch every second at most... */
export const CATCH_UP_SPACING_MS = 1_000;
/** ...and all of them within five minutes however many there are. */
export const CATCH_UP_WINDOW_MS = 5 * 60_000;

export interface CatchUpFeed {
  id: number;
  status: string;
  dueReason: string | null;
  lastFetchedAt: number | null;
}

/** Which feeds to fetch and when (ms from now), busiest first. Pure. */
export function planCatchUp(feeds: readonly CatchUpFeed[]): { feedId: number; afterMs: number }[] {
  const due = feeds
    .filter((f) => f.status !== 'gone' && isSafetyNet(f.dueReason))
    .sort((a, b) => (b.lastFetchedAt ?? 0) - (a.lastFetchedAt ?? 0) || a.id - b.id);
  const spacing = Math.min(CATCH_UP_SPACING_MS, CATCH_UP_WINDOW_MS / Math.max(1, due.length));
  return due.map((f, i) => ({ feedId: f.id, afterMs: Math.round(i * spacing) }));
}

export interface CatchUp {
  /** How many feeds were planned. */
  readonly planned: number;
  stop(): void;
}

/**
 * Runs the plan on the clock: each feed's turn asks `fetchNow` unless `stillBehind` says it was
 * read since the start.
 */
export function startCatchUp(deps: {
  clock: Clock;
  feeds: readonly CatchUpFeed[];
  fetchNow(feedId: number): void;
  stillBehind(feedId: number): boolean;
}): CatchUp {
  const plan = planCatchUp(deps.feeds);
  const timers: TimerHandle[] = plan.map(({ feedId, afterMs }) =>
    deps.clock.setTimer(afterMs, () => {
      if (deps.stillBehind(feedId)) deps.fetchNow(feedId);
    }),
  );
  return {
    planned: plan.length,
    stop() {
      for (const t of timers) t.cancel();
    },
  };
}
