import type { FeedView } from '../../../src/app/api';

/** A feed's name in the UI: its title, or its URL while it has none yet. */
export function feedLabel(feed: Pick<FeedView, 'title' | 'url'>): string {
  return feed.title.trim() || feed.url;
}

export function totalUnread(feeds: readonly FeedView[]): number {
  return feeds.reduce((n, f) => n + f.unread, 0);
}
