/** Builds the scheduler's input for one feed from what the store knows about it. */

import type { CacheHints } from '../net/types.ts';
import type { DueInput } from '../poll/due.ts';
import type { RealtimeStatus } from '../realtime/realtime.ts';
import type { FeedRow } from '../store/store.ts';
import type { Settings } from './api.ts';

/** While notifications are live, polling is only a safety net this often (minutes). */
export const SAFETY_NET_MIN = 360;

export function dueInputFor(
  feed: FeedRow,
  settings: Settings,
  cache: CacheHints | null = null,
  realtime: RealtimeStatus | null = null,
): DueInput {
  return {
    intervalMin: feed.intervalMin ?? settings.pollIntervalMin,
    ttl: feed.meta.ttl,
    skipHours: feed.meta.skipHours,
    skipDays: feed.meta.skipDays,
    sy: feed.meta.sy,
    cache,
    consecutiveErrors: feed.consecutiveErrors,
    // Only feeds with a cloud subscription (live, or the reason it is not) have a real-time input.
    realtime:
      realtime && (realtime.line !== null || realtime.reason !== null)
        ? { live: realtime.live, safetyNetMin: SAFETY_NET_MIN }
        : null,
  };
}
