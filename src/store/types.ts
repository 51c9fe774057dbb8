/**
 * The store's row shapes: what the app layer reads back. Field names are a contract with
 * src/app/ (FeedRow -> FeedView, ItemRow -> RiverItem), so change them additively only.
 */
import type {
  Category,
  CloudElement,
  Enclosure,
  Item,
  ItemPodcast,
  Media,
  Person,
  Syndication,
} from '../feed/model.ts';
import type { Credentials } from '../net/types.ts';

export type FeedStatus = 'pending' | 'ok' | 'error' | 'gone';

/** What the last parse said about the feed, kept as one JSON column (the scheduler reads it). */
export interface FeedMeta {
  format: string | null;
  ttl: number | null;
  skipHours: number[];
  skipDays: string[];
  sy: Syndication | null;
  cloud: CloudElement | null;
  hubs: string[];
  self: string | null;
  image: string | null;
  language: string | null;
  /** The site's own icon, found on its page when subscribing by the site's address. */
  siteIcon?: string | null;
}

export const EMPTY_FEED_META: FeedMeta = {
  format: null,
  ttl: null,
  skipHours: [],
  skipDays: [],
  sy: null,
  cloud: null,
  hubs: [],
  self: null,
  image: null,
  language: null,
};

export interface FeedRow {
  id: number;
  url: string;
  title: string | null;
  siteUrl: string | null;
  description: string | null;
  folderId: number | null;
  /**
   * The folder as a path, 'A/B' (just the title for a top-level folder): what addFeed and
   * setFeedFolder take, so it round-trips through OPML.
   */
  folder: string | null;
  /** The folder's own title (the last segment of folder). */
  folderTitle: string | null;
  /** Always null here: rows are for display. Ask getCredentials(id) when fetching. */
  credentials: Credentials | null;
  /** Whether credentials are stored, so a UI can say so without seeing them. */
  hasCredentials: boolean;
  /** Per-feed polling interval override, minutes. */
  intervalMin: number | null;
  status: FeedStatus;
  lastError: string | null;
  lastErrorCode: string | null;
  etag: string | null;
  lastModified: string | null;
  bodyHash: string | null;
  lastFetchedAt: number | null;
  nextDueAt: number | null;
  dueReason: string | null;
  consecutiveErrors: number;
  meta: FeedMeta;
  createdAt: number;
  unread: number;
  /** What the last good parse noted (a repaired document, items left out past the cap...). */
  parseNotes: string[];
  /** The user's own title (wins over `title` for display); null when they gave none. */
  customTitle: string | null;
  /** Desktop notifications for this feed's new items. */
  notify: boolean;
  /** On the images allow list (privacy setting 'clickToLoad'). */
  loadImages: boolean;
  /** Items open in the reader view (the article's full text) by default. */
  fullText: boolean;
}

export interface AddFeedInput {
  url: string;
  title?: string | null;
  siteUrl?: string | null;
  /** A folder path: 'A/B' creates A and B inside it when missing. */
  folder?: string | null;
  credentials?: Credentials | null;
}

export interface FeedMetaPatch {
  title?: string | null;
  siteUrl?: string | null;
  description?: string | null;
  /** Merged over the stored meta (a full FeedMeta replaces it all). */
  meta?: Partial<FeedMeta>;
}

export type FetchStatePatch = Partial<
  Pick<
    FeedRow,
    | 'status'
    | 'lastError'
    | 'lastErrorCode'
    | 'etag'
    | 'lastModified'
    | 'bodyHash'
    | 'lastFetchedAt'
    | 'nextDueAt'
    | 'dueReason'
    | 'consecutiveErrors'
  >
>;

export interface FolderRow {
  id: number;
  title: string;
  parentId: number | null;
}

export interface ItemRow {
  id: number;
  feedId: number;
  /** The item's identity within its feed (Item.id: guid, then link, then hash). */
  guid: string;
  title: string | null;
  link: string | null;
  summary: string | null;
  content: string | null;
  published: string | null;
  updated: string | null;
  /** When Tidings first saw the item, ms since epoch. */
  seenAt: number;
  read: boolean;
  starred: boolean;
  authors: Person[];
  categories: Category[];
  enclosures: Enclosure[];
  media: Media[];
  children: Item[];
  comments: string | null;
  podcast: ItemPodcast | null;
  /** The mute filter that matched, when one did. */
  mutedBy: MutedByRow | null;
  /** Where its episode was left (podcasts, video), when it was ever played. */
  playback: PlaybackRow | null;
}

export interface PlaybackRow {
  url: string;
  positionSec: number;
  durationSec: number | null;
  played: boolean;
}

export interface MutedByRow {
  filterId: number;
  pattern: string;
  action: 'hide' | 'markRead';
}

export interface UpsertResult {
  /** Row ids of items seen for the first time, in feed order. */
  inserted: number[];
  /** Of those, the ones a mute filter hid or marked read on arrival (not news to announce). */
  muted: number[];
  /** Items already stored whose content changed. */
  updated: number;
  /** Their row ids (an edited post, a corrected title): an open river re-reads them in place. */
  changed: number[];
}

export interface RiverQuery {
  /** Opaque cursor from a previous page's nextCursor. */
  cursor?: string | null;
  /** Page size, default 50 (1..500). */
  limit?: number;
  feedId?: number | null;
  unreadOnly?: boolean;
  starredOnly?: boolean;
  /** Only these feeds (a folder's river); an empty list matches nothing. */
  feedIds?: readonly number[] | null;
  /** 'newest' (default) or 'oldest' first. */
  sort?: 'newest' | 'oldest';
  /** At most this many items per fetch batch (feed + seenAt); the rest counted in `more`. */
  groupCap?: number | null;
  /** Only the batch of this feed first seen at this time (ms). */
  batch?: { feedId: number; seenAt: number } | null;
  /** Include items hidden by a mute filter. */
  includeMuted?: boolean;
}

export interface RiverPage {
  items: ItemRow[];
  /** Per batch key `${feedId}:${seenAt}`: items not shown because of groupCap. */
  more?: Map<string, number>;
  /** null on the last page. */
  nextCursor: string | null;
}

export interface MoveResult {
  feed: FeedRow;
  /** The id of the feed that already had the new URL and was merged into this one (now removed). */
  mergedFrom: number | null;
}
