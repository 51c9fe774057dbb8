/**
 * Subscribing: a feed URL or a site URL (autodiscovery finds the feed), and OPML in and out.
 * New subscriptions go through the scheduler's "fetch now", like everything else.
 */
import { STATUS_CODES } from 'node:http';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { type DiscoverDeps, discoverFeed, looksLikeHtml, normaliseUserUrl } from '../feed/discover.ts';
import { judgeFeed } from '../feed/feed-verdict.ts';
import { stripUserinfo, writeOpml } from '../feed/opml.ts';
import type { HttpResponse } from '../net/http-client-types.ts';
import type { FeedSnapshot } from '../store/undo.ts';
import type { FeedView, OpmlImportReport, SubscribeInput } from './api.ts';
import type { AppContext } from './context.ts';
import { feedViewOf } from './feed-view.ts';
import { handOverFirstRead } from './refresh.ts';

/** Discoveries running, by the UI's requestId, so cancelSubscribe can stop one. */
const running = new WeakMap<AppContext, Map<string, AbortController>>();

export function cancelSubscribe(ctx: AppContext, requestId: string): boolean {
  const c = running.get(ctx)?.get(requestId);
  if (!c) return false;
  c.abort();
  return true;
}

/** Code 'already_subscribed', args.feedId names the feed (the UI selects it). */
export function alreadySubscribed(ctx: AppContext, feedId: number): Result<FeedView> {
  const v = view(ctx, feedId);
  return fail(tidingsError('already_subscribed', `You already follow "${v.title}".`, { feedId }));
}

/**
 * The subscription this address already is, if any: the same URL, or the same one but for
 * http/https or a trailing slash (what people paste differently; a site serving two different
 * feeds at those is not one we know of).
 */
export function sameFeed(ctx: AppContext, url: string) {
  const exact = ctx.store.getFeedByUrl(url);
  if (exact) return exact;
  const m = /^https?:(\/\/.*)$/i.exec(url);
  if (!m) return null;
  const rest = m[1]!;
  const bare = rest.endsWith('/') ? rest.slice(0, -1) : rest;
  // Only paths may lose or gain a slash; "http://host" always has one as "http://host/".
  const forms = new Set([rest, bare, `${bare}/`].filter((r) => /^\/\/[^/]+\/./.test(r) || r === rest));
  for (const scheme of ['https:', 'http:']) {
    for (const form of forms) {
      const found = ctx.store.getFeedByUrl(scheme + form);
      if (found) return found;
    }
  }
  return null;
}

/** Discovery's judgement of a body, made by the parser that will read it (subscribe, move). */
export function feedJudge(ctx: AppContext): DiscoverDeps['judgeFeed'] {
  return (body, contentType) => judgeFeed(body, contentType, ctx.maxParseMs);
}

