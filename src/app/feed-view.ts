/** The store's feed row as the UI sees it: secrets masked, times as ISO, one delivery line. */

import { isIP } from 'node:net';
import { classifyAddress } from '../net/address-class.ts';
import { maskUrl } from '../net/mask.ts';
import { describeInterval } from '../poll/due.ts';
import type { RealtimeStatus } from '../realtime/realtime.ts';
import type { FeedRow } from '../store/store.ts';
import type { FeedView, Settings } from './api.ts';
import type { AppContext } from './context.ts';
import { dueInputFor } from './due-input.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The one way the app turns a stored feed into what a UI shows. A list of feeds reads the settings
 * once and passes them: read per feed, they were 7 queries a row, 40% of listFeeds for 1,000 feeds.
 */
export function feedViewOf(ctx: AppContext, feed: FeedRow, settings: Settings = ctx.settings()): FeedView {
  const view = toFeedView(feed, settings, ctx.realtime?.statusFor(feed.id) ?? null);
  // A feed whose last fetch went well succeeded then; a failing one, when the log last saw it work.
  const lastOk = feed.status === 'ok' ? feed.lastFetchedAt : ctx.fetchLog.lastSuccess(feed.id);
  view.lastSuccessAt = iso(lastOk);
  if (ctx.ownFeedId() === feed.id) view.own = true;
  return view;
}

export function toFeedView(
  feed: FeedRow,
  settings: Settings,
  realtime: RealtimeStatus | null = null,
): FeedView {
  const delivery =
    feed.status === 'gone'
      ? 'not polled: the feed is gone'
      : realtime?.live && realtime.line
        ? realtime.line
        : polled(describeInterval(dueInputFor(feed, settings, null, realtime)), realtime?.reason ?? null);
  return {
    id: feed.id,
    url: maskUrl(feed.url),
    title: feed.customTitle ?? feed.title ?? maskUrl(feed.url),
    siteUrl: feed.siteUrl,
    folder: feed.folder,
    unread: feed.unread,
    status: feed.status,
    error: feed.status === 'error' || feed.status === 'gone' ? feed.lastError : null,
    lastFetchedAt: iso(feed.lastFetchedAt),
    nextDueAt: iso(feed.nextDueAt),
    dueReason: feed.dueReason,
    delivery,
    hasCredentials: feed.hasCredentials,
    notes: feed.parseNotes,
    folderId: feed.folderId,
    folderPath: feed.folder,
    notify: feed.notify,
    intervalMin: feed.intervalMin,
    favicon: faviconOf(feed),
    titleIsCustom: feed.customTitle !== null,
    loadImages: feed.loadImages,
    fullText: feed.fullText,
  };
}

const isHttp = (u: string | null): u is string => !!u && /^https?:\/\//i.test(u);

/**
 * The feed's icon without fetching anything more: the site's `<link rel="icon">` seen when
 * subscribing by its address, else the channel's own image, else the site's /favicon.ico. The
 * renderer loads it like any remote image (the privacy setting applies).
 */
export function faviconOf(feed: FeedRow): string | null {
  const site = isHttp(feed.siteUrl) ? safeUrl('/favicon.ico', feed.siteUrl) : null;
  for (const candidate of [feed.meta.siteIcon ?? null, feed.meta.image, site]) {
    if (isHttp(candidate) && mayLoad(candidate, feed.url)) return candidate;
  }
  return null;
}

function safeUrl(path: string, base: string): string | null {
  try {
    return new URL(path, base).href;
  } catch {
    return null;
  }
}

/**
 * A feed may not point the window at this machine or the local network: an icon whose host is
 * a non-public IP address is only used when the feed itself lives on that host (a NAS's feed).
 */
function mayLoad(icon: string, feedUrl: string): boolean {
  try {
    const host = new URL(icon).hostname.replace(/^\[|\]$/g, '');
    if (!isIP(host) && host !== 'localhost') return true;
    if (isIP(host) && classifyAddress(host) === 'public') return true;
    return new URL(feedUrl).hostname.replace(/^\[|\]$/g, '') === host;
  } catch {
    return false;
  }
}

/** "polled every 60 min (the cloud refused: ...)", merged into an existing "(ttl)" when there is one. */
function polled(interval: string, reason: string | null): string {
  if (!reason) return `polled ${interval}`;
  const why = reason.replace(/\.$/, '');
  return interval.endsWith(')') ? `polled ${interval.slice(0, -1)}; ${why})` : `polled ${interval} (${why})`;
}
