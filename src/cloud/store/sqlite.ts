/**
 * The cloud's state in one SQLite file: subscriptions, the resources (feeds) it has read,
 * accounts for saveRss, the feeds saved through it, and counters. Survives restart and kill -9
 * (WAL, see openDatabase).
 *
 * Subscriptions are rows keyed (feed_url, callback_url) and every registration is one
 * INSERT .. ON CONFLICT DO UPDATE: concurrent registrations for one feed never overwrite each
 * other (the reference cloud read-modified-wrote one list per feed and kept 63 of 1,000).
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { type Migration, openDatabase, transaction } from '../../store/sqlite.ts';
import type { NewWebSub } from '../core/types.ts';
import {
  ACCOUNT_COLUMNS,
  countersFrom,
  FEED_COLUMNS,
  RESOURCE_COLUMNS,
  SUB_COLUMNS,
  seedValues,
  TARGET_COLUMNS,
} from './rows.ts';
import {
  type AccountRow,
  type BulkSubscription,
  type CloudStore,
  type ContentSeen,
  type CounterName,
  type DeliveryResult,
  type DeliveryTarget,
  type DueRetry,
  MAX_CONSECUTIVE_ERRORS,
  type NewSubscription,
  type RecentChange,
  type ResourceRow,
  type RetryPlan,
  type RetryStore,
  type SavedFeedRow,
  type SeedSubscription,
  type StoreCensus,
  type StoreCounts,
  type SubscriptionRow,
  type SweepResult,
} from './store.ts';

const sha256 = (body: Uint8Array) => createHash('sha256').update(body).digest('hex');

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE resources (
  url TEXT PRIMARY KEY,
  last_hash TEXT,
  last_size INTEGER,
  etag TEXT,
  last_modified TEXT,
  title TEXT,
  ct_checks INTEGER NOT NULL DEFAULT 0,
  when_last_check INTEGER,
  ct_updates INTEGER NOT NULL DEFAULT 0,
  when_last_update INTEGER
);
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL,
  callback_url TEXT NOT NULL,
  protocol TEXT NOT NULL CHECK (protocol IN ('http-post', 'https-post', 'xml-rpc')),
  notify_procedure TEXT,
  ct_updates INTEGER NOT NULL DEFAULT 0,
  ct_errors INTEGER NOT NULL DEFAULT 0,
  ct_consecutive_errors INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  when_created INTEGER NOT NULL,
  when_last_update INTEGER,
  when_last_error INTEGER,
  when_expires INTEGER NOT NULL,
  UNIQUE (feed_url, callback_url)
);
CREATE INDEX subscriptions_expiry ON subscriptions(when_expires);
CREATE TABLE accounts (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  when_created INTEGER NOT NULL
);
CREATE TABLE saved_feeds (
  name TEXT PRIMARY KEY COLLATE NOCASE REFERENCES accounts(name) ON DELETE CASCADE,
  public_url TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  content_type TEXT NOT NULL,
  hash TEXT NOT NULL,
  when_saved INTEGER NOT NULL
);
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
`,
  },
  {
    // One subscriber list for every protocol (issue 15): WebSub subscriptions are rows here too,
    // with their secret, granted lease and verification state; a pending row is one whose intent
    // the hub has not verified yet (never delivered to). Resources remember the site a
    // weblogUpdates / RSS Ping named, for changes.xml. SQLite cannot alter a CHECK: rebuild.
    version: 2,
    rebuildsTables: true,
    sql: `
CREATE TABLE subscriptions_v2 (
  id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL,
  callback_url TEXT NOT NULL,
  protocol TEXT NOT NULL CHECK (protocol IN ('http-post', 'https-post', 'xml-rpc', 'websub')),
  notify_procedure TEXT,
  ct_updates INTEGER NOT NULL DEFAULT 0,
  ct_errors INTEGER NOT NULL DEFAULT 0,
  ct_consecutive_errors INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  when_created INTEGER NOT NULL,
  when_last_update INTEGER,
  when_last_error INTEGER,
  when_expires INTEGER NOT NULL,
  secret TEXT,
  lease_seconds INTEGER,
  state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'pending')),
  UNIQUE (feed_url, callback_url)
);
INSERT INTO subscriptions_v2 (id, feed_url, callback_url, protocol, notify_procedure, ct_updates, ct_errors,
  ct_consecutive_errors, last_error, when_created, when_last_update, when_last_error, when_expires)
  SELECT id, feed_url, callback_url, protocol, notify_procedure, ct_updates, ct_errors,
  ct_consecutive_errors, last_error, when_created, when_last_update, when_last_error, when_expires
  FROM subscriptions;
DROP TABLE subscriptions;
ALTER TABLE subscriptions_v2 RENAME TO subscriptions;
CREATE INDEX subscriptions_expiry ON subscriptions(when_expires);
CREATE INDEX subscriptions_callback ON subscriptions(callback_url);
ALTER TABLE resources ADD COLUMN site_name TEXT;
ALTER TABLE resources ADD COLUMN site_url TEXT;
CREATE INDEX resources_updated ON resources(when_last_update);
`,
  },
  {
    // Registrations under way (a resource read before its subscription is stored: the sweep keeps
    // it meanwhile), and WebSub deliveries waiting to be tried again (delivery/retries.ts): one
    // row per subscription (the newest content it is owed), the content kept once per feed and body.
    version: 3,
    sql: `
CREATE TABLE registrations (
  id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL,
  until INTEGER NOT NULL
);
CREATE INDEX registrations_feed ON registrations(feed_url);
CREATE TABLE retry_contents (
  id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL,
  body BLOB NOT NULL,
  content_type TEXT,
  hash TEXT NOT NULL,
  topic_hash TEXT,
  UNIQUE (feed_url, hash)
);
CREATE TABLE delivery_retries (
  subscription_id INTEGER PRIMARY KEY REFERENCES subscriptions(id) ON DELETE CASCADE,
  content_id INTEGER NOT NULL REFERENCES retry_contents(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  due_at INTEGER NOT NULL
);
CREATE INDEX delivery_retries_due ON delivery_retries(due_at);
CREATE INDEX delivery_retries_content ON delivery_retries(content_id);
`,
  },
];

/** Delivered to: verified, not expired, fewer than 3 failures in a row. */
const LIVE = `state = 'active' AND when_expires > ? AND ct_consecutive_errors < ${MAX_CONSECUTIVE_ERRORS}`;

