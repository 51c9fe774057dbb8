/**
 * One feed's trip through the house: fetch (conditional GET) -> parse -> store new items ->
 * events -> next due time. Polls and rssCloud notifications both arrive here through the
 * scheduler's one "fetch now" entry point, so there is one path into the river, not two.
 */

import { createHash } from 'node:crypto';
import type { Feed } from '../feed/model.ts';
import { DEFAULT_MAX_ITEMS } from '../feed/parse.ts';
import { PARSE_STOPPED } from '../feed/parse-pool.ts';
import { cacheHints } from '../net/cache-hints.ts';
import type { HttpResponse } from '../net/http-client-types.ts';
import { maskUrl } from '../net/mask.ts';
import type { CacheHints, FeedFetchResult } from '../net/types.ts';
import { type Due, dueAfterAskedFailure, nextDue } from '../poll/due.ts';
import type { RunReason } from '../poll/scheduler.ts';
import { type LinkHeaderRefs, parseLinkHeader } from '../realtime/websub/link-header.ts';
import type { FeedMeta, FeedRow } from '../store/store.ts';
import type { Settings } from './api.ts';
import type { AppContext } from './context.ts';
import { dueInputFor } from './due-input.ts';
import { feedViewOf } from './feed-view.ts';
import { fetchLogEntryOf } from './fetch-log-view.ts';

export interface RefreshOutcome {
  feedId: number;
  kind: FeedFetchResult['kind'] | 'unchanged' | 'parseError' | 'redirect' | 'skipped';
  newItems: number;
  /** Why the document could not be read (a parse error), for the fetch log. */
  message?: string;
}

/** What the steps that store a document learn of its trip, and tell it back. */
interface TripMarks {
  /** The person asked for this fetch (Retry now, Refresh, Edit address). */
  asked: boolean;
  /** The feed's row as the trip wrote it (its status already sent), null when it wrote none. */
  feed?: FeedRow | null;
}

/** What one trip brought back, for the fetch log (filled in as the trip goes). */
interface Trip extends TripMarks {
  url: string;
  status: number | null;
  bytes: number | null;
  message: string | null;
}

/**
 * Documents a new subscription's discovery fetched moments ago: the feed's first trip stores the
 * one it is handed instead of asking the server again (subscribing fetched every feed twice, 19 ms
 * apart). Taken once, and only while fresh.
 */
const handedOver = new WeakMap<AppContext, Map<number, { doc: FeedDocument; status: number; at: number }>>();
const HANDOVER_FRESH_MS = 60_000;

export function handOverFirstRead(ctx: AppContext, feedId: number, res: HttpResponse): void {
  let docs = handedOver.get(ctx);
  if (!docs) {
    docs = new Map();
    handedOver.set(ctx, docs);
  }
  const now = ctx.clock.now();
  const h = res.headers;
  docs.set(feedId, {
    status: res.status,
    at: now,
    doc: {
      body: res.body,
      finalUrl: res.finalUrl,
      contentType: h['content-type'] ?? null,
      etag: h.etag ?? null,
      lastModified: h['last-modified'] ?? null,
      bodyHash: createHash('sha256').update(res.body).digest('hex'),
      cache: cacheHints(h, now, { freshness: true, retryAfter: false }),
      link: h.link ?? null,
    },
  });
}

function takeHandedOver(ctx: AppContext, feedId: number) {
  const docs = handedOver.get(ctx);
  const given = docs?.get(feedId);
  if (!given) return null;
  docs!.delete(feedId);
  return ctx.clock.now() - given.at <= HANDOVER_FRESH_MS ? given : null;
}

/**
 * One fetch, logged (status, bytes, new items, time) in the log of every fetch (issue 17).
 * `why.asked`: the person asked for it (Retry now): a failure then leaves the back-off as it was.
 */