export async function subscribe(ctx: AppContext, input: SubscribeInput): Promise<Result<FeedView>> {
  const normalised = normaliseUserUrl(input.url ?? '');
  if (!normalised.ok) return normalised;
  const existing = sameFeed(ctx, normalised.value);
  if (existing) return alreadySubscribed(ctx, existing.id);
  if (input.folderId != null && !ctx.store.getFolder(input.folderId)) {
    return fail(tidingsError('folder.notFound', 'That folder does not exist any more.'));
  }

  let feedUrl = normalised.value;
  let siteIcon: string | null = null;
  // What discovery fetched, by the address it reports: the feed's first read uses it (no refetch).
  const fetched = new Map<string, HttpResponse>();
  // A private feed answers 401 to an anonymous look: the user gave us the feed's own address.
  if (!input.credentials) {
    const requestId = input.requestId ?? null;
    const cancel = new AbortController();
    let mine = running.get(ctx);
    if (!mine) {
      mine = new Map();
      running.set(ctx, mine);
    }
    if (requestId) mine.set(requestId, cancel);
    try {
      // The raw input: discovery falls back from https to http for addresses typed without a scheme.
      const found = await discoverFeed(input.url, {
        fetchText: (url, signal) => fetchText(ctx, url, signal, fetched),
        judgeFeed: feedJudge(ctx),
        signal: cancel.signal,
        onProgress: requestId
          ? (message) => ctx.events.emit('subscribe.progress', { requestId, message })
          : undefined,
      });
      if (!found.ok) return found;
      feedUrl = found.value.feedUrl;
      siteIcon = found.value.siteIcon ?? null;
    } finally {
      if (requestId && mine.get(requestId) === cancel) mine.delete(requestId);
    }
    const again = sameFeed(ctx, feedUrl);
    if (again) return alreadySubscribed(ctx, again.id);
  }

  const { feed } = ctx.store.addFeed({
    url: feedUrl,
    folder: input.folderId != null ? null : (input.folder ?? null),
    credentials: input.credentials ?? null,
  });
  if (input.folderId != null) ctx.store.setFeedSettings(feed.id, { folderId: input.folderId });
  if (siteIcon) ctx.store.updateFeedMeta(feed.id, { meta: { siteIcon } });
  const read = fetched.get(feedUrl);
  if (read) handOverFirstRead(ctx, feed.id, read);
  ctx.scheduler.fetchNow(feed.id);
  ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
  return ok(view(ctx, feed.id));
}

async function fetchText(
  ctx: AppContext,
  url: string,
  signal: AbortSignal | undefined,
  fetched: Map<string, HttpResponse>,
) {
  const res = await ctx.http.request({
    method: 'GET',
    url,
    signal,
    maxRedirects: 5,
    // A feed gets the reader's own limit here too (one owner: the HTTP client's feed cap).
    feedSized: true,
    headers: {
      accept: 'application/rss+xml, application/atom+xml, application/feed+json, text/html;q=0.9, */*;q=0.8',
    },
  });
  if (!res.ok) return { ok: false as const, message: res.error.message };
  if (res.value.status >= 400) {
    // The caller's sentence names the address already ("Could not open <url>: ..."): once is enough.
    const status = res.value.status;
    const reason = STATUS_CODES[status];
    return { ok: false as const, message: `it answered ${status}${reason ? ` ${reason}` : ''}.` };
  }
  const contentType = res.value.headers['content-type'] ?? null;
  // A page's links are relative to where it is now; a feed's address is where it was asked for,
  // unless it moved for good (301/308): a 302/307 is a detour, not a new address.
  const finalUrl = looksLikeHtml(res.value.body, contentType)
    ? res.value.finalUrl
    : (res.value.movedTo ?? url);
  fetched.set(finalUrl, res.value);
  return { ok: true as const, finalUrl, contentType, body: res.value.body };
}

export function unsubscribe(ctx: AppContext, feedId: number): void {
  ctx.scheduler.remove(feedId);
  ctx.store.removeFeed(feedId);
  ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
}

/** Undo of an unsubscribe: the feed is back as it was, polled again from where it stood. */
export function restoreFeed(ctx: AppContext, snap: FeedSnapshot): Result<true> {
  const r = ctx.store.restoreFeed(snap);
  if (!r.ok) return r;
  const feedId = snap.feed.id as number;
  ctx.scheduler.restore(feedId, (snap.feed.next_due_at as number | null) ?? ctx.clock.now());
  ctx.realtime?.onFeedChanged(feedId);
  ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
  ctx.events.emit('folders.changed', { count: ctx.store.listFolders().length });
  return r;
}

/** Subscriptions an import adds between two turns of the event loop. */
const IMPORT_SLICE = 200;
/**
 * New feeds one import adds: the scale the poller is built and measured for (bench:poll). A list
 * of 160,000 feeds held the app for 46 s (every new feed asks the scheduler for a fetch at once);
 * the rest are named in the report, and importing the file again adds the next ones.
 */
export const MAX_IMPORT_NEW_FEEDS = 10_000;

