/**
 * The one API contract between the core and every UI (STYLE: one contract crosses processes).
 * Electron carries it over IPC, browser mode over HTTP + WebSocket; both proxies are generic over
 * API_METHODS, so adding a command means adding it here and in the implementation, nothing else.
 * Everything here must be JSON-serialisable.
 */
import type { Category, CloudElement, Enclosure, Media, Person } from '../feed/model.ts';
import type { CommandId } from './shortcuts.ts';

export type FeedStatus = 'pending' | 'ok' | 'error' | 'gone';

export interface FeedView {
  id: number;
  /** The subscription URL, with any secret in it masked. */
  url: string;
  title: string;
  siteUrl: string | null;
  folder: string | null;
  unread: number;
  status: FeedStatus;
  /** Readable reason when status is error or gone. */
  error: string | null;
  lastFetchedAt: string | null;
  nextDueAt: string | null;
  /** Why the next fetch is then ("interval 60 min", "ttl 120 min", "skipHours", "back-off"...). */
  dueReason: string | null;
  /** One line for the feed list: "polled every 60 min (ttl)" or "real-time via cloud.example (renews in 21 h)". */
  delivery: string;
  hasCredentials: boolean;
  /**
   * What reading the feed's document noted although it was read: "The document has 600000 items;
   * only the newest 5000 were read.", a repaired document... (empty when nothing).
   */
  notes?: string[];
  /** The folder's id (issue 9); null when the feed is not filed. `folder` is the same as a path. */
  folderId: number | null;
  /** 'Tech/Blogs' for a nested folder; null when unfiled. */
  folderPath: string | null;
  /** The feed asks for desktop notifications of new items (per-feed setting, default off). */
  notify: boolean;
  /** Per-feed polling interval in minutes; null follows Settings.pollIntervalMin. */
  intervalMin: number | null;
  /** An http(s) icon for the feed (channel image, else the site's /favicon.ico); null when none. */
  favicon: string | null;
  /** The user renamed the feed: `title` is theirs, not the feed's (updateFeed({title: null}) resets). */
  titleIsCustom: boolean;
  /** On the images allow list: remote images load even in 'clickToLoad' mode. */
  loadImages: boolean;
  /** The feed that reads the user's own posts into the river (shown as "My posts", not as a feed). */
  own?: boolean;
  /** ISO time of the last fetch that went well (null: none known). */
  lastSuccessAt?: string | null;
  /** Items open in the reader view (the article's full text, fetched) rather than the feed's text. */
  fullText: boolean;
}

/** A folder in the tree, with unread totals that include its subfolders. */
export interface FolderView {
  id: number;
  parentId: number | null;
  title: string;
  /** 'Tech/Blogs'. */
  path: string;
  /** Unread items in this folder's feeds and every subfolder's. */
  unread: number;
  /** Feeds directly in this folder. */
  feedCount: number;
}

/** A nested item (rssCloud:item, source:outline) as the river shows it: an expandable outline. */
export interface OutlineItem {
  title: string | null;
  link: string | null;
  summary: string | null;
  content: string | null;
  published: string | null;
  children: OutlineItem[];
}

/** Podcast details of an item (itunes:*), when the feed gives any. */
export interface PodcastInfo {
  /** Episode artwork (itunes:image on the item, else the channel's). */
  image: string | null;
  episode: number | null;
  season: number | null;
  /** itunes:duration in seconds. */
  durationSec: number | null;
}

/** Why an item is muted; unmuteItem(id) undoes it. */
export interface MutedBy {
  filterId: number;
  /** The filter's pattern, for "muted by 'crypto'". */
  pattern: string;
  action: MuteAction;
}

export interface RiverItem {
  id: number;
  feedId: number;
  title: string | null;
  link: string | null;
  summary: string | null;
  content: string | null;
  published: string | null;
  /** When Tidings first saw it (ISO). */
  seenAt: string;
  read: boolean;
  starred: boolean;
  authors: Person[];
  categories: Category[];
  enclosures: Enclosure[];
  /** The feed's updated time (ISO) when it gave one. */
  updated: string | null;
  /** The time to show and sort by: published, else updated, else null (then use seenAt). */
  date: string | null;
  children: OutlineItem[];
  /** media:group / media:content / media:thumbnail entries. */
  media: Media[];
  podcast: PodcastInfo | null;
  /** Set when a mute filter matched this item (it is then read; 'hide' items only show with includeMuted). */
  mutedBy: MutedBy | null;
  /** Where its episode (podcast, video) was left, once it was ever played; null before. */
  playback: PlaybackView | null;
}

/** An episode's place: resumed from here; `played` once finished or marked so. */
export interface PlaybackView {
  /** The enclosure or media file played. */
  url: string;
  positionSec: number;
  durationSec: number | null;
  played: boolean;
}

/** What the player remembers as it plays (savePlayback). */
export interface PlaybackInput {
  itemId: number;
  url: string;
  positionSec: number;
  durationSec?: number | null;
  /** Absent: as it was. */
  played?: boolean;
}

