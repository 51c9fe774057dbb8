/**
 * River5's river: newest first, one feed's items from one fetch kept together under its title.
 * Items from one fetch share their seenAt, so a group is a run of consecutive rows with the
 * same feed and seenAt.
 */
import type { Item } from '../feed/model.ts';
import type { FeedRow, ItemRow } from '../store/store.ts';
import type { OutlineItem, PodcastInfo, RiverGroup, RiverItem, RiverPage, RiverQuery } from './api.ts';
import type { AppContext } from './context.ts';

/** Nested outlines deeper than this are cut (a hostile feed could nest thousands). */
const MAX_OUTLINE_DEPTH = 12;

function toOutline(items: readonly Item[], depth: number): OutlineItem[] {
  if (depth >= MAX_OUTLINE_DEPTH) return [];
  return items.map((c) => ({
    title: c.title ?? null,
    link: c.link ?? null,
    summary: c.summary ?? null,
    content: c.content ?? null,
    published: c.published ?? c.updated ?? null,
    children: toOutline(c.children ?? [], depth + 1),
  }));
}

const isMedia = (type: string | null) => !!type && /^(audio|video)\//i.test(type);

/**
 * Podcast details: the item's itunes:* fields, the channel's artwork when the item has none.
 * An item with an audio/video enclosure and no itunes fields still gets the channel artwork.
 */
function podcastOf(row: ItemRow, feed: FeedRow | undefined): PodcastInfo | null {
  const p = row.podcast;
  const channelImage = feed?.meta.image ?? null;
  if (p)
    return {
      image: p.image ?? channelImage,
      episode: p.episode,
      season: p.season,
      durationSec: p.durationSec,
    };
  if (row.enclosures.some((e) => isMedia(e.type)) && channelImage) {
    return { image: channelImage, episode: null, season: null, durationSec: null };
  }
  return null;
}

export function toRiverItem(row: ItemRow, feed?: FeedRow): RiverItem {
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
    updated: row.updated,
    date: row.published ?? row.updated ?? null,
    children: toOutline(row.children, 0),
    media: row.media,
    podcast: podcastOf(row, feed),
    mutedBy: row.mutedBy,
    playback: row.playback,
  };
}

/** The title a feed shows: the person's own, else the feed's, else its URL. */
export function feedTitleOf(feed: FeedRow | undefined): string {
  return feed?.customTitle ?? feed?.title ?? feed?.url ?? 'Unknown feed';
}

export function groupRiver(
  rows: readonly ItemRow[],
  feeds: ReadonlyMap<number, FeedRow>,
  more?: ReadonlyMap<string, number>,
): RiverGroup[] {
  const groups: RiverGroup[] = [];
  let current: RiverGroup | null = null;
  let currentSeenAt = -1;
  for (const row of rows) {
    const feed = feeds.get(row.feedId);
    if (!current || current.feedId !== row.feedId || currentSeenAt !== row.seenAt) {
      const group: RiverGroup = {
        feedId: row.feedId,
        feedTitle: feedTitleOf(feed),
        feedLink: feed?.siteUrl ?? null,
        updatedAt: new Date(row.seenAt).toISOString(),
        items: [],
        moreInGroup: more?.get(`${row.feedId}:${row.seenAt}`) ?? 0,
      };
      current = group;
      currentSeenAt = row.seenAt;
      groups.push(group);
    }
    current.items.push(toRiverItem(row, feed));
  }
  // A capped batch split into two runs (another feed's item between) counts its rest once.
  const counted = new Set<string>();
  for (const g of groups) {
    const key = `${g.feedId}:${Date.parse(g.updatedAt)}`;
    if (counted.has(key)) g.moreInGroup = 0;
    counted.add(key);
  }
  return groups;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(n) ? n : lo));

/** The river command: a page of groups for a feed, a folder (with subfolders) or everything. */
export function river(ctx: AppContext, query: RiverQuery): RiverPage {
  const { store } = ctx;
  const folderId = query.folderId ?? null;
  let batch: { feedId: number; seenAt: number } | null = null;
  if (query.batch) {
    const seenAt = Date.parse(query.batch.updatedAt);
    if (Number.isFinite(seenAt)) batch = { feedId: query.batch.feedId, seenAt };
  }
  const page = store.riverItems({
    cursor: query.cursor ?? null,
    limit: clamp(query.limit ?? 50, 1, batch ? 5000 : 200),
    feedId: query.feedId ?? null,
    feedIds: folderId === null ? null : store.feedIdsInFolder(folderId),
    unreadOnly: query.unreadOnly ?? false,
    starredOnly: query.starredOnly ?? false,
    sort: query.sort === 'oldest' ? 'oldest' : 'newest',
    groupCap: query.groupCap ?? null,
    batch,
    includeMuted: query.includeMuted ?? false,
  });
  const feeds = new Map(store.listFeeds().map((f) => [f.id, f]));
  return { groups: groupRiver(page.items, feeds, page.more), nextCursor: page.nextCursor };
}