export class SqliteCloudStore implements CloudStore, RetryStore {
  readonly kind = 'sqlite';
  readonly db: DatabaseSync;
  private readonly s: Statements;

  async ready(): Promise<void> {}

  constructor(db: DatabaseSync) {
    this.db = db;
    this.s = prepareStatements(db);
  }

  static open(path: string): SqliteCloudStore {
    return new SqliteCloudStore(openDatabase(path, MIGRATIONS));
  }

  /** A verified registration: new, or a renewal that refreshes expiry and clears the error count. */
  async upsertSubscription(sub: NewSubscription, now: number, expiresAt: number): Promise<void> {
    this.s.upsertSub.run(
      sub.feedUrl,
      sub.callbackUrl,
      sub.protocol,
      sub.notifyProcedure,
      now,
      now,
      expiresAt,
    );
  }

  /** Bulk setup (tests, the fan-out bench): one transaction, rows as given, active. */
  async insertSubscriptions(subs: readonly BulkSubscription[], now: number): Promise<void> {
    const stmt =
      this.db.prepare(`INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure,
        ct_consecutive_errors, when_created, when_expires, secret, lease_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (feed_url, callback_url) DO UPDATE SET protocol = excluded.protocol,
        notify_procedure = excluded.notify_procedure, ct_consecutive_errors = excluded.ct_consecutive_errors,
        when_expires = excluded.when_expires, secret = excluded.secret, lease_seconds = excluded.lease_seconds,
        state = 'active'`);
    transaction(this.db, () => {
      for (const s of subs) {
        stmt.run(
          s.feedUrl,
          s.callbackUrl,
          s.protocol,
          s.notifyProcedure,
          s.consecutiveErrors ?? 0,
          now,
          s.expiresAt,
          s.secret ?? null,
          s.leaseSeconds ?? null,
        );
      }
    });
  }

