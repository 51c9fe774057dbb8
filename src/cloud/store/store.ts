/**
 * The cloud's store: ONE interface (CloudStore) and the rows it reads and writes, implemented by
 * two engines that pass the same behaviour tests: SqliteCloudStore (sqlite.ts, one file, one
 * process) and PgCloudStore (pg.ts, one PostgreSQL database every instance of a cloud shares).
 * Their shared pieces (column lists, row values, counters) are in rows.ts.
 */
import type { NewWebSub, NotifyProtocol } from '../core/types.ts';

/** How a subscriber is delivered to: the rssCloud notify forms, or WebSub content distribution. */
export type SubscriberProtocol = NotifyProtocol | 'websub';

export interface SubscriptionRow {
  id: number;
  feedUrl: string;
  callbackUrl: string;
  protocol: SubscriberProtocol;
  notifyProcedure: string | null;
  ctUpdates: number;
  ctErrors: number;
  ctConsecutiveErrors: number;
  lastError: string | null;
  whenCreated: number;
  whenLastUpdate: number | null;
  whenLastError: number | null;
  whenExpires: number;
  /** WebSub: the subscriber's secret for X-Hub-Signature (null: unsigned deliveries). */
  secret: string | null;
  /** WebSub: the lease granted, in seconds. */
  leaseSeconds: number | null;
  /** 'pending' until the hub has verified the subscriber's intent (WebSub); never delivered to. */
  state: 'active' | 'pending';
}

/** A subscription as written whole (the test API's setSubscriptions, bulk setup). */
export type SeedSubscription = Omit<SubscriptionRow, 'id' | 'feedUrl' | 'lastError'> & {
  lastError?: string | null;
};

export interface ResourceRow {
  url: string;
  lastHash: string | null;
  lastSize: number | null;
  etag: string | null;
  lastModified: string | null;
  title: string | null;
  ctChecks: number;
  whenLastCheck: number | null;
  ctUpdates: number;
  whenLastUpdate: number | null;
  /** The site a weblogUpdates ping or an RSS Ping named (changes.xml shows it). */
  siteName: string | null;
  siteUrl: string | null;
}

/** What beginCheck found. */
export interface CheckStart {
  before: ResourceRow | undefined;
  /** The last check was too recent: nothing was written, and `saved` was not read. */
  tooRecent: boolean;
  saved: SavedFeedRow | undefined;
}

/** A change for changes.xml: the site (or the feed) and when. */
export interface RecentChange {
  url: string;
  siteName: string | null;
  siteUrl: string | null;
  whenLastUpdate: number;
}

/** What a fan-out needs of a subscription (lighter than the whole row at 10,000). */
export interface DeliveryTarget {
  id: number;
  callbackUrl: string;
  protocol: SubscriberProtocol;
  notifyProcedure: string | null;
  /** WebSub only: the HMAC key for X-Hub-Signature. */
  secret?: string | null;
}

export interface NewSubscription {
  feedUrl: string;
  callbackUrl: string;
  protocol: NotifyProtocol;
  notifyProcedure: string | null;
}

export interface DeliveryResult {
  id: number;
  ok: boolean;
  at: number;
  error?: string;
  /** The subscriber answered 410 Gone: the subscription is deleted (WebSub). */
  gone?: boolean;
  /** The subscriber did not answer within the delivery's budget (counted apart in /metrics). */
  timedOut?: boolean;
}

/** A body delivered to WebSub subscribers, kept for those whose delivery is tried again. */
export interface RetryContent {
  feedUrl: string;
  body: Uint8Array;
  contentType: string | null;
  /**
   * The resource's hash when this body was read, the body's own sha256 (null: not read by the
   * cloud, as a body handed to notifyChanged): a retry of a topic read since with another hash is
   * dropped.
   */
  topicHash: string | null;
}

/** What a fan-out's outcomes mean for retries (RetryStore.recordWithRetries). */
export interface RetryPlan {
  content: RetryContent;
  /** Subscriptions whose failure is tried again (WebSub, not 410). */
  retryIds: ReadonlySet<number>;
  /** Their next try; null: this was the last one. */
  next: { attempt: number; dueAt: number } | null;
  /** The fan-out was itself a retry of this content: its rows are settled by these outcomes. */
  retried: number | null;
}