/** The episode in the player, as the app left it: the player comes back with it after a reload. */
export interface NowPlaying {
  itemId: number;
  feedId: number;
  url: string;
  type: string | null;
  title: string;
  feedTitle: string;
  image: string | null;
  positionSec: number;
  durationSec: number | null;
}

/** An item's article, read for the reader view (fullText). */
export interface FullTextView {
  itemId: number;
  /** Where it was read from (after redirects): relative links resolve against it. */
  url: string;
  title: string | null;
  byline: string | null;
  siteName: string | null;
  /** The article's HTML, unsanitised: render it through the same sanitiser as every item. */
  content: string;
  /** ISO time it was fetched. */
  fetchedAt: string;
}

/** "Mark older than a day / a week as read" in a view (markOlderRead). */
export interface MarkOlderInput {
  /** Items dated (published, else arrived) more than this many hours ago. */
  olderThanHours: number;
  feedId?: number | null;
  folderId?: number | null;
  starredOnly?: boolean;
}

/** River5's shape: one feed update = that feed's new items, together, under its title. */
export interface RiverGroup {
  feedId: number;
  feedTitle: string;
  feedLink: string | null;
  /** seenAt of the newest item in the group. */
  updatedAt: string;
  items: RiverItem[];
  /**
   * Items of the same fetch not shown because of RiverQuery.groupCap ("N more from this feed");
   * 0 when none. Ask river({ batch: { feedId, updatedAt } }) for all of them.
   */
  moreInGroup: number;
}

export interface RiverQuery {
  /** Opaque cursor from a previous page. */
  cursor?: string | null;
  limit?: number;
  feedId?: number | null;
  unreadOnly?: boolean;
  starredOnly?: boolean;
  /** A folder's river: its feeds and every subfolder's. */
  folderId?: number | null;
  /** 'newest' (default) or 'oldest' first. */
  sort?: 'newest' | 'oldest';
  /** Show at most this many items per fetch of one feed; the rest counts in moreInGroup. */
  groupCap?: number | null;
  /** Only one group: every item of that fetch (feedId + the group's updatedAt); limit up to 5,000. */
  batch?: { feedId: number; updatedAt: string } | null;
  /** Include items a 'hide' mute filter hid (default false). */
  includeMuted?: boolean;
}

export interface RiverPage {
  groups: RiverGroup[];
  nextCursor: string | null;
}

export interface Settings {
  /** Default polling interval in minutes (60). */
  pollIntervalMin: number;
  /** Days items are kept (starred kept forever). */
  retentionDays: number;
  /** Real-time reading: reach clouds through a tunnel (default on in `tidings serve`). */
  tunnelEnabled?: boolean;
  /** The localtunnel server (default https://localtunnel.me). */
  tunnelHost?: string;
  /** Your own public address for the receiver (port forward, a server): used instead of the tunnel. */
  publicBaseUrl?: string | null;
  /** Items read from one feed document at most, the newest first (default 5,000; the rest noted). */
  maxItemsPerDocument?: number;
  /**
   * Remote images in items: 'load' all, 'blockTrackers' (default: load, but not 1x1 pixels and
   * known trackers), 'clickToLoad' (only on click, or for feeds with FeedView.loadImages).
   */
  images?: ImagePolicy;
  /** Let feeds live on private addresses (a home NAS). Link-local/metadata hosts stay refused. */
  allowLocalNetworkFeeds?: boolean;
  /**
   * Reading marks read as you go (default on, as in Reeder and Feedly): an item scrolled past the
   * top of the river, opened, or expanded ("Show more") is read.
   */
  markReadOnScroll?: boolean;
}

export type ImagePolicy = 'load' | 'blockTrackers' | 'clickToLoad';

/** Per-feed settings (issue 9). Absent keys are left alone. */
export interface FeedSettingsPatch {
  /** A title of the user's own; null goes back to the feed's title. */
  title?: string | null;
  /** Move the feed into a folder; null: unfiled. */
  folderId?: number | null;
  /** Minutes; null follows the default. */
  intervalMin?: number | null;
  notify?: boolean;
  loadImages?: boolean;
  /** Open this feed's items in the reader view (their full text). */
  fullText?: boolean;
}

export type MuteAction = 'hide' | 'markRead';

export interface MuteFilter {
  id: number;
  /** null: every feed. */
  feedId: number | null;
  kind: 'keyword' | 'regex';
  /** A keyword (case-insensitive, whole words) or a regular expression (case-insensitive). */
  pattern: string;
  action: MuteAction;
  createdAt: string;
}

export interface MuteFilterInput {
  feedId?: number | null;
  kind: 'keyword' | 'regex';
  pattern: string;
  action: MuteAction;
}

export type SearchScope =
  | { kind: 'all' }
  | { kind: 'feed'; feedId: number }
  | { kind: 'folder'; folderId: number };

/**
 * Search syntax: words are ANDed; `a OR b`; `-word` excludes; "a phrase"; `pre*` a prefix
 * (the last word is a prefix while typing).
 */