  /** Subscribers to notify: not expired, fewer than 3 failures in a row. */
  async liveSubscriptions(feedUrl: string, now: number): Promise<SubscriptionRow[]> {
    return this.s.live.all(feedUrl, now) as unknown as SubscriptionRow[];
  }

  /**
   * The same subscribers, only what delivering needs, a page at a time in callback-URL order after `afterUrl` (the unique index's order:
   * each page is an index range, no sort), so a fan-out to 100,000 never holds them all.
   */
  async liveTargetsPage(
    feedUrl: string,
    now: number,
    afterUrl: string,
    limit: number,
  ): Promise<DeliveryTarget[]> {
    return this.s.liveTargetsPage.all(feedUrl, afterUrl, now, limit) as unknown as DeliveryTarget[];
  }

  async getSubscription(feedUrl: string, callbackUrl: string): Promise<SubscriptionRow | undefined> {
    return this.s.getSub.get(feedUrl, callbackUrl) as unknown as SubscriptionRow | undefined;
  }

  async allSubscriptions(): Promise<SubscriptionRow[]> {
    return this.s.allSubs.all() as unknown as SubscriptionRow[];
  }

  /** Delivery outcomes of a fan-out, written in one transaction (10,000 single-row commits would not be). */
  async recordDeliveries(results: readonly DeliveryResult[]): Promise<void> {
    if (results.length === 0) return;
    transaction(this.db, () => this.recordOutcomes(results));
  }

  private recordOutcomes(results: readonly DeliveryResult[]): void {
    let ok = 0;
    for (const r of results) {
      if (r.ok) {
        ok++;
        this.s.ok.run(r.at, r.id);
      } else if (r.gone) this.s.deleteById.run(r.id);
      else this.s.failed.run(r.at, r.error ?? null, r.id);
    }
    if (ok > 0) this.s.bump.run('notifications', ok);
    if (results.length - ok > 0) this.s.bump.run('notificationsFailed', results.length - ok);
  }

  async recordWithRetries(results: readonly DeliveryResult[], plan: RetryPlan): Promise<void> {
    if (results.length === 0) return;
    transaction(this.db, () => {
      this.recordOutcomes(results);
      const failed = plan.next ? results.filter((r) => !r.ok && !r.gone && plan.retryIds.has(r.id)) : [];
      if (plan.retried !== null) for (const r of results) this.s.settleRetry.run(r.id, plan.retried);
      if (failed.length > 0 && plan.next) {
        const c = plan.content;
        // A topic hash is the sha256 of this very body (the read's); hashed here only without one.
        const hash = c.topicHash ?? sha256(c.body);
        const { id } = this.s.keepContent.get(c.feedUrl, c.body, c.contentType, hash, c.topicHash) as {
          id: number;
        };
        for (const r of failed) this.s.retryLater.run(r.id, id, plan.next.attempt, plan.next.dueAt);
      }
      if (plan.retried !== null) this.s.dropContentIfUnused.run(plan.retried);
    });
  }