/**
 * A list is read off the main thread when large and added a slice at a time, so a list of
 * thousands of feeds never holds the app (and browser mode's API) for seconds (issue 31).
 */
export async function importOpml(ctx: AppContext, text: string): Promise<Result<OpmlImportReport>> {
  const parsed = await ctx.parser.parseOpml(text);
  if (!parsed.ok) return parsed;
  const report: OpmlImportReport = { added: 0, existing: 0, errors: [] };
  let inSlice = 0;
  let left = 0;
  // What the list brought in (added, or filed by it): the window shows their river afterwards.
  const brought: number[] = [];
  for (const sub of parsed.value.subscriptions) {
    if (++inSlice > IMPORT_SLICE) {
      inSlice = 0;
      await new Promise((r) => setImmediate(r));
    }
    const url = normaliseUserUrl(sub.url);
    if (!url.ok) {
      report.errors.push(`${sub.title ?? sub.url}: ${url.error.message}`);
      continue;
    }
    // The same feed under http/https or a trailing slash is the one already followed.
    const known = sameFeed(ctx, url.value);
    if (!known && report.added >= MAX_IMPORT_NEW_FEEDS) {
      left++;
      continue;
    }
    const { feed, created } = known
      ? { feed: known, created: false }
      : ctx.store.addFeed({ url: url.value, title: sub.title, siteUrl: sub.siteUrl, folder: sub.folder });
    if (created) {
      report.added++;
      brought.push(feed.id);
      ctx.scheduler.fetchNow(feed.id);
    } else {
      report.existing++;
      // Merge into what is there (issue 9): an unfiled feed takes the list's folder; a feed the
      // person already filed stays where they put it.
      if (feed.folderId === null && sub.folder) {
        ctx.store.setFeedFolder(feed.id, sub.folder);
        report.filed = (report.filed ?? 0) + 1;
        brought.push(feed.id);
      }
    }
  }
  if (left > 0) {
    report.errors.push(
      `${left} more feeds were not added: one import adds at most ${MAX_IMPORT_NEW_FEEDS}. Import the same file again to add the next ones.`,
    );
  }
  report.feedIds = [...new Set(brought)];
  report.folderId = commonFolder(ctx, report.feedIds);
  if (report.added > 0 || report.filed) {
    ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
    ctx.events.emit('folders.changed', { count: ctx.store.listFolders().length });
  }
  return ok(report);
}

/** The deepest folder holding every one of these feeds (subfolders included); null when none does. */
function commonFolder(ctx: AppContext, feedIds: readonly number[]): number | null {
  let common: number[] | null = null;
  for (const id of feedIds) {
    const chain = folderChain(ctx, ctx.store.getFeed(id)?.folderId ?? null);
    common = common === null ? chain : common.filter((f, i) => chain[i] === f);
    if (common.length === 0) return null;
  }
  return common?.at(-1) ?? null;
}

/** A folder and its parents, top level first ([] for no folder). */
function folderChain(ctx: AppContext, folderId: number | null): number[] {
  const chain: number[] = [];
  for (let id = folderId; id !== null && chain.length < 64; ) {
    chain.unshift(id);
    id = ctx.store.getFolder(id)?.parentId ?? null;
  }
  return chain;
}

export function exportOpml(ctx: AppContext, title = 'Tidings subscriptions'): string {
  return writeOpml({
    title,
    dateCreated: ctx.clock.now(),
    subscriptions: ctx.store.listFeeds().map((f) => ({
      url: stripUserinfo(f.url),
      // The name the person gave it travels with the list.
      title: f.customTitle ?? f.title,
      siteUrl: f.siteUrl,
      folder: f.folder,
    })),
  });
}

function view(ctx: AppContext, feedId: number): FeedView {
  const feed = ctx.store.getFeed(feedId);
  if (!feed) throw new Error(`feed ${feedId} vanished`);
  return feedViewOf(ctx, feed);
}