export async function refreshFeed(
  ctx: AppContext,
  feedId: number,
  why: RunReason = { asked: false },
): Promise<RefreshOutcome> {
  const started = ctx.clock.now();
  const trip: Trip = { url: '', status: null, bytes: null, message: null, asked: why.asked, feed: null };
  const outcome = await fetchAndStore(ctx, feedId, trip);
  if (outcome.kind !== 'skipped') logFetch(ctx, started, trip, outcome);
  return outcome;
}

/** One fetch into the log of every fetch, and the 'fetch' event (the activity log shows it live). */
export function logFetch(
  ctx: AppContext,
  started: number,
  trip: Pick<Trip, 'url' | 'status' | 'bytes' | 'message'> & { feed?: FeedRow | null },
  outcome: RefreshOutcome,
): void {
  const at = ctx.clock.now();
  const row = ctx.fetchLog.record({
    at,
    feedId: outcome.feedId,
    url: trip.url,
    outcome: outcome.kind === 'skipped' ? 'unchanged' : outcome.kind,
    status: trip.status,
    bytes: trip.bytes,
    newItems: outcome.newItems,
    ms: Math.max(0, at - started),
    message: trip.message,
    ok: outcome.kind !== 'error' && outcome.kind !== 'parseError' && outcome.kind !== 'gone',
  });
  ctx.events.emit('fetch', fetchLogEntryOf(ctx, row, trip.feed ?? ctx.store.getFeed(outcome.feedId)));
  // The feed's status carries its last success: send it now that the log knows. A trip that wrote
  // the row sent it already, and a feed whose row says 'ok' takes its last success from the row.
  if (row.ok && trip.feed?.status !== 'ok') emitStatus(ctx, outcome.feedId);
}

async function fetchAndStore(ctx: AppContext, feedId: number, trip: Trip): Promise<RefreshOutcome> {
  const feed = ctx.store.getFeed(feedId);
  if (!feed || feed.status === 'gone') return { feedId, kind: 'skipped', newItems: 0 };
  trip.url = maskUrl(feed.url);
  const first = takeHandedOver(ctx, feedId);
  if (first) {
    trip.status = first.status;
    trip.bytes = first.doc.body.byteLength;
    const stored = await storeDocument(ctx, feed, first.doc, false, trip);
    if (stored.message) trip.message = stored.message;
    return stored;
  }

  const result = await ctx.http.fetchFeed({
    url: feed.url,
    etag: feed.etag,
    lastModified: feed.lastModified,
    credentials: feed.hasCredentials ? ctx.store.getCredentials(feedId) : null,
    subscribers: 1,
  });
  // The subscription may have been removed while the request was in flight: the answer belongs
  // to the subscription this run started for, never to whatever holds the id now.
  if (!sameSubscription(ctx, feed)) return { feedId, kind: 'skipped', newItems: 0 };

  if (result.movedTo) movePermanently(ctx, feed, result.movedTo);
  trip.status = result.status;
  if (result.kind === 'ok') trip.bytes = result.wireBytes;
  if (result.kind === 'error') trip.message = result.error.message;

  switch (result.kind) {
    case 'notModified':
      finish(
        ctx,
        feedId,
        { status: 'ok', lastError: null, lastErrorCode: null, consecutiveErrors: 0 },
        result.cache,
        trip,
      );
      return { feedId, kind: 'notModified', newItems: 0 };
    case 'gone':
      trip.message = 'The server says this feed is gone for good (410 Gone).';
      markGone(ctx, feed, 'The server says this feed is gone for good (410 Gone); polling stopped.');
      return { feedId, kind: 'gone', newItems: 0 };
    case 'error':
      recordError(ctx, feed, result.error.code, result.error.message, result.cache, trip);
      return { feedId, kind: 'error', newItems: 0 };
    case 'ok':
      break;
  }

  const stored = await storeDocument(ctx, feed, result, false, trip);
  if (stored.message) trip.message = stored.message;
  return stored;
}

/** A feed document in hand, fetched or pushed by a hub: what the store path needs of it. */
export interface FeedDocument {
  body: Uint8Array;
  /** The address the document came from (relative links resolve against it). */
  finalUrl: string;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  bodyHash: string;
  cache: CacheHints | null;
  /** The answer's HTTP Link header (WebSub hub and self), null when none. */
  link: string | null;
}