  async dueRetries(now: number, limit: number): Promise<DueRetry[]> {
    return transaction(this.db, () => {
      const rows = this.s.dueRetries.all(now, now, limit) as unknown as {
        subscriptionId: number;
        contentId: number;
        attempt: number;
        owed: number;
        callbackUrl: string;
        protocol: DeliveryTarget['protocol'];
        notifyProcedure: string | null;
        secret: string | null;
      }[];
      const groups = new Map<string, DueRetry>();
      for (const r of rows) {
        if (!r.owed) {
          this.s.dropRetry.run(r.subscriptionId);
          continue;
        }
        const key = `${r.contentId}/${r.attempt}`;
        let g = groups.get(key);
        if (!g) {
          const c = this.s.retryContent.get(r.contentId) as {
            feedUrl: string;
            body: Uint8Array;
            contentType: string | null;
            topicHash: string | null;
          };
          g = { contentId: r.contentId, feedUrl: c.feedUrl, content: c, attempt: r.attempt, targets: [] };
          groups.set(key, g);
        }
        g.targets.push({
          id: r.subscriptionId,
          callbackUrl: r.callbackUrl,
          protocol: r.protocol,
          notifyProcedure: r.notifyProcedure,
          secret: r.secret,
        });
      }
      this.s.removeUnusedContents.run();
      return [...groups.values()];
    });
  }

  async nextRetryAt(): Promise<number | null> {
    return (this.s.nextRetry.get() as { at: number | null }).at;
  }

  async removeExpired(now: number): Promise<number> {
    return Number(this.s.removeExpired.run(now).changes);
  }

  /**
   * Housekeeping as the reference cloud's removeExpired: subscriptions expired or failing 3 times
   * in a row go, then resources nobody subscribes to that have not changed within `retainMs`,
   * unless a registration of theirs is under way (its read comes before its subscription).
   */
  async sweep(now: number, retainMs: number, _opts?: { wait?: boolean }): Promise<SweepResult> {
    return transaction(this.db, () => {
      const subscriptionsRemoved = Number(this.s.removeExpiredOrExhausted.run(now).changes);
      this.s.removeLapsedRegistrations.run(now);
      const resourcesRemoved = Number(this.s.removeOrphanResources.run(now - retainMs).changes);
      this.s.removeUnusedContents.run();
      return { subscriptionsRemoved, resourcesRemoved };
    });
  }

  async beginRegistration(feedUrl: string, until: number): Promise<number> {
    return Number(this.s.beginRegistration.run(feedUrl, until).lastInsertRowid);
  }

  async endRegistration(id: number): Promise<void> {
    this.s.endRegistration.run(id);
  }

  /** A WebSub subscribe asked for: a pending row unless the callback already has one (a renewal). */
  async addPendingWebSub(sub: NewWebSub, now: number, expiresAt: number): Promise<boolean> {
    return (
      Number(
        this.s.addPending.run(sub.feedUrl, sub.callbackUrl, now, expiresAt, sub.secret, sub.leaseSeconds)
          .changes,
      ) > 0
    );
  }

  /** A WebSub subscription whose intent was verified: active with its secret and lease. */
  async activateWebSub(sub: NewWebSub, now: number, expiresAt: number): Promise<void> {
    this.s.activate.run(sub.feedUrl, sub.callbackUrl, now, now, expiresAt, sub.secret, sub.leaseSeconds);
  }

  /** Verification failed: a row that never became active goes (an active one stays as it was). */
  async dropPending(feedUrl: string, callbackUrl: string): Promise<void> {
    this.s.dropPending.run(feedUrl, callbackUrl);
  }

  /** A verified unsubscribe. */
  async removeSubscription(feedUrl: string, callbackUrl: string): Promise<boolean> {
    return Number(this.s.deleteSub.run(feedUrl, callbackUrl).changes) > 0;
  }

  /** Subscriptions (any feed, pending included) that deliver to this callback: the per-callback cap. */
  async countForCallback(callbackUrl: string): Promise<number> {
    return (this.s.countForCallback.get(callbackUrl) as { n: number }).n;
  }

  /** Every subscription of one feed, pending ones too, oldest first. */
  async subscriptionsOf(feedUrl: string): Promise<SubscriptionRow[]> {
    return this.s.subsOf.all(feedUrl) as unknown as SubscriptionRow[];
  }

