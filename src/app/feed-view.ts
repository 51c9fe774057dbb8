/** The store's feed row as the UI sees it: secrets masked, times as ISO, one delivery line. */
import { maskUrl } from '../net/mask.ts';
import { describeInterval } from '../poll/due.ts';
import type { FeedRow } from '../store/store.ts';
import type { FeedView, Settings } from './api.ts';
import { dueInputFor } from './due-input.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toFeedView(feed: FeedRow, settings: Settings, hasCredentials: boolean): FeedView {
  const delivery =
    feed.status === 'gone'
      ? 'not polled: the feed is gone'
      : `polled ${describeInterval(dueInputFor(feed, settings))}`;
  return {
    id: feed.id,
    url: maskUrl(feed.url),
    title: feed.title ?? maskUrl(feed.url),
    siteUrl: feed.siteUrl,
    folder: feed.folder,
    unread: feed.unread,
    status: feed.status,
    error: feed.status === 'error' || feed.status === 'gone' ? feed.lastError : null,
    lastFetchedAt: iso(feed.lastFetchedAt),
    nextDueAt: iso(feed.nextDueAt),
    dueReason: feed.dueReason,
    delivery,
    hasCredentials,
  };
}