export interface SearchRequest {
  query: string;
  scope?: SearchScope;
  limit?: number;
}

/** [start, end) offsets in UTF-16 code units of the string they go with. */
export type MatchRange = [number, number];

export interface SearchHit {
  item: RiverItem;
  feedTitle: string;
  /** Where the terms match in item.title (plain text). */
  titleRanges: MatchRange[];
  /** Plain text around the first match in the body, and where the terms match in it. */
  snippet: string;
  snippetRanges: MatchRange[];
}

export interface SearchResults {
  hits: SearchHit[];
  /** The positive terms, for highlighting in rendered content (prefix terms end with '*'). */
  terms: string[];
}

export interface SavedSearch {
  id: number;
  name: string;
  query: string;
  scope: SearchScope;
}

export interface SavedSearchInput {
  /** Given: update that saved search; absent: a new one. */
  id?: number;
  name: string;
  query: string;
  scope?: SearchScope;
}

/** One rssCloud call in or out, as the activity log keeps it. */
export interface ActivityEntry {
  id: number;
  /** ISO time. */
  at: string;
  direction: 'in' | 'out';
  /** The cloud's host for calls out; the caller's address for calls in. */
  peer: string;
  /** pleaseNotify, rssCloud.pleaseNotify, notify, challenge, tunnel... */
  procedure: string;
  /** The feed the call was about (secrets masked). */
  feedUrl: string | null;
  /** The cloud's message, or what we did: "fetch queued", "404: not subscribed; nothing fetched"... */
  result: string;
  ok: boolean;
  latencyMs: number | null;
}

/** One subscription to a cloud (rssCloud) or a hub (WebSub), as the core keeps it (ms times). */
export interface RealtimeSubscription {
  feedId: number;
  protocol: 'rssCloud' | 'WebSub';
  /** The feed URL (rssCloud) or the hub's topic (WebSub), secrets masked. */
  feedUrl: string;
  /** The cloud's or the hub's host (with its port when it has one of its own). */
  via: string;
  /** live, pending, failed, denied (WebSub), unsupported (rssCloud). */
  status: string;
  live: boolean;
  /** The row's line while live, else why not (the cloud's or hub's own words). */
  message: string | null;
  /** When the next renewal is planned (null: none). */
  renewsAt: number | null;
  /** WebSub: when the granted lease ends; rssCloud: 25 hours after the last success. */
  leaseEndsAt: number | null;
  lastDeliveryAt: number | null;
}

/** The times of a subscription, which the API sends as ISO text. */
export type RealtimeSubscriptionTime = 'renewsAt' | 'leaseEndsAt' | 'lastDeliveryAt';

/** One subscription as the settings list it: RealtimeSubscription with its times as ISO text. */
export type RealtimeSubscriptionView = {
  [K in keyof RealtimeSubscription]: K extends RealtimeSubscriptionTime
    ? string | null
    : RealtimeSubscription[K];
};

/** One fetch of one feed, as the log of every fetch keeps it (issue 17). */
export interface FetchLogEntry {
  id: number;
  /** ISO time the answer came (or the trip failed). */
  at: string;
  feedId: number;
  feedTitle: string;
  /** The address fetched, secrets masked. */
  url: string;
  /** ok (new body read), notModified (304), unchanged (same body), error, parseError, gone, redirect. */
  outcome: 'ok' | 'notModified' | 'unchanged' | 'error' | 'parseError' | 'gone' | 'redirect';
  /** HTTP status; null when no answer came. */
  status: number | null;
  /** Bytes on the wire; null when no body came. */
  bytes: number | null;
  newItems: number;
  ms: number;
  /** Why it failed, in words; null when it went well. */
  message: string | null;
  ok: boolean;
}

export interface FetchLogQuery {
  /** One feed's fetches only. */
  feedId?: number | null;
  /** At most this many, newest first (default 100, at most 2000). */
  limit?: number;
}

/**
 * Why real-time reading is off (RealtimeInfo.off): 'unanswered', the first-run question about the
 * tunnel is not answered yet; 'thisRun', this run's options say so (--no-tunnel); 'setting', the
 * person turned it off in Settings; 'paused', paused for this run (the desktop tray).
 */
export type RealtimeOff = 'unanswered' | 'thisRun' | 'setting' | 'paused';

