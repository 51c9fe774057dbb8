/**
 * An item as Google Reader clients read it (stream/items/contents, stream/contents): the shape
 * FreshRSS and Miniflux answer, with the fields clients depend on: the long id, crawlTimeMsec and
 * timestampUsec (when it arrived here: Reeder and EasyRSS sort and sync by them), published,
 * categories carrying the reading-list, the item's label and its read/starred state, origin naming
 * the feed's stream, and the HTML in summary and content both (clients read one or the other).
 * The HTML is the feed's own, as the river keeps it: clients sanitise it as they do when they read
 * feeds themselves.
 */
import type { FeedView } from '../../app/api.ts';
import type { SyncItemRow } from '../../store/sync.ts';
import { longItemId } from './item-ids.ts';
import { feedStreamId, labelStreamId, READ, READING_LIST, STARRED } from './streams.ts';

export interface GReaderItem {
  id: string;
  crawlTimeMsec: string;
  timestampUsec: string;
  published: number;
  updated: number;
  title: string;
  author?: string;
  canonical: { href: string }[];
  alternate: { href: string; type: string }[];
  categories: string[];
  origin: { streamId: string; title: string; htmlUrl: string };
  summary: { direction: 'ltr'; content: string };
  content: { direction: 'ltr'; content: string };
  enclosure?: { href: string; type: string; length?: number }[];
}

const seconds = (iso: string | null, fallback: number): number => {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Math.floor((Number.isFinite(ms) ? ms : fallback) / 1000);
};

export function greaderItem(row: SyncItemRow, feed: FeedView | undefined): GReaderItem {
  const categories = [READING_LIST];
  if (feed?.folderPath) categories.push(labelStreamId(feed.folderPath));
  if (row.read) categories.push(READ);
  if (row.starred) categories.push(STARRED);
  const html = row.content ?? row.summary ?? '';
  const author = row.authors
    .map((p) => p.name ?? p.email)
    .filter((n): n is string => !!n)
    .join(', ');
  const published = seconds(row.published ?? row.updated, row.arrivedAt);
  const out: GReaderItem = {
    id: longItemId(row.id),
    crawlTimeMsec: String(row.arrivedAt),
    timestampUsec: `${row.arrivedAt}000`,
    published,
    updated: seconds(row.updated, published * 1000),
    title: row.title ?? '',
    canonical: row.link ? [{ href: row.link }] : [],
    alternate: row.link ? [{ href: row.link, type: 'text/html' }] : [],
    categories,
    origin: {
      streamId: feedStreamId(row.feedId),
      title: feed?.title ?? '',
      htmlUrl: feed?.siteUrl ?? '',
    },
    summary: { direction: 'ltr', content: html },
    content: { direction: 'ltr', content: html },
  };
  if (author) out.author = author;
  if (row.enclosures.length > 0) {
    out.enclosure = row.enclosures.map((e) => ({
      href: e.url,
      type: e.type ?? 'application/octet-stream',
      ...(e.length ? { length: e.length } : {}),
    }));
  }
  return out;
}
