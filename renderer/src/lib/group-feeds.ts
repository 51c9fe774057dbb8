import type { FeedView } from '../../../src/app/api';

export interface FolderGroup {
  /** null for feeds outside any folder; they come first. */
  folder: string | null;
  feeds: FeedView[];
  unread: number;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The sidebar's shape: unfiled feeds, then folders A-Z, feeds A-Z by title inside each. */
export function groupFeedsByFolder(feeds: readonly FeedView[]): FolderGroup[] {
  const byFolder = new Map<string | null, FeedView[]>();
  for (const feed of feeds) {
    const folder = feed.folder?.trim() || null;
    const list = byFolder.get(folder);
    if (list) list.push(feed);
    else byFolder.set(folder, [feed]);
  }
  return [...byFolder.entries()]
    .sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : collator.compare(a, b)))
    .map(([folder, list]) => ({
      folder,
      feeds: list.sort((a, b) => collator.compare(feedLabel(a), feedLabel(b))),
      unread: list.reduce((n, f) => n + f.unread, 0),
    }));
}

/** A feed's name in the UI: its title, or its URL while it has none yet. */
export function feedLabel(feed: Pick<FeedView, 'title' | 'url'>): string {
  return feed.title.trim() || feed.url;
}

export function totalUnread(feeds: readonly FeedView[]): number {
  return feeds.reduce((n, f) => n + f.unread, 0);
}