/** Retries due, one group per content and attempt, with the subscribers still live. */
export interface DueRetry {
  contentId: number;
  feedUrl: string;
  content: RetryContent;
  attempt: number;
  targets: DeliveryTarget[];
}

/**
 * Failed WebSub deliveries waiting to be tried again, kept in the store so they survive a restart
 * (delivery/retries.ts; SQLite). A cloud on PostgreSQL keeps them in its shared queue instead.
 */
export interface RetryStore {
  /** recordDeliveries, and the retries the outcomes call for, in one transaction. */
  recordWithRetries(results: readonly DeliveryResult[], plan: RetryPlan): Promise<void>;
  /**
   * Up to `limit` retries due at `now`. Those no longer owed (the subscription is gone or no longer
   * live, or the topic was read with another hash since) are dropped instead.
   */
  dueRetries(now: number, limit: number): Promise<DueRetry[]>;
  /** When the next retry is due (null: none waits). */
  nextRetryAt(): Promise<number | null>;
}

/** The store's retries, when it keeps them (SQLite). */
export function retryStoreOf(store: CloudStore): RetryStore | null {
  return 'recordWithRetries' in store ? (store as CloudStore & RetryStore) : null;
}

/** What a sweep removed. */
export interface SweepResult {
  subscriptionsRemoved: number;
  resourcesRemoved: number;
}

export interface AccountRow {
  name: string;
  passwordHash: string;
  whenCreated: number;
}

export interface SavedFeedRow {
  name: string;
  publicUrl: string;
  body: string;
  contentType: string;
  hash: string;
  whenSaved: number;
}

export type CounterName =
  | 'pings'
  | 'changes'
  | 'registrations'
  | 'registrationsFailed'
  | 'notifications'
  | 'notificationsFailed'
  | 'feedsSaved';

/** A subscription is live until it expires or has failed this many notifications in a row. */
export const MAX_CONSECUTIVE_ERRORS = 3;

/** The figures of the status page. */
export interface StoreCounts {
  liveSubscriptions: number;
  liveFeeds: number;
  allSubscriptions: number;
  savedFeeds: number;
  accounts: number;
}

/** What a cloud holds, by protocol, for /metrics (read on each scrape). */
export interface StoreCensus {
  /** Live subscriptions, and the resources they subscribe to, by the subscribers' protocol. */
  byProtocol: { protocol: SubscriberProtocol; subscribers: number; resources: number }[];
  /** Live WebSub subscriptions whose lease ends within the window asked (not yet renewed). */
  leasesEndingSoon: number;
}

/** A subscription as the bulk setup writes it (tests, the benches). */
export type BulkSubscription = Omit<NewSubscription, 'protocol'> & {
  protocol: SubscriberProtocol;
  expiresAt: number;
  consecutiveErrors?: number;
  secret?: string | null;
  leaseSeconds?: number | null;
};

/**
 * Everything the cloud keeps, behind one asynchronous interface: SqliteCloudStore (below, the
 * embedded default: one file, one process) and PgCloudStore (store/pg.ts: one PostgreSQL database
 * shared by every instance of a cloud) pass the same behaviour tests. Each method is one atomic
 * step (a statement or a transaction), so concurrent callers on any instance never lose a write.
 */
