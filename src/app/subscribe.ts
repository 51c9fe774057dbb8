/**
 * Subscribing: a feed URL or a site URL (autodiscovery finds the feed), and OPML in and out.
 * New subscriptions go through the scheduler's "fetch now", like everything else.
 */
import { ok, type Result } from '../common/errors.ts';
import { discoverFeed, normaliseUserUrl } from '../feed/discover.ts';
import { parseOpml, stripUserinfo, writeOpml } from '../feed/opml.ts';
import { parseFeed } from '../feed/parse.ts';
import { maskUrl } from '../net/mask.ts';
import type { FeedView, OpmlImportReport, SubscribeInput } from './api.ts';
import type { AppContext } from './context.ts';
import { feedViewOf } from './feed-view.ts';

const DISCOVERY_BODY_CAP = 5 * 1024 * 1024;

export async function subscribe(ctx: AppContext, input: SubscribeInput): Promise<Result<FeedView>> {
  const normalised = normaliseUserUrl(input.url ?? '');
  if (!normalised.ok) return normalised;
  const existing = ctx.store.getFeedByUrl(normalised.value);
  if (existing) return ok(view(ctx, existing.id));

  let feedUrl = normalised.value;
  // A private feed answers 401 to an anonymous look: the user gave us the feed's own address.
  if (!input.credentials) {
    // The raw input: discovery falls back from https to http for addresses typed without a scheme.
    const found = await discoverFeed(input.url, {
      fetchText: (url) => fetchText(ctx, url),
      looksLikeFeed: (body, contentType) =>
        parseFeed(body, { contentType, maxParseMs: ctx.maxParseMs }).kind !== 'error',
    });
    if (!found.ok) return found;
    feedUrl = found.value.feedUrl;
    const again = ctx.store.getFeedByUrl(feedUrl);
    if (again) return ok(view(ctx, again.id));
  }

  const { feed } = ctx.store.addFeed({
    url: feedUrl,
    folder: input.folder ?? null,
    credentials: input.credentials ?? null,
  });
  ctx.scheduler.fetchNow(feed.id);
  ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
  return ok(view(ctx, feed.id));
}

async function fetchText(ctx: AppContext, url: string) {
  const res = await ctx.http.request({
    method: 'GET',
    url,
    maxRedirects: 5,
    maxBodyBytes: DISCOVERY_BODY_CAP,
    headers: {
      accept: 'application/rss+xml, application/atom+xml, application/feed+json, text/html;q=0.9, */*;q=0.8',
    },
  });
  if (!res.ok) return { ok: false as const, message: res.error.message };
  if (res.value.status >= 400) {
    return { ok: false as const, message: `${maskUrl(url)} answered ${res.value.status}.` };
  }
  return {
    ok: true as const,
    finalUrl: res.value.finalUrl,
    contentType: res.value.headers['content-type'] ?? null,
    body: res.value.body,
  };
}

export function unsubscribe(ctx: AppContext, feedId: number): void {
  ctx.scheduler.remove(feedId);
  ctx.store.removeFeed(feedId);
  ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
}

export function importOpml(ctx: AppContext, text: string): Result<OpmlImportReport> {
  const parsed = parseOpml(text);
  if (!parsed.ok) return parsed;
  const report: OpmlImportReport = { added: 0, existing: 0, errors: [] };
  for (const sub of parsed.value.subscriptions) {
    const url = normaliseUserUrl(sub.url);
    if (!url.ok) {
      report.errors.push(`${sub.title ?? sub.url}: ${url.error.message}`);
      continue;
    }
    const { feed, created } = ctx.store.addFeed({
      url: url.value,
      title: sub.title,
      siteUrl: sub.siteUrl,
      folder: sub.folder,
    });
    if (created) {
      report.added++;
      ctx.scheduler.fetchNow(feed.id);
    } else {
      report.existing++;
    }
  }
  if (report.added > 0) ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
  return ok(report);
}

export function exportOpml(ctx: AppContext, title = 'Tidings subscriptions'): string {
  return writeOpml({
    title,
    dateCreated: ctx.clock.now(),
    subscriptions: ctx.store.listFeeds().map((f) => ({
      url: stripUserinfo(f.url),
      title: f.title,
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