/** Where clouds reach this reader, as it is now (not just as the settings say). */
export interface RealtimeInfo {
  mode: 'tunnel' | 'public' | 'off';
  /** The tunnel URL or public base URL clouds call (null while none). */
  publicUrl: string | null;
  /** The tunnel server in use while mode is 'tunnel' (null otherwise). */
  tunnelHost: string | null;
  /** Why mode is 'off' (null while it is not). */
  off: RealtimeOff | null;
  /**
   * The first-run question: a tunnel would open but the person has not said it may (issue 35).
   * No tunnel opens until answerTunnelQuestion; the window asks, once.
   */
  tunnelQuestion: boolean;
  /**
   * The `<cloud>` element for feeds this install publishes: the app's own rssCloud server,
   * mounted at /cloud on the receiver's server, so one tunnel serves both (null while none).
   */
  cloud: CloudElement | null;
  /** The own cloud's WebSub hub for feeds this install publishes (null while no public address). */
  hub: string | null;
  /** Every real-time subscription, rssCloud and WebSub (the settings list them). */
  subscriptions: RealtimeSubscriptionView[];
  tunnel: {
    status: 'idle' | 'connecting' | 'open' | 'waiting' | 'stopped';
    lastError: string | null;
    /** ISO time of the next reconnect attempt. */
    nextAttemptAt: string | null;
  } | null;
}

export interface SubscribeInput {
  /** A feed URL or a site URL (autodiscovery finds the feed). */
  url: string;
  folder?: string | null;
  /** File it in this folder (wins over `folder`). */
  folderId?: number | null;
  /** Chosen by the UI so cancelSubscribe(requestId) can stop this one. */
  requestId?: string | null;
  credentials?: { scheme: 'basic' | 'wsse'; username: string; password: string } | null;
}

export interface OpmlImportReport {
  added: number;
  existing: number;
  /** Feeds already subscribed but unfiled that the list's folders filed (absent when none). */
  filed?: number;
  errors: string[];
  /** The feeds the list added or filed, in its order (the window shows their river). */
  feedIds?: number[];
  /** The deepest folder that holds every one of them (null: none does, or some are unfiled). */
  folderId?: number | null;
}

export interface Progress {
  active: number;
  queued: number;
}

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
  feedId?: number;
}

/** Command results that can fail on user input are values, not exceptions. */
export type ApiResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** `feedId` names the feed the error is about (code 'already_subscribed': select it). */
      error: { code: string; message: string; feedId?: number };
    };

// ---- The writer (issue 7): posts, where they are saved, whom they ping ----

/** What the composer (or the CLI) sends: one post, its optional link/enclosure/tags and outline. */
export interface PostInput {
  /** At most PublishSettings.charLimit grapheme clusters (src/publish/graphemes.ts counts them). */
  text: string;
  link?: string | null;
  /**
   * A URL (type and length are found by HEAD, falling back to a ranged GET), or a local file the
   * core copies into its data and hosts: `filePath` (CLI, Electron) or `fileName` + `dataBase64`
   * (drag-and-drop in the renderer).
   */
  enclosure?: { url?: string; filePath?: string; fileName?: string; dataBase64?: string } | null;
  tags?: string[];
  /** Sub-items, an outline to any depth (written as rssCloud:item elements). */
  children?: PostInput[];
}

/** One save target's state for a post. */
export interface PostTargetState {
  target: string /* 'hosting' | 'folder' | 'saveRss' */;
  /** The public URL this target serves the feed at (what gets pinged). */
  publicUrl: string | null;
  /** null: not tried yet. */
  ok: boolean | null;
  message: string | null;
  /** ISO time of the last attempt. */
  at: string | null;
  /** ISO time of the next retry (null: none planned). */
  nextRetryAt: string | null;
}

/** One ping's state for a post (one per public URL per cloud/sink). */
export interface PostPingState {
  kind: 'cloud' | 'weblogUpdates' | 'httpGet' | 'rssPing' | 'hub';
  endpoint: string;
  /** The feed URL that was pinged. */
  url: string;
  ok: boolean | null;
  /** The answer's message (the cloud's msg, weblogUpdates' message) or what failed. */
  message: string | null;
  at: string | null;
  nextRetryAt: string | null;
}

export interface PostView {
  id: number;
  /** Stable id written as the guid (isPermaLink="false"). */
  guid: string;
  text: string;
  link: string | null;
  enclosure: { url: string; type: string; length: number } | null;
  tags: string[];
  /** The outline; children have id 0. */
  children: PostView[];
  createdAt: string;
  updatedAt: string;
  state: 'queued' | 'publishing' | 'published' | 'retrying' | 'failed';
  saves: PostTargetState[];
  pings: PostPingState[];
  /** The cloud's answer to the latest ping (main/notifications.ts reads this shape). */
  cloudAnswer: { ok: boolean; message: string; cloud: string } | null;
}

