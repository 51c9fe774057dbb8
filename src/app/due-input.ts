/** Builds the scheduler's input for one feed from what the store knows about it. */
import type { CacheHints } from '../net/types.ts';
import type { DueInput } from '../poll/due.ts';
import type { FeedRow } from '../store/store.ts';
import type { Settings } from './api.ts';

export function dueInputFor(feed: FeedRow, settings: Settings, cache: CacheHints | null = null): DueInput {
  return {
    intervalMin: feed.intervalMin ?? settings.pollIntervalMin,
    ttl: feed.meta.ttl,
    skipHours: feed.meta.skipHours,
    skipDays: feed.meta.skipDays,
    sy: feed.meta.sy,
    cache,
    consecutiveErrors: feed.consecutiveErrors,
    realtime: null,
  };
}
