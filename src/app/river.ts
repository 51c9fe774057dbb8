/**
 * River5's river: newest first, one feed's items from one fetch kept together under its title.
 * Items from one fetch share their seenAt, so a group is a run of consecutive rows with the
 * same feed and seenAt.
 */
import type { FeedRow, ItemRow } from '../store/store.ts';
import type { RiverGroup, RiverItem } from './api.ts';

export function toRiverItem(row: ItemRow): RiverItem {
  return {
    id: row.id,
    feedId: row.feedId,
    title: row.title,
    link: row.link,
    summary: row.summary,
    content: row.content,
    published: row.published,
    seenAt: new Date(row.seenAt).toISOString(),
    read: row.read,
    starred: row.starred,
    authors: row.authors,
    categories: row.categories,
    enclosures: row.enclosures,
  };
}

export function groupRiver(rows: readonly ItemRow[], feeds: ReadonlyMap<number, FeedRow>): RiverGroup[] {
  const groups: RiverGroup[] = [];
  let current: RiverGroup | null = null;
  let currentSeenAt = -1;
  for (const row of rows) {
    if (!current || current.feedId !== row.feedId || currentSeenAt !== row.seenAt) {
      const feed = feeds.get(row.feedId);
      current = {
        feedId: row.feedId,
        feedTitle: feed?.title ?? feed?.url ?? 'Unknown feed',
        feedLink: feed?.siteUrl ?? null,
        updatedAt: new Date(row.seenAt).toISOString(),
        items: [],
      };
      currentSeenAt = row.seenAt;
      groups.push(current);
    }
    current.items.push(toRiverItem(row));
  }
  return groups;
}