/**
 * Parse -> store new items -> events -> next due time: the one path into the river, for a fetched
 * document and for one a WebSub hub delivered (`pushed`: no second fetch). A pushed body that is
 * not a feed records no error on the feed: the caller fetches instead. `trip.asked`: the person
 * asked for the fetch (a document that does not parse then leaves the back-off as it was).
 */
export async function storeDocument(
  ctx: AppContext,
  feed: FeedRow,
  doc: FeedDocument,
  pushed: boolean,
  trip?: TripMarks,
): Promise<RefreshOutcome> {
  const feedId = feed.id;
  if (doc.bodyHash === feed.bodyHash && feed.status === 'ok') {
    // An unchanged 200 (server without validators): don't re-parse, but keep any new validators.
    finish(
      ctx,
      feedId,
      { status: 'ok', etag: doc.etag, lastModified: doc.lastModified, consecutiveErrors: 0 },
      doc.cache,
      trip,
    );
    return { feedId, kind: 'unchanged', newItems: 0 };
  }

  // Big documents are parsed off the main thread (parse-pool.ts): the API and the receiver keep
  // answering meanwhile. At most the newest maxItemsPerDocument items are read; the rest noted.
  const parsed = await ctx.parser.parse(doc.body, {
    url: doc.finalUrl,
    contentType: doc.contentType,
    maxParseMs: ctx.maxParseMs,
    maxItems: ctx.settings().maxItemsPerDocument ?? DEFAULT_MAX_ITEMS,
  });
  // The subscription may have gone while the document was being read, or the app is stopping.
  if (!sameSubscription(ctx, feed) || (parsed.kind === 'error' && parsed.error.code === PARSE_STOPPED))
    return { feedId, kind: 'skipped', newItems: 0 };
  if (parsed.kind === 'error' && pushed) return { feedId, kind: 'parseError', newItems: 0 };
  if (parsed.kind === 'error') {
    // Validators are kept only after a good parse, so the next fetch gets the full body again.
    recordError(ctx, feed, parsed.error.code, parsed.error.message, doc.cache, trip);
    return { feedId, kind: 'parseError', newItems: 0, message: parsed.error.message };
  }
  if (parsed.kind === 'redirect') {
    if (pushed) return { feedId, kind: 'parseError', newItems: 0 }; // a fetch will follow it
    if (parsed.newLocation) {
      movePermanently(ctx, feed, parsed.newLocation);
      ctx.scheduler.fetchNow(feedId);
    } else {
      markGone(ctx, feed, 'The feed says it has moved but gives no new address; polling stopped.');
    }
    return { feedId, kind: 'redirect', newItems: 0 };
  }

  const now = ctx.clock.now();
  // A new subscription's (or an import's) first good read is a backlog: its items go where their
  // own dates put them. Later fetches are live arrivals and top the river (River5), as one group.
  // docs/decisions/0004-backlog-by-date.md
  const seenAt = feed.bodyHash === null ? { at: now, backlog: true as const } : now;
  const { inserted, muted, changed } = await ctx.store.upsertItemsInSlices(feedId, parsed.feed.items, seenAt);
  if (!sameSubscription(ctx, feed)) return { feedId, kind: 'skipped', newItems: 0 };
  // The user's own posts are in their river to see, not to read again: they arrive read.
  const own = ctx.ownFeedId() === feedId;
  // Items a mute filter caught are not news: no notification, no "new items" count for them.
  const fresh = own ? 0 : inserted.length - muted.length;
  try {
    const settings = ctx.settings();
    // The bookkeeping is one commit (it was four: notes, meta, fetch state, next due time).
    const written = ctx.store.atomically(() => {
      ctx.store.setParseNotes(feedId, parsed.notes);
      if (own && inserted.length > 0) ctx.store.markRead(inserted, true);
      ctx.store.updateFeedMeta(feedId, {
        title: feed.title ?? parsed.feed.title ?? null,
        siteUrl: parsed.feed.link ?? feed.siteUrl,
        description: parsed.feed.description,
        meta: metaOf(parsed.feed, linkRefs(feed, parsed.feed, doc, pushed)),
      });
      return recordFetch(
        ctx,
        feedId,
        {
          status: 'ok',
          lastError: null,
          lastErrorCode: null,
          etag: doc.etag,
          lastModified: doc.lastModified,
          bodyHash: doc.bodyHash,
          consecutiveErrors: 0,
        },
        doc.cache,
        settings,
        null,
      );
    });
    if (written) announce(ctx, written, settings, trip);
  } finally {
    // The items are committed: an open river hears of them (changed ones, an edited post, are
    // re-read in place) even when the bookkeeping above fails (issue 36).
    if (inserted.length > 0 || changed.length > 0)
      ctx.events.emit('river.changed', { feedId, newItems: fresh, changedItems: changed });
  }
  // A new, changed or removed <cloud> element: (re)subscribe or forget it (no-op when unchanged).
  ctx.realtime?.onFeedChanged(feedId);
  return { feedId, kind: 'ok', newItems: fresh };
}