export interface PublishSettings {
  title: string;
  description: string;
  link: string | null;
  language: string;
  /** Grapheme clusters per post (140). */
  charLimit: number;
  /** Newest posts in the feed (25); all are kept. */
  feedSize: number;
  /** Built-in hosting on the receiver's server; `private` asks readers for a login. */
  hosting: {
    enabled: boolean;
    private: null | { scheme: 'basic' | 'wsse'; username: string; password: string };
  };
  /** A folder on disk (a static site, a synced folder) served at publicUrl. */
  folder: { enabled: boolean; path: string; publicUrl: string } | null;
  /** A remote cloud with rssCloud.saveRss: the URL it returns is the feed's public URL. */
  saveRss: { enabled: boolean; cloudUrl: string; username: string; password: string } | null;
  /** The cloud named in the feed's <cloud> element: the app's own, or another. */
  cloud:
    | 'own'
    | {
        domain: string;
        port: number;
        path: string;
        protocol: 'http-post' | 'https-post' | 'xml-rpc';
        registerProcedure?: string;
      };
  pingSinks: { kind: 'weblogUpdates' | 'httpGet' | 'rssPing'; url: string }[];
  /**
   * WebSub hubs the feeds name (atom:link rel="hub", JSON Feed `hubs`) and tell of each save
   * (hub.mode=publish). 'own' is the app's own cloud's hub (the default).
   */
  hubs: string[];
  /** Publish an OPML blogroll of the subscriptions. */
  shareBlogroll: boolean;
}

export interface PublishInfo {
  /** Where the hosted feeds and home page are (null when hosting is off or no address yet). */
  feedUrls: { rss: string | null; atom: string | null; json: string | null; home: string | null };
  /** Every public URL of the RSS feed (hosting, folder, saveRss): each one is pinged. */
  publicUrls: string[];
  /** The <cloud> element the feed carries. */
  cloud: CloudElement | null;
  /** The WebSub hubs the feeds name (atom:link rel="hub", JSON Feed hubs). */
  hubs: string[];
}

// ---- Backup and restore (issue 32; docs/backup.md) ----

/** What a data folder or a backup holds, in numbers a person recognises. */
export interface DataSummary {
  feeds: number;
  folders: number;
  items: number;
  unread: number;
  starred: number;
  savedSearches: number;
  muteFilters: number;
  posts: number;
  /** Files the writer hosts (enclosures given as files). */
  mediaFiles: number;
  /** Readers subscribed to your own cloud. */
  cloudSubscribers: number;
  cloudAccounts: number;
}

/** Secrets of one kind and how many: { label: 'feed logins (...)', count: 3 }. */
export interface SecretKind {
  label: string;
  count: number;
}

/** How a backup holds the secrets: there were none, sealed with a passphrase, or left out. */
export interface BackupSecrets {
  mode: 'none' | 'sealed' | 'leftOut';
  kinds: SecretKind[];
}

/** Before a backup: what it will hold, and the secrets that go in only with a passphrase. */
export interface BackupPlan {
  summary: DataSummary;
  secrets: SecretKind[];
  /** The name to save it under: tidings-2026-11-30.tidings-backup. */
  fileName: string;
  /** At least this many characters. */
  minPassphraseLength: number;
}

export interface BackupRequest {
  /** Seals the secrets with it; null leaves them out (said in BackupReady.warnings). */
  passphrase: string | null;
}

/** A backup made and waiting to be read with readTransfer (kept for 30 minutes). */
export interface BackupReady {
  transferId: string;
  fileName: string;
  size: number;
  summary: DataSummary;
  secrets: BackupSecrets;
  warnings: string[];
}

/** How a backup file's name ends (the CLI and Settings save them so; a restore takes any name). */
export const BACKUP_FILE_EXTENSION = '.tidings-backup';

/** A transfer's pieces (readTransfer, writeUpload) carry at most this many bytes each. */
export const TRANSFER_PIECE_BYTES = 2 * 1024 * 1024;

/** One piece of a transfer (at most TRANSFER_PIECE_BYTES). */
export interface TransferChunk {
  dataBase64: string;
  /** Where the next piece starts; null after the last. */
  nextOffset: number | null;
}

/** What a backup file says of itself. */
export interface BackupFacts {
  /** ISO time it was made. */
  createdAt: string;
  /** The Tidings that made it. */
  appVersion: string;
  formatVersion: number;
  /** Bytes of the file. */
  size: number;
  summary: DataSummary;
  secrets: BackupSecrets;
}

/** What an uploaded backup holds, and what restoring it would replace. */
export interface RestorePreview extends BackupFacts {
  /** What the data folder holds now (null: nothing to replace). */
  current: DataSummary | null;
  /** Where a restore keeps the data it replaces. */
  keepsCopyIn: string;
}

export interface RestoreRequest {
  /** Opens the backup's sealed secrets. */
  passphrase: string | null;
  /** Restore without the sealed secrets. */
  skipSecrets?: boolean;
  /** The person agreed to replace the data there is (refused without it when there is some). */
  replaceExisting?: boolean;
}

export interface RestoreReport {
  /** What the data folder holds now. */
  summary: DataSummary;
  /** Where the replaced data is kept (null: there was none). */
  replacedCopy: string | null;
  warnings: string[];
}

/**
 * A bulk change the core can take back exactly (issue 17, point 9): pass `undoId` to `undo`.
 * Valid for the session, until 20 newer changes replaced it (src/app/undo.ts).
 */
export interface UndoTicket {
  undoId: number;
  /** What was done, for the toast: "Unsubscribed from Example". */
  message: string;
}

/** A new mute filter, and the way to take it back with whatever it muted. */
export interface MuteFilterAdded extends MuteFilter {
  undo: UndoTicket;
}

