/**
 * Edit address, a failing feed's way out (issue 35): the subscription moves to a new address as
 * one operation. It stays the same feed (its id, items, read and starred marks, folder, settings,
 * mute filters and fetch log); the new address is fetched once, and that answer is what the river
 * reads (discovery's own fetch, not a second trip); the person is told "moved to <new address>".
 * Nothing changes until the new address answers with a feed: a wrong address loses nothing.
 */
import { STATUS_CODES } from 'node:http';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { discoverFeed, type FetchTextResult, looksLikeHtml, normaliseUserUrl } from '../feed/discover.ts';
import { maskUrl } from '../net/mask.ts';
import type { Credentials, FeedFetchResult } from '../net/types.ts';
import type { FeedRow } from '../store/types.ts';
import type { FeedView } from './api.ts';
import type { AppContext } from './context.ts';
import { feedViewOf } from './feed-view.ts';
import { logFetch, storeDocument } from './refresh.ts';
import { feedTitleOf } from './river.ts';
import { alreadySubscribed, feedJudge, sameFeed } from './subscribe.ts';

/** A good answer of the feed fetch: it carries all a stored document needs (refresh.ts FeedDocument). */
type FetchedFeed = FeedFetchResult & { kind: 'ok' };

export async function moveFeed(ctx: AppContext, feedId: number, address: string): Promise<Result<FeedView>> {
  const feed = ctx.store.getFeed(feedId);
  if (!feed) return fail(tidingsError('feed.notFound', 'That feed is not followed any more.', { feedId }));
  const normalised = normaliseUserUrl(address ?? '');
  if (!normalised.ok) return normalised;
  const other = sameFeed(ctx, normalised.value);
  if (other && other.id !== feedId) return alreadySubscribed(ctx, other.id);

  // A login goes only to the origin it was given for: kept for an address on the same site,
  // dropped for another (that site's feed is then read without it).
  const login = ctx.store.getCredentials(feedId);
  const keepLogin = login !== null && sameOrigin(feed.url, normalised.value);
  const started = ctx.clock.now();
  const found = keepLogin
    ? await fetchDirect(ctx, normalised.value, login)
    : await discover(ctx, address, normalised.value);
  if (!found.ok) return found;
  const { url, doc } = found.value;
  const taken = sameFeed(ctx, url);
  if (taken && taken.id !== feedId) return alreadySubscribed(ctx, taken.id);

  const before = feedTitleOf(feed);
  const moved = url !== feed.url;
  ctx.store.atomically(() => {
    ctx.store.moveFeedUrl(feedId, url);
    if (!keepLogin && login !== null) ctx.store.setCredentials(feedId, null);
    // The old address's validators say nothing about the new one.
    ctx.store.updateFetchState(feedId, { etag: null, lastModified: null });
  });
  const row = ctx.store.getFeed(feedId);
  if (!row) return fail(tidingsError('feed.notFound', 'That feed is not followed any more.', { feedId }));
  // The one path into the river: parse, store new items, plan the next poll, tell the river.
  const marks: { asked: boolean; feed: FeedRow | null } = { asked: true, feed: null };
  const outcome = await storeDocument(ctx, row, doc, false, marks);
  logFetch(
    ctx,
    started,
    {
      url: maskUrl(url),
      status: doc.status,
      bytes: doc.wireBytes,
      message: outcome.message ?? null,
      feed: marks.feed,
    },
    outcome,
  );
  ctx.events.emit('notice', {
    level: 'info',
    message: moved ? `${before} moved to ${maskUrl(url)}.` : `${before} answers at ${maskUrl(url)} again.`,
    feedId,
  });
  const view = ctx.store.getFeed(feedId);
  if (!view) return fail(tidingsError('feed.notFound', 'That feed is not followed any more.', { feedId }));
  return ok(feedViewOf(ctx, view));
}

/** A private feed's new address on the same site: fetched as the feed, with its login (no discovery). */
async function fetchDirect(
  ctx: AppContext,
  url: string,
  credentials: Credentials,
): Promise<Result<{ url: string; doc: FetchedFeed }>> {
  const result = await ctx.http.fetchFeed({ url, credentials, subscribers: 1 });
  if (result.kind !== 'ok') return fail(unreachable(url, answerOf(result)));
  const verdict = feedJudge(ctx)(result.body, result.contentType);
  if (verdict.kind !== 'feed') {
    const reason = verdict.kind === 'broken' ? verdict.reason : null;
    return fail(
      tidingsError('discover.noFeed', `${maskUrl(url)} is not a feed${reason ? `: ${reason}` : '.'}`, {
        url: maskUrl(url),
      }),
    );
  }
  return ok({ url: result.movedTo ?? url, doc: result });
}

/**
 * The feed at an address, or found from a site's address, as subscribing finds it; every answer is
 * kept, so the feed discovery settles on is stored from the fetch that found it.
 */
async function discover(
  ctx: AppContext,
  typed: string,
  normalised: string,
): Promise<Result<{ url: string; doc: FetchedFeed }>> {
  const answers = new Map<string, FetchedFeed>();
  const fetchText = async (url: string, signal?: AbortSignal): Promise<FetchTextResult> => {
    const result = await ctx.http.fetchFeed({ url, subscribers: 1, signal });
    if (result.kind !== 'ok') return { ok: false, message: answerOf(result) };
    // A page's links are relative to where it is now; a feed's address is where it was asked
    // for, unless it moved for good (as subscribe's fetch decides).
    const finalUrl = looksLikeHtml(result.body, result.contentType)
      ? result.finalUrl
      : (result.movedTo ?? url);
    answers.set(finalUrl, result);
    return { ok: true, finalUrl, contentType: result.contentType, body: result.body };
  };
  const found = await discoverFeed(typed, { fetchText, judgeFeed: feedJudge(ctx) });
  if (!found.ok) return found;
  const url = found.value.feedUrl;
  const doc = answers.get(url);
  // Discovery names only addresses it fetched; should it not, one fetch of that address.
  if (doc) return ok({ url, doc });
  const again = await ctx.http.fetchFeed({ url, subscribers: 1 });
  return again.kind === 'ok' ? ok({ url, doc: again }) : fail(unreachable(normalised, answerOf(again)));
}

/** What an address answered, in the words subscribing uses ("it answered 404 Not Found."). */
function answerOf(result: FeedFetchResult): string {
  if (result.kind === 'error' && result.status === null) return result.error.message;
  const reason = STATUS_CODES[result.status ?? 0];
  return `it answered ${result.status}${reason ? ` ${reason}` : ''}.`;
}

function unreachable(url: string, detail: string) {
  return tidingsError('discover.unreachable', `Could not open ${maskUrl(url)}: ${detail}`, {
    url: maskUrl(url),
    detail,
  });
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
