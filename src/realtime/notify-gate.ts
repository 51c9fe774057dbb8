/**
 * When a cloud's notification fetches its feed. A cloud notifies because the feed changed, so a
 * notification fetches at once, except when the previous notification-fetch of that feed found
 * nothing new and started less than `gapMs` ago: then one trailing fetch is planned for the end
 * of the gap, and the notifications until then join it. A cloud gone wrong (or anyone who learned
 * the receiver's address) can make us fetch a feed a few times a second, not hundreds of times:
 * that storm kept the fetch loop running back to back, hammered the publisher's server and was
 * the receiver's limit (bench:latency). A feed that really changes with each notification is
 * never held back, and the last notification of a storm is always followed by a fetch.
 *
 * With `spaceAll` every fetch is spaced by the gap, news or not: the WebSub fallback fetches use
 * it (a delivery too large, empty or not a feed), which strangers can ask for on an unsigned
 * callback and which no cloud vouches for.
 */
import type { Clock, TimerHandle } from '../common/clock.ts';

export const NOTIFY_FETCH_GAP_MS = 250;

interface FeedGate {
  /** When the last notification-fetch was asked for. */
  startedAt: number;
  /** When a fetch of this feed last found a new document. */
  changedAt: number;
  trailing: TimerHandle | null;
}

export class NotifyGate {
  private readonly feeds = new Map<number, FeedGate>();
  private readonly clock: Clock;
  private readonly fetchNow: (feedId: number) => void;
  private readonly gapMs: number;
  private readonly spaceAll: boolean;

  constructor(deps: {
    clock: Clock;
    fetchNow: (feedId: number) => void;
    gapMs?: number;
    spaceAll?: boolean;
  }) {
    this.clock = deps.clock;
    this.fetchNow = deps.fetchNow;
    this.gapMs = deps.gapMs ?? NOTIFY_FETCH_GAP_MS;
    this.spaceAll = deps.spaceAll ?? false;
  }

  /** A notification for the feed: fetch now, or join the planned fetch. Says which, for the log. */
  notified(feedId: number): string {
    const now = this.clock.now();
    const gate = this.feeds.get(feedId);
    if (gate?.trailing) return 'fetch planned (joined)';
    if (gate && now - gate.startedAt < this.gapMs && (this.spaceAll || gate.changedAt < gate.startedAt)) {
      gate.trailing = this.clock.setTimer(gate.startedAt + this.gapMs - now, () => {
        gate.trailing = null;
        gate.startedAt = this.clock.now();
        this.fetchNow(feedId);
      });
      return this.spaceAll
        ? `fetch planned (at most one per feed every ${this.gapMs / 1000} s)`
        : 'fetch planned (the last one found nothing new)';
    }
    this.feeds.set(feedId, {
      startedAt: now,
      changedAt: gate?.changedAt ?? Number.NEGATIVE_INFINITY,
      trailing: null,
    });
    this.fetchNow(feedId);
    return 'fetch queued';
  }

  /** A fetch of the feed found a new document (told by the app after each good parse). */
  changed(feedId: number): void {
    const gate = this.feeds.get(feedId);
    if (gate) gate.changedAt = this.clock.now();
  }

  forget(feedId: number): void {
    this.feeds.get(feedId)?.trailing?.cancel();
    this.feeds.delete(feedId);
  }

  stop(): void {
    for (const gate of this.feeds.values()) gate.trailing?.cancel();
    this.feeds.clear();
  }
}