  /**
   * The feed's subscriptions replaced by these, in one transaction (the test API). The resource
   * row is created when absent, so the feed stays listed with no subscriptions, as the reference's.
   */
  async replaceSubscriptions(feedUrl: string, rows: readonly SeedSubscription[]): Promise<void> {
    transaction(this.db, () => {
      this.s.deleteSubsOf.run(feedUrl);
      this.s.ensureResource.run(feedUrl);
      for (const r of rows) {
        this.s.insertWhole.run(...seedValues(feedUrl, r));
      }
    });
  }

  /** A resource written whole (the test API's setResource). */
  async putResource(
    row: Omit<ResourceRow, 'etag' | 'lastModified' | 'title' | 'siteName' | 'siteUrl'>,
  ): Promise<void> {
    this.s.putResource.run(
      row.url,
      row.lastHash,
      row.lastSize,
      row.ctChecks,
      row.whenLastCheck,
      row.ctUpdates,
      row.whenLastUpdate,
    );
  }

  /** Forgets every subscription and resource (the test API's clear); accounts and saved feeds stay. */
  async clearFeeds(): Promise<void> {
    transaction(this.db, () => {
      this.s.clearSubs.run();
      this.s.clearResources.run();
    });
  }

  /** Remembers the site a weblogUpdates ping or an RSS Ping named for this feed. */
  async nameSite(url: string, siteName: string | null, siteUrl: string | null): Promise<void> {
    this.s.nameSite.run(url, siteName, siteUrl);
  }

  /** Resources that changed at or after `since`, newest first (changes.xml). */
  async recentChanges(since: number, limit: number): Promise<RecentChange[]> {
    return this.s.recentChanges.all(since, limit) as unknown as RecentChange[];
  }

  async getResource(url: string): Promise<ResourceRow | undefined> {
    return this.s.getResource.get(url) as unknown as ResourceRow | undefined;
  }

  async allResources(): Promise<ResourceRow[]> {
    return this.s.allResources.all() as unknown as ResourceRow[];
  }

  /** Counts a check of the resource (also what the minimum ping interval measures from). */
  async touchResource(url: string, now: number): Promise<void> {
    this.s.touchResource.run(url, now);
  }

  async recordContent(url: string, c: ContentSeen, now: number): Promise<boolean> {
    // One process, synchronous: the read and the write below cannot interleave with another.
    const before = this.s.lastContent.get(url) as
      | { lastHash: string | null; lastSize: number | null }
      | undefined;
    const changed = c.hash !== (before?.lastHash ?? null) || c.size !== (before?.lastSize ?? null);
    this.s.recordContent.run(
      c.hash,
      c.size,
      c.etag,
      c.lastModified,
      c.title,
      changed ? 1 : 0,
      changed ? 1 : 0,
      now,
      url,
    );
    return changed;
  }

  async bump(name: CounterName, by = 1): Promise<void> {
    this.s.bump.run(name, by);
  }

  async counters(): Promise<Record<CounterName, number>> {
    return countersFrom(this.s.counters.all() as { name: string; value: number }[]);
  }

  async counts(now: number): Promise<StoreCounts> {
    const live = this.s.countLive.get(now) as { n: number; feeds: number };
    const all = this.s.countAll.get() as { n: number };
    const saved = this.s.countSaved.get() as { n: number };
    return {
      liveSubscriptions: live.n,
      liveFeeds: live.feeds,
      allSubscriptions: all.n,
      savedFeeds: saved.n,
      accounts: this.s.listAccounts.all().length,
    };
  }

  async census(now: number, soonMs: number): Promise<StoreCensus> {
    const byProtocol = this.s.censusByProtocol.all(now) as unknown as StoreCensus['byProtocol'];
    const soon = this.s.leasesEndingSoon.get(now, now + soonMs) as { n: number };
    return { byProtocol, leasesEndingSoon: soon.n };
  }

  async probe(): Promise<void> {
    this.s.probe.get();
  }

  async addAccount(name: string, passwordHash: string, now: number): Promise<void> {
    this.s.addAccount.run(name, passwordHash, now);
  }

  async setPassword(name: string, passwordHash: string): Promise<boolean> {
    return Number(this.s.setPassword.run(passwordHash, name).changes) > 0;
  }

