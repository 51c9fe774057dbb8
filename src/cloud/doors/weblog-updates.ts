/**
 * The older ping doors (seed "RSS Feed State"), each one more way into the same "resource
 * changed?" routine as POST /ping (core.ping), and the page that shows what changed:
 *
 *   XML-RPC weblogUpdates.ping(name, url)                         answered {flerror, message}
 *   XML-RPC weblogUpdates.extendedPing(name, home, changed, feed[, tags])
 *   GET /pingSiteForm?name=..&url=..                               answered with an HTML page
 *   GET /changes.xml                                               weblogs.com's form, last hour
 *
 * Where only a site is given, its feed is found by autodiscovery (src/feed/discover.ts) over the
 * cloud's HTTP client, so the same address rules hold. The site's name and address are kept on
 * the resource for changes.xml.
 */
import type { Clock } from '../../common/clock.ts';
import { detectFormat } from '../../feed/detect.ts';
import { discoverFeed, type FetchTextResult } from '../../feed/discover.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
import type { XmlRpcValue } from '../../wire/xmlrpc.ts';
import type { CloudCore } from '../core/core.ts';
import type { CloudLog } from '../core/log.ts';
import { htmlResponse, page } from '../pages/status.ts';
import type { CloudStore } from '../store/sqlite.ts';
import { escapeAttr, escapeHtml } from './answers.ts';
import { isHttpUrl } from './params.ts';

export interface DoorDeps {
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

const CHANGES_WINDOW_MS = 60 * 60 * 1000;
const MAX_CHANGES = 1000;
const DISCOVERY_BODY_BYTES = 2 * 1024 * 1024;

/** A site's signal: find its feed when needed, name the resource, then ping it. */
export async function siteChanged(deps: DoorDeps, signal: SiteSignal): Promise<SignalOutcome> {
  const feedUrl = signal.feedUrl ?? (await findFeed(deps.http, signal.siteUrl));
  if (typeof feedUrl !== 'string') {
    deps.log.add({ kind: 'pingFailed', feedUrl: signal.siteUrl, detail: feedUrl.reason });
    return { ok: false, message: feedUrl.reason, feedUrl: null };
  }
  await deps.store.nameSite(feedUrl, signal.name.trim() || null, signal.siteUrl);
  deps.log.add({ kind: 'weblogUpdates', feedUrl, detail: `${signal.name} (${maskUrl(signal.siteUrl)})` });
  const r = await deps.core.ping(feedUrl);
  return { ok: r.success, message: r.msg, feedUrl };
}

/** The site's feed: the address itself when it is one, else the feed its page links to. */
async function findFeed(http: HttpClient, siteUrl: string): Promise<string | { reason: string }> {
  const found = await discoverFeed(siteUrl, {
    fetchText: (url, signal) => fetchForDiscovery(http, url, signal),
    looksLikeFeed: (body) => {
      const kind = detectFormat(Buffer.from(body).toString('utf8', 0, Math.min(body.byteLength, 4096))).kind;
      return kind === 'xml' || kind === 'json';
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

/**
 * weblogUpdates.ping(name, url[, ...]) and extendedPing(name, home, changed, feed[, tags]) as a
 * signal, or the reason the parameters do not make one.
 */
export function weblogUpdatesSignal(
  method: 'ping' | 'extendedping',
  params: readonly XmlRpcValue[],
): SiteSignal | { error: string } {
  const text = (i: number) => (typeof params[i] === 'string' ? (params[i] as string).trim() : null);
  const name = text(0);
  const site = text(1);
  if (name === null || !site)
    return { error: `weblogUpdates.${method === 'ping' ? 'ping' : 'extendedPing'} needs a name and a URL.` };
  if (!isHttpUrl(site)) return { error: `The URL "${site}" is not an http or https address.` };
  if (method === 'ping') return { name, siteUrl: site, feedUrl: null };
  const feed = text(3);
  if (feed && !isHttpUrl(feed)) return { error: `The feed URL "${feed}" is not an http or https address.` };
  return { name, siteUrl: site, feedUrl: feed || null };
}

/** The XML-RPC answer weblogs.com gave: `{flerror, message}`. */
export function weblogUpdatesAnswer(outcome: { ok: boolean; message: string }): XmlRpcValue {
  return { flerror: !outcome.ok, message: outcome.ok ? 'Thanks for the ping.' : outcome.message };
}

/** GET /pingSiteForm: without parameters the form; with name and url, the ping and its result. */
export async function pingSiteForm(deps: DoorDeps, base: string, query: URLSearchParams): Promise<Response> {
  const name = (query.get('name') ?? '').trim();
  const url = (query.get('url') ?? '').trim();
  const form = `<form method="get" action="${escapeAttr(`${base}/pingSiteForm`)}">
<p><label>Site name <input name="name" value="${escapeAttr(name)}" size="40"></label></p>
<p><label>Site or feed URL <input type="url" name="url" value="${escapeAttr(url)}" size="60" required></label></p>
<p><button type="submit">Ping</button></p></form>`;
  const answer = (status: number, heading: string, text: string) =>
    htmlResponse(
      page(`Tidings cloud: ${heading}`, `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p>${form}`),
      status,
    );
  if (!query.has('url') && !query.has('name'))
    return answer(200, 'Ping a site', 'Tell the cloud your site changed.');
  if (!url || !isHttpUrl(url))
    return answer(400, 'Ping not accepted', 'Give the http or https address of your site or its feed.');
  const outcome = await siteChanged(deps, { name, siteUrl: url, feedUrl: null });
  return outcome.ok
    ? answer(
        200,
        'Thanks for the ping.',
        `${outcome.feedUrl} was read; its subscribers are told when it changed.`,
      )
    : answer(422, 'Ping not accepted', outcome.message);
}

/** GET /changes.xml: the resources that changed in the last hour, newest first (weblogs.com's form). */
export async function changesXml(store: CloudStore, now: number): Promise<Response> {
  const rows = await store.recentChanges(now - CHANGES_WINDOW_MS, MAX_CHANGES);
  const lines = rows.map((r) => {
    const when = Math.max(0, Math.round((now - r.whenLastUpdate) / 1000));
    return `\t<weblog name="${escapeAttr(r.siteName ?? r.siteUrl ?? r.url)}" url="${escapeAttr(r.siteUrl ?? r.url)}" rssUrl="${escapeAttr(r.url)}" when="${when}"/>`;
  });
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<weblogUpdates version="2" updated="${new Date(now).toUTCString()}" count="${rows.length}">
${lines.join('\n')}${lines.length ? '\n' : ''}</weblogUpdates>
`;
  return new Response(xml, {
    status: 200,
    headers: { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'max-age=60' },
  });
}
