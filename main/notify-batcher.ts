/**
 * Which new items become native notifications, and how many notifications. Opt-in per feed
 * (`notify: true`; a missing flag is off). A feed's first fetch never notifies (subscribing to 200
 * feeds from an OPML file must not fire 200 notifications); arrivals within a short window, and
 * all arrivals during a cool-down after a notification, collapse into the next one. Nothing
 * notifies while the window has the focus: the river already shows it.
 */
import type { Clock, TimerHandle } from '../src/common/clock.ts';

/**
 * What batching needs of a feed row. The per-feed `notify` flag comes with the reading
 * experience's per-feed settings (FeedView.notify); until then every feed reads as off.
 */
export interface NotifyFeed {
  id: number;
  title: string;
  notify?: boolean;
  status?: string;
  unread?: number;
  lastFetchedAt: string | null;
}

export interface FeedArrivals {
  feedId: number;
  feedTitle: string;
  newItems: number;
}

export interface BatcherOptions {
  clock: Clock;
  /** The batch: feeds with new items, most items first. */
  flush(batch: FeedArrivals[]): void;
  /** True while notifications would only repeat what the person is looking at. */
  quiet?(): boolean;
  /** Arrivals this close together are one notification (default 2 s). */
  windowMs?: number;
  /** After a notification, the next waits at least this long, gathering (default 20 s). */
  cooldownMs?: number;
}

export class ArrivalBatcher {
  private readonly feeds = new Map<number, NotifyFeed>();
  /** Feeds that have had a good fetch: their next arrivals are news, not a first fetch. */
  private readonly primed = new Set<number>();
  private pending = new Map<number, number>();
  private timer: TimerHandle | null = null;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private readonly opts: Required<Omit<BatcherOptions, 'quiet'>> & Pick<BatcherOptions, 'quiet'>;

  constructor(opts: BatcherOptions) {
    this.opts = { windowMs: 2_000, cooldownMs: 20_000, ...opts };
  }

  /** Every feed, as listFeeds gives them (at start and after 'feeds.changed'). */
  setFeeds(feeds: readonly NotifyFeed[]): void {
    const ids = new Set(feeds.map((f) => f.id));
    for (const id of [...this.feeds.keys()]) if (!ids.has(id)) this.forget(id);
    for (const feed of feeds) this.updateFeed(feed);
  }

  /** One row ('feed.status'). */
  updateFeed(feed: NotifyFeed): void {
    this.feeds.set(feed.id, feed);
    if (hadGoodFetch(feed)) this.primed.add(feed.id);
  }

  /** 'river.changed': `newItems` reached the river from this feed. */
  arrived(feedId: number, newItems: number): void {
    const feed = this.feeds.get(feedId);
    if (!this.primed.has(feedId)) {
      // Its first fetch (the core emits river.changed before the row that says it was fetched):
      // what it brings is the feed's back catalogue, not news.
      this.primed.add(feedId);
      return;
    }
    if (feed?.notify !== true || newItems <= 0) return;
    if (this.opts.quiet?.()) return;
    this.pending.set(feedId, (this.pending.get(feedId) ?? 0) + newItems);
    if (!this.timer) {
      const now = this.opts.clock.now();
      const wait = Math.max(this.opts.windowMs, this.lastFlushAt + this.opts.cooldownMs - now);
      this.timer = this.opts.clock.setTimer(wait, () => this.flushNow());
    }
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = null;
    this.pending.clear();
  }

  private flushNow(): void {
    this.timer = null;
    const batch: FeedArrivals[] = [];
    for (const [feedId, newItems] of this.pending) {
      const feed = this.feeds.get(feedId);
      // Turned off or unsubscribed while waiting: nothing to say.
      if (feed?.notify === true) batch.push({ feedId, feedTitle: feed.title, newItems });
    }
    this.pending = new Map();
    if (batch.length === 0) return;
    batch.sort((a, b) => b.newItems - a.newItems || a.feedTitle.localeCompare(b.feedTitle));
    this.lastFlushAt = this.opts.clock.now();
    this.opts.flush(batch);
  }

  private forget(id: number): void {
    this.feeds.delete(id);
    this.primed.delete(id);
    this.pending.delete(id);
  }
}

/**
 * A feed row shows a fetch that brought its items in: fetched and fine, or fetched with unread
 * items (a feed failing today after good days). A feed whose only fetches failed is not primed,
 * so its first good fetch stays quiet too.
 */
function hadGoodFetch(feed: NotifyFeed): boolean {
  if (feed.lastFetchedAt === null) return false;
  return feed.status === undefined || feed.status === 'ok' || (feed.unread ?? 0) > 0;
}

export interface NotificationSpec {
  title: string;
  body: string;
  /** What a click opens: a feed's item, a feed, or the river (feedId null). */
  target: { feedId: number | null; itemId: number | null };
}

/** At most this many feeds get a notification each; more become one summary. */
export const MAX_SEPARATE = 3;

/**
 * The words of a batch: "5 new from Scripting News" with the newest titles, one per feed, or one
 * summary "37 new items from 12 feeds" when many feeds spoke at once.
 * `items` holds each feed's newest unread items (id and title), newest first.
 */
export function describeBatch(
  batch: readonly FeedArrivals[],
  items: ReadonlyMap<number, readonly { id: number; title: string | null }[]>,
): NotificationSpec[] {
  if (batch.length > MAX_SEPARATE) {
    const total = batch.reduce((sum, f) => sum + f.newItems, 0);
    const named = batch.slice(0, 2).map((f) => `${f.feedTitle} (${f.newItems})`);
    const rest = batch.length - named.length;
    return [
      {
        title: `${total} new items from ${batch.length} feeds`,
        body: `${named.join(', ')} and ${rest} more`,
        target: { feedId: null, itemId: null },
      },
    ];
  }
  return batch.map((f) => {
    const newest = (items.get(f.feedId) ?? []).slice(0, Math.min(3, f.newItems));
    const titles = newest.map((i) => i.title?.trim() || 'Untitled item');
    const more = f.newItems - titles.length;
    return {
      title: f.newItems === 1 ? `New from ${f.feedTitle}` : `${f.newItems} new from ${f.feedTitle}`,
      body: [...titles, ...(more > 0 && titles.length > 0 ? [`and ${more} more`] : [])].join('\n'),
      target: { feedId: f.feedId, itemId: newest[0]?.id ?? null },
    };
  });
}