  async getAccount(name: string): Promise<AccountRow | undefined> {
    return this.s.getAccount.get(name) as unknown as AccountRow | undefined;
  }

  async listAccounts(): Promise<AccountRow[]> {
    return this.s.listAccounts.all() as unknown as AccountRow[];
  }

  async removeAccount(name: string): Promise<boolean> {
    return Number(this.s.removeAccount.run(name).changes) > 0;
  }

  async saveFeed(row: SavedFeedRow): Promise<void> {
    this.s.saveFeed.run(row.name, row.publicUrl, row.body, row.contentType, row.hash, row.whenSaved);
  }

  async savedFeedByName(name: string): Promise<SavedFeedRow | undefined> {
    return this.s.feedByName.get(name) as unknown as SavedFeedRow | undefined;
  }

  async savedFeedByUrl(url: string): Promise<SavedFeedRow | undefined> {
    return this.s.feedByUrl.get(url) as unknown as SavedFeedRow | undefined;
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: DatabaseSync) {
  const p = (sql: string): StatementSync => db.prepare(sql);
  return {
    upsertSub: p(`INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure, ct_updates,
        when_created, when_last_update, when_expires) VALUES (?, ?, ?, ?, 1, ?, ?, ?)
      ON CONFLICT (feed_url, callback_url) DO UPDATE SET protocol = excluded.protocol,
        notify_procedure = excluded.notify_procedure, ct_updates = ct_updates + 1,
        ct_consecutive_errors = 0, when_last_update = excluded.when_last_update,
        when_expires = excluded.when_expires, secret = NULL, lease_seconds = NULL, state = 'active'`),
    live: p(`SELECT ${SUB_COLUMNS} FROM subscriptions WHERE feed_url = ? AND ${LIVE} ORDER BY id`),
    liveTargetsPage: p(`SELECT ${TARGET_COLUMNS} FROM subscriptions WHERE feed_url = ? AND callback_url > ?
      AND ${LIVE} ORDER BY callback_url LIMIT ?`),
    getSub: p(`SELECT ${SUB_COLUMNS} FROM subscriptions WHERE feed_url = ? AND callback_url = ?`),
    allSubs: p(`SELECT ${SUB_COLUMNS} FROM subscriptions ORDER BY feed_url, id`),
    ok: p(`UPDATE subscriptions SET ct_updates = ct_updates + 1, ct_consecutive_errors = 0,
      when_last_update = ? WHERE id = ?`),
    failed:
      p(`UPDATE subscriptions SET ct_errors = ct_errors + 1, ct_consecutive_errors = ct_consecutive_errors + 1,
      when_last_error = ?, last_error = ? WHERE id = ?`),
    removeExpired: p('DELETE FROM subscriptions WHERE when_expires <= ?'),
    removeExpiredOrExhausted: p(
      `DELETE FROM subscriptions WHERE when_expires <= ? OR ct_consecutive_errors >= ${MAX_CONSECUTIVE_ERRORS}`,
    ),
    removeOrphanResources: p(`DELETE FROM resources WHERE (when_last_update IS NULL OR when_last_update < ?1)
      AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.feed_url = resources.url)
      AND NOT EXISTS (SELECT 1 FROM saved_feeds f WHERE f.public_url = resources.url)
      AND NOT EXISTS (SELECT 1 FROM registrations r WHERE r.feed_url = resources.url)`),
    removeLapsedRegistrations: p('DELETE FROM registrations WHERE until <= ?'),
    beginRegistration: p('INSERT INTO registrations (feed_url, until) VALUES (?, ?)'),
    endRegistration: p('DELETE FROM registrations WHERE id = ?'),
    keepContent:
      p(`INSERT INTO retry_contents (feed_url, body, content_type, hash, topic_hash) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (feed_url, hash) DO UPDATE SET topic_hash = COALESCE(retry_contents.topic_hash, excluded.topic_hash)
      RETURNING id`),
    retryLater:
      p(`INSERT INTO delivery_retries (subscription_id, content_id, attempt, due_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (subscription_id) DO UPDATE SET content_id = excluded.content_id, attempt = excluded.attempt,
        due_at = excluded.due_at`),
    settleRetry: p('DELETE FROM delivery_retries WHERE subscription_id = ? AND content_id = ?'),
    dropRetry: p('DELETE FROM delivery_retries WHERE subscription_id = ?'),
    dropContentIfUnused: p(
      'DELETE FROM retry_contents WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM delivery_retries r WHERE r.content_id = ?1)',
    ),
    // Owed: the subscription still live, and the topic not read with another hash since.
    dueRetries: p(`SELECT r.subscription_id AS subscriptionId, r.content_id AS contentId, r.attempt,
        (s.state = 'active' AND s.when_expires > ? AND s.ct_consecutive_errors < ${MAX_CONSECUTIVE_ERRORS}
          AND (c.topic_hash IS NULL OR c.topic_hash IS (SELECT last_hash FROM resources WHERE url = c.feed_url))) AS owed,
        s.callback_url AS callbackUrl, s.protocol, s.notify_procedure AS notifyProcedure, s.secret
      FROM delivery_retries r JOIN subscriptions s ON s.id = r.subscription_id
        JOIN retry_contents c ON c.id = r.content_id
      WHERE r.due_at <= ? ORDER BY r.due_at LIMIT ?`),
    retryContent: p(`SELECT feed_url AS feedUrl, body, content_type AS contentType, topic_hash AS topicHash
      FROM retry_contents WHERE id = ?`),
    nextRetry: p('SELECT MIN(due_at) AS at FROM delivery_retries'),
    removeUnusedContents: p(
      'DELETE FROM retry_contents WHERE NOT EXISTS (SELECT 1 FROM delivery_retries r WHERE r.content_id = retry_contents.id)',
    ),
    deleteById: p('DELETE FROM subscriptions WHERE id = ?'),
    deleteSub: p('DELETE FROM subscriptions WHERE feed_url = ? AND callback_url = ?'),
    dropPending: p(`DELETE FROM subscriptions WHERE feed_url = ? AND callback_url = ? AND state = 'pending'`),
    addPending:
      p(`INSERT INTO subscriptions (feed_url, callback_url, protocol, when_created, when_expires, secret,
        lease_seconds, state) VALUES (?, ?, 'websub', ?, ?, ?, ?, 'pending')
      ON CONFLICT (feed_url, callback_url) DO NOTHING`),
    activate: p(`INSERT INTO subscriptions (feed_url, callback_url, protocol, ct_updates, when_created,
        when_last_update, when_expires, secret, lease_seconds, state) VALUES (?, ?, 'websub', 0, ?, ?, ?, ?, ?, 'active')
      ON CONFLICT (feed_url, callback_url) DO UPDATE SET protocol = 'websub', notify_procedure = NULL,
        ct_consecutive_errors = 0, when_last_update = excluded.when_last_update,
        when_expires = excluded.when_expires, secret = excluded.secret,
        lease_seconds = excluded.lease_seconds, state = 'active'`),
    countForCallback: p('SELECT COUNT(*) AS n FROM subscriptions WHERE callback_url = ?'),
    subsOf: p(`SELECT ${SUB_COLUMNS} FROM subscriptions WHERE feed_url = ? ORDER BY id`),
    deleteSubsOf: p('DELETE FROM subscriptions WHERE feed_url = ?'),
    ensureResource: p('INSERT INTO resources (url) VALUES (?) ON CONFLICT (url) DO NOTHING'),
    insertWhole: p(`INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure, ct_updates,
        ct_errors, ct_consecutive_errors, last_error, when_created, when_last_update, when_last_error,
        when_expires, secret, lease_seconds, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (feed_url, callback_url) DO NOTHING`),
    putResource: p(`INSERT INTO resources (url, last_hash, last_size, ct_checks, when_last_check, ct_updates,
        when_last_update) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (url) DO UPDATE SET last_hash = excluded.last_hash, last_size = excluded.last_size,
        ct_checks = excluded.ct_checks, when_last_check = excluded.when_last_check,
        ct_updates = excluded.ct_updates, when_last_update = excluded.when_last_update`),
    clearSubs: p('DELETE FROM subscriptions'),
    clearResources: p('DELETE FROM resources'),
    nameSite: p(`INSERT INTO resources (url, site_name, site_url) VALUES (?, ?, ?)
      ON CONFLICT (url) DO UPDATE SET site_name = COALESCE(excluded.site_name, site_name),
        site_url = COALESCE(excluded.site_url, site_url)`),
    recentChanges:
      p(`SELECT url, site_name AS siteName, site_url AS siteUrl, when_last_update AS whenLastUpdate
      FROM resources WHERE when_last_update >= ? ORDER BY when_last_update DESC LIMIT ?`),
    getResource: p(`SELECT ${RESOURCE_COLUMNS} FROM resources WHERE url = ?`),
    allResources: p(`SELECT ${RESOURCE_COLUMNS} FROM resources ORDER BY url`),
    touchResource: p(`INSERT INTO resources (url, ct_checks, when_last_check) VALUES (?, 1, ?)
      ON CONFLICT (url) DO UPDATE SET ct_checks = ct_checks + 1, when_last_check = excluded.when_last_check`),
    lastContent: p('SELECT last_hash AS lastHash, last_size AS lastSize FROM resources WHERE url = ?'),
    // An upsert: a row the sweep took while the feed was being read is written anew.
    recordContent: p(`INSERT INTO resources (last_hash, last_size, etag, last_modified, title, ct_updates,
        when_last_update, url, ct_checks, when_last_check)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE WHEN ?7 THEN ?8 END, ?9, 1, ?8)
      ON CONFLICT (url) DO UPDATE SET last_hash = ?1, last_size = ?2, etag = ?3, last_modified = ?4,
        title = COALESCE(?5, title), ct_updates = ct_updates + ?6,
        when_last_update = CASE WHEN ?7 THEN ?8 ELSE when_last_update END`),
    bump: p(
      'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value',
    ),
    counters: p('SELECT name, value FROM counters'),
    addAccount: p('INSERT INTO accounts (name, password_hash, when_created) VALUES (?, ?, ?)'),
    setPassword: p('UPDATE accounts SET password_hash = ? WHERE name = ?'),
    getAccount: p(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name = ?`),
    listAccounts: p(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name`),
    removeAccount: p('DELETE FROM accounts WHERE name = ?'),
    saveFeed:
      p(`INSERT INTO saved_feeds (name, public_url, body, content_type, hash, when_saved) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET public_url = excluded.public_url, body = excluded.body,
        content_type = excluded.content_type, hash = excluded.hash, when_saved = excluded.when_saved`),
    feedByName: p(`SELECT ${FEED_COLUMNS}
      FROM saved_feeds WHERE name = ?`),
    feedByUrl: p(`SELECT ${FEED_COLUMNS}
      FROM saved_feeds WHERE public_url = ?`),
    countSaved: p('SELECT COUNT(*) AS n FROM saved_feeds'),
    countLive: p(`SELECT COUNT(*) AS n, COUNT(DISTINCT feed_url) AS feeds FROM subscriptions WHERE ${LIVE}`),
    countAll: p('SELECT COUNT(*) AS n FROM subscriptions'),
    censusByProtocol: p(`SELECT protocol, COUNT(*) AS subscribers, COUNT(DISTINCT feed_url) AS resources
      FROM subscriptions WHERE ${LIVE} GROUP BY protocol ORDER BY protocol`),
    leasesEndingSoon: p(
      `SELECT COUNT(*) AS n FROM subscriptions WHERE protocol = 'websub' AND ${LIVE} AND when_expires <= ?`,
    ),
    probe: p('SELECT 1'),
  };
}