// ---- Reading on other devices (issue 32): the Google Reader and Fever APIs ----

/** Where one sync API answers. */
export interface SyncAddress {
  /** On this computer (the app's own servers on 127.0.0.1): for apps on this machine. */
  local: string[];
  /** From the internet: the tunnel's https address or your own public address; null while none. */
  public: string | null;
  /** A QR code of the public address for a phone's camera (an SVG data: URL); null while none. */
  qr: string | null;
}

export interface SyncInfo {
  /** Off (the default): both APIs answer 404, as if they were not there. */
  enabled: boolean;
  userName: string | null;
  /** An app password exists (it is never shown again after it was made). */
  hasPassword: boolean;
  /** ISO time the app password was made. */
  passwordSetAt: string | null;
  /** Apps logged in with it (Google Reader logins; Fever sends its key each time). */
  logins: number;
  /** ISO time a logged-in app last synced. */
  lastSyncAt: string | null;
  greader: SyncAddress;
  fever: SyncAddress;
}

/** A new app password, shown once: only slow hashes of it are kept. */
export interface SyncPassword {
  password: string;
  info: SyncInfo;
}

/** Moving in from FreshRSS or Miniflux: their Google Reader API's address and API login. */
export interface GReaderImportInput {
  /** FreshRSS: https://host/api/greader.php; Miniflux: its own address. */
  url: string;
  user: string;
  password: string;
}

export interface GReaderImportReport {
  /** Subscriptions added, and those already here. */
  added: number;
  existing: number;
  /** Starred items brought over (with their read state). */
  starred: number;
  /** What could not come, in words. */
  errors: string[];
}

export interface TidingsApi {
  subscribe(input: SubscribeInput): Promise<ApiResult<FeedView>>;
  /** Removes the feed with its items; the ticket puts it all back (null: no such feed). */
  unsubscribe(feedId: number): Promise<UndoTicket | null>;
  /** Takes back a change whose ticket it is: once; an error when it cannot (expired, conflict). */
  undo(undoId: number): Promise<ApiResult<true>>;
  listFeeds(): Promise<FeedView[]>;
  importOpml(text: string): Promise<ApiResult<OpmlImportReport>>;
  exportOpml(): Promise<string>;
  /** Fetch now (one feed or all), ignoring ttl: the user asked. */
  refresh(feedId?: number | null): Promise<void>;
  river(query: RiverQuery): Promise<RiverPage>;
  markRead(itemIds: number[], read: boolean): Promise<void>;
  markFeedRead(feedId: number): Promise<void>;
  setStarred(itemId: number, starred: boolean): Promise<void>;
  search(query: string, limit?: number): Promise<RiverItem[]>;
  /**
   * Items by id, in the order asked (gone ones left out, at most 500): the river re-reads the
   * items a 'river.changed' names in `changedItems`, in place.
   */
  riverItemsById(itemIds: number[]): Promise<RiverItem[]>;
  getSettings(): Promise<Settings>;
  updateSettings(patch: Partial<Settings>): Promise<Settings>;
  progress(): Promise<Progress>;
  /** The rssCloud activity log, newest first (bounded). */
  activity(limit?: number): Promise<ActivityEntry[]>;
  /** The log of every fetch, newest first (bounded), optionally one feed's. */
  fetchLog(query?: FetchLogQuery): Promise<FetchLogEntry[]>;
  /** Real-time reading's public address and tunnel state. */
  realtimeInfo(): Promise<RealtimeInfo>;
  /**
   * The first-run question's answer (remembered, as Settings > Real time's tunnel box): true opens
   * the tunnel now, false keeps it closed and feeds polled.
   */
  answerTunnelQuestion(open: boolean): Promise<RealtimeInfo>;
  /** Store a post (one transaction), then save and ping it in the background (see post.changed). */
  post(input: PostInput): Promise<ApiResult<PostView>>;
  /** Change a post: the feed is rebuilt, saved and pinged again. */
  editPost(id: number, input: PostInput): Promise<ApiResult<PostView>>;
  deletePost(id: number): Promise<ApiResult<true>>;
  /** Every post, newest first, with its publish state. */
  listPosts(): Promise<PostView[]>;
  /** The composer's draft, kept across restarts (null clears it). */
  saveDraft(draft: PostInput | null): Promise<void>;
  getDraft(): Promise<PostInput | null>;
  getPublishSettings(): Promise<PublishSettings>;
  updatePublishSettings(patch: Partial<PublishSettings>): Promise<ApiResult<PublishSettings>>;
  publishInfo(): Promise<PublishInfo>;
  /** Grapheme clusters in text (the renderer counts itself with src/publish/graphemes.ts). */
  countChars(text: string): Promise<number>;

