/**
 * What both store engines share: the column lists that map rows to their fields (aliases quoted,
 * which SQLite and PostgreSQL both read as identifiers, so one list serves both), the values of a
 * whole subscription in insert order, the counters, and paging through a feed's live targets.
 */
import type { CloudStore, CounterName, DeliveryTarget, SeedSubscription } from './store.ts';

/** The columns of each row, as its fields. */
export const SUB_COLUMNS = `id, feed_url AS "feedUrl", callback_url AS "callbackUrl", protocol,
  notify_procedure AS "notifyProcedure", ct_updates AS "ctUpdates", ct_errors AS "ctErrors",
  ct_consecutive_errors AS "ctConsecutiveErrors", last_error AS "lastError", when_created AS "whenCreated",
  when_last_update AS "whenLastUpdate", when_last_error AS "whenLastError", when_expires AS "whenExpires",
  secret, lease_seconds AS "leaseSeconds", state`;
export const RESOURCE_COLUMNS = `url, last_hash AS "lastHash", last_size AS "lastSize", etag, last_modified AS "lastModified",
  title, ct_checks AS "ctChecks", when_last_check AS "whenLastCheck", ct_updates AS "ctUpdates",
  when_last_update AS "whenLastUpdate", site_name AS "siteName", site_url AS "siteUrl"`;
export const TARGET_COLUMNS = `id, callback_url AS "callbackUrl", protocol, notify_procedure AS "notifyProcedure", secret`;
export const FEED_COLUMNS = `name, public_url AS "publicUrl", body, content_type AS "contentType", hash, when_saved AS "whenSaved"`;
export const ACCOUNT_COLUMNS = `name, password_hash AS "passwordHash", when_created AS "whenCreated"`;

/**
 * A page source over liveTargetsPage (each call the next page; empty at the end), so a fan-out
 * to 100,000 never holds them all.
 */
export function targetPages(
  store: CloudStore,
  feedUrl: string,
  now: number,
  pageSize = 5000,
): () => Promise<DeliveryTarget[]> {
  let after = '';
  let ended = false;
  return async () => {
    if (ended) return [];
    const page = await store.liveTargetsPage(feedUrl, now, after, pageSize);
    if (page.length < pageSize) ended = true;
    if (page.length > 0) after = page[page.length - 1]!.callbackUrl;
    return page;
  };
}

/** A whole subscription's values in the column order both stores insert them in. */
export function seedValues(feedUrl: string, r: SeedSubscription) {
  return [
    feedUrl,
    r.callbackUrl,
    r.protocol,
    r.notifyProcedure,
    r.ctUpdates,
    r.ctErrors,
    r.ctConsecutiveErrors,
    r.lastError ?? null,
    r.whenCreated,
    r.whenLastUpdate,
    r.whenLastError,
    r.whenExpires,
    r.secret,
    r.leaseSeconds,
    r.state,
  ] as const;
}

/** Every counter, zero where the table has no row yet. */
export function countersFrom(rows: readonly { name: string; value: number }[]): Record<CounterName, number> {
  const out: Record<string, number> = {
    pings: 0,
    changes: 0,
    registrations: 0,
    registrationsFailed: 0,
    notifications: 0,
    notificationsFailed: 0,
    feedsSaved: 0,
  };
  for (const row of rows) out[row.name] = row.value;
  return out as Record<CounterName, number>;
}