export interface CloudStore {
  /** 'sqlite' or 'postgres' (the status page says which). */
  readonly kind: 'sqlite' | 'postgres';
  /** Resolves when the store can be used (PostgreSQL: connected and migrated); rejects with why not. */
  ready(): Promise<void>;
  /** A verified registration: new, or a renewal that refreshes expiry and clears the error count. */
  upsertSubscription(sub: NewSubscription, now: number, expiresAt: number): Promise<void>;
  /** Bulk setup (tests, the fan-out bench): one transaction, rows as given, active. */
  insertSubscriptions(subs: readonly BulkSubscription[], now: number): Promise<void>;
  /** Subscribers to notify: verified, not expired, fewer than 3 failures in a row. */
  liveSubscriptions(feedUrl: string, now: number): Promise<SubscriptionRow[]>;
  /**
   * The same subscribers, only what delivering needs, a page at a time in callback-URL order
   * after `afterUrl` (see targetPages).
   */
  liveTargetsPage(feedUrl: string, now: number, afterUrl: string, limit: number): Promise<DeliveryTarget[]>;
  getSubscription(feedUrl: string, callbackUrl: string): Promise<SubscriptionRow | undefined>;
  allSubscriptions(): Promise<SubscriptionRow[]>;
  /** Delivery outcomes of a fan-out, written in one transaction. */
  recordDeliveries(results: readonly DeliveryResult[]): Promise<void>;
  removeExpired(now: number): Promise<number>;
  /**
   * Expired or exhausted subscriptions, then resources nobody subscribes to that did not change
   * within `retainMs` and have no registration under way (beginRegistration). `wait`: on a store
   * shared by instances, wait for another instance's sweep to end instead of leaving it the work
   * (the test API, whose caller reads what was removed).
   */
  sweep(now: number, retainMs: number, opts?: { wait?: boolean }): Promise<SweepResult>;
  /**
   * A registration of the feed starts (its resource is read before its subscription is stored):
   * the sweep keeps the resource until endRegistration, or until `until` should the process die.
   */
  beginRegistration(feedUrl: string, until: number): Promise<number>;
  endRegistration(id: number): Promise<void>;
  /** A WebSub subscribe asked for: a pending row unless the callback already has one. */
  addPendingWebSub(sub: NewWebSub, now: number, expiresAt: number): Promise<boolean>;
  /** A WebSub subscription whose intent was verified: active with its secret and lease. */
  activateWebSub(sub: NewWebSub, now: number, expiresAt: number): Promise<void>;
  /** Verification failed: a row that never became active goes. */
  dropPending(feedUrl: string, callbackUrl: string): Promise<void>;
  removeSubscription(feedUrl: string, callbackUrl: string): Promise<boolean>;
  countForCallback(callbackUrl: string): Promise<number>;
  /** Every subscription of one feed, pending ones too, oldest first. */
  subscriptionsOf(feedUrl: string): Promise<SubscriptionRow[]>;
  /** The feed's subscriptions replaced by these, in one transaction (the test API). */
  replaceSubscriptions(feedUrl: string, rows: readonly SeedSubscription[]): Promise<void>;
  putResource(
    row: Omit<ResourceRow, 'etag' | 'lastModified' | 'title' | 'siteName' | 'siteUrl'>,
  ): Promise<void>;
  /** Forgets every subscription and resource; accounts and saved feeds stay. */
  clearFeeds(): Promise<void>;
  nameSite(url: string, siteName: string | null, siteUrl: string | null): Promise<void>;
  recentChanges(since: number, limit: number): Promise<RecentChange[]>;
  getResource(url: string): Promise<ResourceRow | undefined>;
  allResources(): Promise<ResourceRow[]>;
  touchResource(url: string, now: number): Promise<void>;
  /**
   * The start of a read in one step (optional; resource.ts does the same in four calls without
   * it): the resource as it was, and unless its last check is less than `minIntervalSec` ago
   * (0: no minimum), the check counted (touchResource) and the feed saved at that URL.
   */
  beginCheck?(url: string, now: number, minIntervalSec: number): Promise<CheckStart>;
  /**
   * Records a read and says whether it changed the resource (hash or size differ from the last
   * read), compared and written in one step: of two instances reading one change, one sees it.
   */
  recordContent(url: string, c: ContentSeen, now: number): Promise<boolean>;
  bump(name: CounterName, by?: number): Promise<void>;
  counters(): Promise<Record<CounterName, number>>;
  counts(now: number): Promise<StoreCounts>;
  /** Live subscribers and resources by protocol, and WebSub leases ending within `soonMs` of `now`. */
  census(now: number, soonMs: number): Promise<StoreCensus>;
  /** Resolves when the database answers a trivial statement (/readyz); rejects with why not. */
  probe(): Promise<void>;
  addAccount(name: string, passwordHash: string, now: number): Promise<void>;
  setPassword(name: string, passwordHash: string): Promise<boolean>;
  getAccount(name: string): Promise<AccountRow | undefined>;
  listAccounts(): Promise<AccountRow[]>;
  removeAccount(name: string): Promise<boolean>;
  saveFeed(row: SavedFeedRow): Promise<void>;
  savedFeedByName(name: string): Promise<SavedFeedRow | undefined>;
  savedFeedByUrl(url: string): Promise<SavedFeedRow | undefined>;
  close(): Promise<void>;
}

/** What a read of a resource found. */
export interface ContentSeen {
  hash: string;
  size: number;
  etag: string | null;
  lastModified: string | null;
  title: string | null;
}