  // Reading experience (issue 9)
  /** Stops a subscribe() still discovering; true when one with that requestId was running. */
  cancelSubscribe(requestId: string): Promise<boolean>;
  /** Title, folder, interval, notifications, images allow list. */
  updateFeed(feedId: number, patch: FeedSettingsPatch): Promise<ApiResult<FeedView>>;
  /**
   * Edit address: the feed moves to a new address (a feed's, or a site's to discover it from),
   * keeping its items, read state, folder and settings; the address is fetched once, and nothing
   * changes unless it answers with a feed. A 'notice' says "moved to <address>".
   */
  moveFeed(feedId: number, url: string): Promise<ApiResult<FeedView>>;
  /** Every folder, parents before children, siblings by title. */
  listFolders(): Promise<FolderView[]>;
  createFolder(title: string, parentId?: number | null): Promise<ApiResult<FolderView>>;
  renameFolder(folderId: number, title: string): Promise<ApiResult<FolderView>>;
  /** Nest a folder under another (null: top level). Refuses moving into its own subtree. */
  moveFolder(folderId: number, parentId: number | null): Promise<ApiResult<FolderView>>;
  /** Deletes the folder; its feeds and subfolders move up to its parent (nothing is unsubscribed). */
  deleteFolder(folderId: number): Promise<ApiResult<UndoTicket>>;
  /** Marks every item in the folder and its subfolders read. */
  markFolderRead(folderId: number): Promise<void>;
  /** Marks every item read (Shift+A in All). */
  markAllRead(): Promise<void>;
  searchItems(request: SearchRequest): Promise<SearchResults>;
  listSavedSearches(): Promise<SavedSearch[]>;
  saveSearch(input: SavedSearchInput): Promise<ApiResult<SavedSearch>>;
  deleteSavedSearch(id: number): Promise<void>;
  listMuteFilters(): Promise<MuteFilter[]>;
  addMuteFilter(input: MuteFilterInput): Promise<ApiResult<MuteFilterAdded>>;
  updateMuteFilter(id: number, input: MuteFilterInput): Promise<ApiResult<MuteFilter>>;
  deleteMuteFilter(id: number): Promise<void>;
  /** Undo a mute on one item: shown again, and unread again if the filter had marked it read. */
  unmuteItem(itemId: number): Promise<void>;

  // Reading on other devices (issue 32)
  syncInfo(): Promise<SyncInfo>;
  /** Turns the Google Reader and Fever APIs on or off (the app password is kept while off). */
  setSyncEnabled(enabled: boolean): Promise<SyncInfo>;
  /** Makes a new app password for this user name, returned once; every login made before ends. */
  newSyncPassword(userName: string): Promise<ApiResult<SyncPassword>>;
  /** Forgets the app password: every login ends, and none works until a new one is made. */
  revokeSyncPassword(): Promise<SyncInfo>;
  /** Subscriptions with their folders, and starred items, from another reader's Google Reader API. */
  importFromGReader(input: GReaderImportInput): Promise<ApiResult<GReaderImportReport>>;

  // Backup and restore (issue 32): files cross the API in pieces, as base64 (both transports).
  /** What a backup would hold now, and which secrets need a passphrase to go in. */
  backupPlan(): Promise<BackupPlan>;
  /** Makes a backup (consistent while the app runs); read it with readTransfer. */
  createBackup(request: BackupRequest): Promise<ApiResult<BackupReady>>;
  /** A piece of a made backup, from `offset`. */
  readTransfer(transferId: string, offset: number): Promise<ApiResult<TransferChunk>>;
  /** Starts an upload of a backup of `size` bytes to restore. */
  startUpload(size: number): Promise<ApiResult<{ transferId: string }>>;
  /** Writes a piece of an upload at `offset` (pieces in order, at most 2 MiB each). */
  writeUpload(
    transferId: string,
    offset: number,
    dataBase64: string,
  ): Promise<ApiResult<{ received: number }>>;
  /** Checks an uploaded backup and says what restoring it would replace; changes nothing. */
  previewRestore(transferId: string): Promise<ApiResult<RestorePreview>>;
  /**
   * Replaces the data with the uploaded backup's (the current data is kept in replaced/<time>/)
   * and reloads every store; 'data.restored' then tells every window.
   */
  restoreBackup(transferId: string, request: RestoreRequest): Promise<ApiResult<RestoreReport>>;
  /** Forgets a transfer (a made backup once saved, an upload not restored). */
  discardTransfer(transferId: string): Promise<void>;

  // Reading as a habit (issue 35)
  /** Marks read what is older than some hours in a view; the ticket marks them unread again (null: none). */
  markOlderRead(input: MarkOlderInput): Promise<UndoTicket | null>;
  /** The item's article for the reader view: cached, or fetched and extracted (`refresh`: again). */
  fullText(itemId: number, refresh?: boolean): Promise<ApiResult<FullTextView>>;
  /** Where an episode is (the player says so as it plays, and when it pauses or ends). */
  savePlayback(input: PlaybackInput): Promise<void>;
  /** Played or unplayed by hand. */
  setPlayed(itemId: number, played: boolean): Promise<void>;
  /** The episode in the player (null: none), with where it was left. */
  nowPlaying(): Promise<NowPlaying | null>;
  /** Puts an item's episode in the player (null: the player closed). */
  setNowPlaying(input: { itemId: number; url: string } | null): Promise<void>;
}