/**
 * The feed row this run started for still exists. Ids are never reused (schema v2), and the
 * creation time guards a database restored from an older copy.
 */
function sameSubscription(ctx: AppContext, started: FeedRow): boolean {
  return ctx.store.feedCreatedAt(started.id) === started.createdAt;
}

/**
 * The Link header's hub and self. A hub's delivery may name neither (the spec says it should):
 * then the ones we knew stay, so a delivery never makes us leave the hub that sent it.
 */
function linkRefs(feed: FeedRow, parsed: Feed, doc: FeedDocument, pushed: boolean): LinkHeaderRefs {
  const refs = parseLinkHeader(doc.link, doc.finalUrl);
  if (!pushed) return refs;
  return {
    hubs: refs.hubs.length > 0 || parsed.hubs.length > 0 ? refs.hubs : (feed.meta.hubs ?? []),
    self: refs.self ?? parsed.self ?? feed.meta.self ?? null,
  };
}

/** The feed's meta; hubs and self from the answer's Link header come first (WebSub §4). */
export function metaOf(feed: Feed, link: LinkHeaderRefs = { hubs: [], self: null }): FeedMeta {
  return {
    format: feed.format,
    ttl: feed.ttl,
    skipHours: feed.skipHours,
    skipDays: feed.skipDays,
    sy: feed.sy,
    cloud: feed.cloud,
    hubs: [...new Set([...link.hubs, ...feed.hubs])],
    self: link.self ?? feed.self,
    image: feed.image?.url ?? null,
    language: feed.language,
  };
}

type FetchStatePatch = Parameters<AppContext['store']['updateFetchState']>[1];

/**
 * Records the fetch, decides the next due time (the one place: src/poll/due.ts) and tells the UI.
 * `keepPlan`: a failed fetch the person asked for; the try planned before it stays (due.ts).
 */
function finish(
  ctx: AppContext,
  feedId: number,
  patch: FetchStatePatch,
  cache: CacheHints | null,
  trip?: TripMarks,
  keepPlan: Due | null = null,
): void {
  const settings = ctx.settings();
  const written = recordFetch(ctx, feedId, patch, cache, settings, keepPlan);
  if (written) announce(ctx, written, settings, trip);
}

/**
 * Writes the fetch's state and the next due time in one statement (an all-304 cycle at 10,000
 * feeds is mostly these writes) and returns the row as it now stands; null when the feed is gone.
 */
function recordFetch(
  ctx: AppContext,
  feedId: number,
  patch: FetchStatePatch,
  cache: CacheHints | null,
  settings: Settings,
  keepPlan: Due | null,
): FeedRow | null {
  const feed = ctx.store.getFeed(feedId);
  if (!feed) return null;
  const now = ctx.clock.now();
  const fetched: FeedRow = { ...feed, ...patch, lastFetchedAt: now };
  const input = dueInputFor(fetched, settings, cache, realtimeOf(ctx, feedId));
  const next = keepPlan
    ? dueAfterAskedFailure(input, keepPlan, now, ctx.random)
    : nextDue(input, now, ctx.random);
  const state = { ...patch, lastFetchedAt: now, nextDueAt: next.at, dueReason: next.reason };
  ctx.store.updateFetchState(feedId, state);
  return { ...fetched, ...state };
}

