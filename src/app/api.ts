/**
 * The one API contract between the core and every UI (STYLE: one contract crosses processes).
 * Electron carries it over IPC, browser mode over HTTP + WebSocket; both proxies are generic over
 * API_METHODS, so adding a command means adding it here and in the implementation, nothing else.
 * Everything here must be JSON-serialisable.
 */
import type { Category, CloudElement, Enclosure, Person } from '../feed/model.ts';
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
}

/** River5's shape: one feed update = that feed's new items, together, under its title. */
export interface RiverGroup {
  feedId: number;
  feedTitle: string;
  feedLink: string | null;
  /** seenAt of the newest item in the group. */
  updatedAt: string;
  items: RiverItem[];
}

export interface RiverQuery {
  /** Opaque cursor from a previous page. */
  cursor?: string | null;
  limit?: number;
  feedId?: number | null;
  unreadOnly?: boolean;
  starredOnly?: boolean;
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

/** Where clouds reach this reader. */
export interface RealtimeInfo {
  mode: 'tunnel' | 'public' | 'off';
  /** The tunnel URL or public base URL clouds call (null while none). */
  publicUrl: string | null;
  /**
   * The `<cloud>` element for feeds this install publishes: the app's own rssCloud server,
   * mounted at /cloud on the receiver's server, so one tunnel serves both (null while none).
   */
  cloud: CloudElement | null;
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
  credentials?: { scheme: 'basic' | 'wsse'; username: string; password: string } | null;
}

export interface OpmlImportReport {
  added: number;
  existing: number;
  errors: string[];
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
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

export interface TidingsApi {
  subscribe(input: SubscribeInput): Promise<ApiResult<FeedView>>;
  unsubscribe(feedId: number): Promise<void>;
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
  getSettings(): Promise<Settings>;
  updateSettings(patch: Partial<Settings>): Promise<Settings>;
  progress(): Promise<Progress>;
  /** The rssCloud activity log, newest first (bounded). */
  activity(limit?: number): Promise<ActivityEntry[]>;
  /** Real-time reading's public address and tunnel state. */
  realtimeInfo(): Promise<RealtimeInfo>;
}

export interface TidingsEvents {
  /** New items reached the river. */
  'river.changed': { feedId: number; newItems: number };
  /** A feed's row changed (status, error, counts, next due). */
  'feed.status': FeedView;
  /** Subscriptions were added or removed. */
  'feeds.changed': { count: number };
  progress: Progress;
  /** Something the user should be told: a feed moved, went away... */
  notice: Notice;
  /** An rssCloud call in or out was recorded. */
  activity: ActivityEntry;
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
}

export type EventName = keyof TidingsEvents;
export type Unsubscribe = () => void;

/** What a UI holds: the commands plus event subscriptions. */
export interface TidingsClient extends TidingsApi {
  on<E extends EventName>(event: E, listener: (payload: TidingsEvents[E]) => void): Unsubscribe;
}

/** The list the generic proxies use; `satisfies` keeps it in step with the interface. */
export const API_METHODS = [
  'subscribe',
  'unsubscribe',
  'listFeeds',
  'importOpml',
  'exportOpml',
  'refresh',
  'river',
  'markRead',
  'markFeedRead',
  'setStarred',
  'search',
  'getSettings',
  'updateSettings',
  'progress',
  'activity',
  'realtimeInfo',
] as const satisfies readonly (keyof TidingsApi)[];

export type ApiMethod = (typeof API_METHODS)[number];

/** Compile-time check that API_METHODS names every method of TidingsApi. */
type _AllListed = Exclude<keyof TidingsApi, ApiMethod> extends never ? true : never;
export const API_METHODS_COMPLETE: _AllListed = true;