export interface TidingsEvents {
  /**
   * New items reached the river (`newItems`), and/or items already there changed (`changedItems`:
   * their ids, e.g. an edited post; an open river re-reads them with riverItemsById).
   */
  'river.changed': { feedId: number; newItems: number; changedItems: number[] };
  /** A feed's row changed (status, error, counts, next due). */
  'feed.status': FeedView;
  /** Subscriptions were added or removed. */
  'feeds.changed': { count: number };
  /** Folders were created, renamed, moved or deleted, or their unread totals changed. */
  'folders.changed': { count: number };
  /** Saved searches or mute filters changed. */
  'filters.changed': { savedSearches: number; muteFilters: number };
  /** A subscribe() in progress: what discovery is trying now. */
  'subscribe.progress': { requestId: string; message: string };
  progress: Progress;
  /** Something the user should be told: a feed moved, went away... */
  notice: Notice;
  /** An rssCloud call in or out was recorded. */
  activity: ActivityEntry;
  /** A feed was fetched (or the fetch failed): the fetch log's new entry. */
  fetch: FetchLogEntry;
  /**
   * The desktop shell asks the UI to run one of its commands (the tray's "New post", a menu item):
   * the renderer runs it exactly as if its key had been pressed. Only Electron main emits it.
   */
  'shell.command': { command: CommandId };
  /**
   * The desktop shell was asked to subscribe (a `feed:` link, `--subscribe URL`): the UI asks the
   * person first, never subscribes silently. Only Electron main emits it.
   */
  'shell.subscribeRequest': { url: string };
  /**
   * The desktop shell opened an OPML file (or offers the suggested subscriptions on first run,
   * `suggested`): the UI shows what it holds and imports only when confirmed.
   */
  'shell.importRequest': { fileName: string; text: string; suggested: boolean };
  /** A notification was clicked: show this feed (null: the whole river) and item. */
  'shell.openItem': { feedId: number | null; itemId: number | null };
  /** A post was made, edited, or its saves/pings progressed. */
  'post.changed': PostView;
  'post.deleted': { id: number };
  /** A backup was restored: every store was reloaded, so a window loads everything again. */
  'data.restored': RestoreReport;
}

export type EventName = keyof TidingsEvents;
export type Unsubscribe = () => void;

/** What a UI holds: the commands plus event subscriptions. */
export interface TidingsClient extends TidingsApi {
  on<E extends EventName>(event: E, listener: (payload: TidingsEvents[E]) => void): Unsubscribe;
}

/** Backup and restore: answered above the app open on the data folder (src/app/replaceable.ts). */
export const BACKUP_METHODS = [
  'backupPlan',
  'createBackup',
  'readTransfer',
  'startUpload',
  'writeUpload',
  'previewRestore',
  'restoreBackup',
  'discardTransfer',
] as const satisfies readonly (keyof TidingsApi)[];
export type BackupMethod = (typeof BACKUP_METHODS)[number];

/** The list the generic proxies use; `satisfies` keeps it in step with the interface. */
export const API_METHODS = [
  'subscribe',
  'unsubscribe',
  'undo',
  'listFeeds',
  'importOpml',
  'exportOpml',
  'refresh',
  'river',
  'markRead',
  'markFeedRead',
  'setStarred',
  'search',
  'riverItemsById',
  'getSettings',
  'updateSettings',
  'progress',
  'activity',
  'fetchLog',
  'realtimeInfo',
  'answerTunnelQuestion',
  'post',
  'editPost',
  'deletePost',
  'listPosts',
  'saveDraft',
  'getDraft',
  'getPublishSettings',
  'updatePublishSettings',
  'publishInfo',
  'countChars',
  'cancelSubscribe',
  'updateFeed',
  'moveFeed',
  'listFolders',
  'createFolder',
  'renameFolder',
  'moveFolder',
  'deleteFolder',
  'markFolderRead',
  'markAllRead',
  'searchItems',
  'listSavedSearches',
  'saveSearch',
  'deleteSavedSearch',
  'listMuteFilters',
  'addMuteFilter',
  'updateMuteFilter',
  'deleteMuteFilter',
  'unmuteItem',
  'syncInfo',
  'setSyncEnabled',
  'newSyncPassword',
  'revokeSyncPassword',
  'importFromGReader',
  ...BACKUP_METHODS,
  'markOlderRead',
  'fullText',
  'savePlayback',
  'setPlayed',
  'nowPlaying',
  'setNowPlaying',
] as const satisfies readonly (keyof TidingsApi)[];

export type ApiMethod = (typeof API_METHODS)[number];

/** Compile-time check that API_METHODS names every method of TidingsApi. */
type _AllListed = Exclude<keyof TidingsApi, ApiMethod> extends never ? true : never;
export const API_METHODS_COMPLETE: _AllListed = true;
