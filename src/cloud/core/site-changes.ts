/**
 * A site said it changed (weblogUpdates, pingSiteForm, RSS Ping): find its feed when only a site
 * was named, by autodiscovery (src/feed/discover.ts) over the cloud's HTTP client so the same
 * address rules hold; keep the site's name and address on the resource for changes.xml; then
 * the same "resource changed?" routine as a ping.
 */
import type { Clock } from '../../common/clock.ts';
import { detectFormat } from '../../feed/detect.ts';
import { discoverFeed, type FetchTextResult } from '../../feed/discover.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
import type { CloudStore } from '../store/store.ts';
import { type CloudCore, unavailable } from './core.ts';
import type { CloudLog } from './log.ts';

export interface SiteChangeDeps {
  core: CloudCore;
  store: CloudStore;
  log: CloudLog;
  http: HttpClient;
  clock: Clock;
}

/** What a site said changed: its name and home page, and its feed when it named one. */
export interface SiteSignal {
  name: string;
  siteUrl: string;
  feedUrl: string | null;
}

export interface SignalOutcome {
  ok: boolean;
  message: string;
  feedUrl: string | null;
}

const DISCOVERY_BODY_BYTES = 2 * 1024 * 1024;

/**
 * A site's signal: find its feed when needed, name the resource, then ping it. The cloud's own
 * failure (its store away) is an outcome in neutral words, its cause logged.
 */
export async function siteChanged(deps: SiteChangeDeps, signal: SiteSignal): Promise<SignalOutcome> {
  try {
    return await signalled(deps, signal);
  } catch (e) {
    return { ok: false, message: unavailable(deps.log, 'site changed', e), feedUrl: null };
  }
}

async function signalled(deps: SiteChangeDeps, signal: SiteSignal): Promise<SignalOutcome> {
  const feedUrl = signal.feedUrl ?? (await findFeed(deps.http, signal.siteUrl));
  if (typeof feedUrl !== 'string') {
    deps.log.add({ kind: 'pingFailed', feedUrl: signal.siteUrl, detail: feedUrl.reason });
    return { ok: false, message: feedUrl.reason, feedUrl: null };
  }
  deps.log.add({ kind: 'weblogUpdates', feedUrl, detail: `${signal.name} (${maskUrl(signal.siteUrl)})` });
  const r = await deps.core.ping(feedUrl);
  // Named after the read: a resource named first and not read yet (no change recorded) was the
  // sweep's to remove, name and all. Read, a changed one is the sweep's for 7 days (changes.xml
  // lists the last hour's), and an unchanged one is not listed.
  await deps.store.nameSite(feedUrl, signal.name.trim() || null, signal.siteUrl);
  return { ok: r.success, message: r.msg, feedUrl };
}

/** The site's feed: the address itself when it is one, else the feed its page links to. */
async function findFeed(http: HttpClient, siteUrl: string): Promise<string | { reason: string }> {
  const found = await discoverFeed(siteUrl, {
    fetchText: (url, signal) => fetchForDiscovery(http, url, signal),
    judgeFeed: (body) => {
      const kind = detectFormat(Buffer.from(body).toString('utf8', 0, Math.min(body.byteLength, 4096))).kind;
      return kind === 'xml' || kind === 'json' ? { kind: 'feed' } : { kind: 'notFeed' };
    },
  });
  return found.ok
    ? found.value.feedUrl
    : { reason: `No feed found for ${maskUrl(siteUrl)}: ${found.error.message}` };
}

async function fetchForDiscovery(
  http: HttpClient,
  url: string,
  signal?: AbortSignal,
): Promise<FetchTextResult> {
  const res = await http.request({
    method: 'GET',
    url,
    maxRedirects: 5,
    maxBodyBytes: DISCOVERY_BODY_BYTES,
    headers: { accept: 'application/rss+xml, application/atom+xml, text/html;q=0.9, */*;q=0.5' },
    ...(signal ? { signal } : {}),
  });
  if (!res.ok) return { ok: false, message: res.error.message };
  const { status, finalUrl, headers, body } = res.value;
  if (status < 200 || status > 299) return { ok: false, message: `${maskUrl(url)} answered HTTP ${status}.` };
  return { ok: true, finalUrl, contentType: headers['content-type'] ?? null, body };
}