/** The next run is planned and the UI told, from the row recordFetch wrote. */
function announce(ctx: AppContext, feed: FeedRow, settings: Settings, trip: TripMarks | undefined): void {
  ctx.scheduler.schedule(feed.id, feed.nextDueAt!);
  ctx.events.emit('feed.status', feedViewOf(ctx, feed, settings));
  if (trip) trip.feed = feed;
}

/**
 * A failed fetch or a document that does not parse. One the person asked for (Retry now) is not
 * one more error: the count and the try already planned stay (a Retry that fails must not double
 * the back-off).
 */
function recordError(
  ctx: AppContext,
  feed: FeedRow,
  code: string,
  message: string,
  cache: CacheHints | null,
  trip?: TripMarks,
): void {
  const asked = trip?.asked ?? false;
  const planned: Due | null =
    feed.nextDueAt === null ? null : { at: feed.nextDueAt, reason: feed.dueReason ?? 'as planned' };
  finish(
    ctx,
    feed.id,
    {
      status: 'error',
      lastError: message,
      lastErrorCode: code,
      consecutiveErrors: asked ? feed.consecutiveErrors : feed.consecutiveErrors + 1,
    },
    cache,
    trip,
    asked ? planned : null,
  );
}

function markGone(ctx: AppContext, feed: FeedRow, reason: string): void {
  ctx.store.updateFetchState(feed.id, {
    status: 'gone',
    lastError: reason,
    lastErrorCode: 'feed.gone',
    lastFetchedAt: ctx.clock.now(),
    nextDueAt: null,
    dueReason: null,
  });
  ctx.scheduler.remove(feed.id);
  ctx.realtime?.onFeedChanged(feed.id); // a gone feed needs no notifications
  ctx.events.emit('notice', {
    level: 'warning',
    message: `${feed.title ?? maskUrl(feed.url)}: ${reason}`,
    feedId: feed.id,
  });
  emitStatus(ctx, feed.id);
}

function movePermanently(ctx: AppContext, feed: FeedRow, newUrl: string): void {
  if (newUrl === feed.url) return;
  ctx.store.moveFeedUrl(feed.id, newUrl);
  ctx.events.emit('notice', {
    level: 'info',
    message: `${feed.title ?? maskUrl(feed.url)} has moved permanently to ${maskUrl(newUrl)}; the subscription now uses the new address.`,
    feedId: feed.id,
  });
}

export function emitStatus(ctx: AppContext, feedId: number): void {
  const feed = ctx.store.getFeed(feedId);
  if (!feed) return;
  ctx.events.emit('feed.status', feedViewOf(ctx, feed));
}

const realtimeOf = (ctx: AppContext, feedId: number) => ctx.realtime?.statusFor(feedId) ?? null;

/**
 * A feed's cloud subscription went live or lapsed: plan its next poll again from its last fetch,
 * so polling relaxes to the safety net at once, or tightens back without waiting out 6 hours.
 */
export function replanPolling(ctx: AppContext, feedId: number): void {
  const feed = ctx.store.getFeed(feedId);
  if (!feed || feed.status === 'gone' || feed.lastFetchedAt === null || ctx.scheduler.isRunning(feedId))
    return;
  const now = ctx.clock.now();
  const due = nextDue(
    dueInputFor(feed, ctx.settings(), null, realtimeOf(ctx, feedId)),
    feed.lastFetchedAt,
    ctx.random,
  );
  const at = Math.max(due.at, now);
  ctx.store.updateFetchState(feedId, { nextDueAt: at, dueReason: due.reason });
  ctx.scheduler.schedule(feedId, at);
}
