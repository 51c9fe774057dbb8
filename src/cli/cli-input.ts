/**
 * Reads a feed for the CLI from a file path, a feed's URL, or a site's address (`example.com`,
 * `https://example.com/`), through the one HTTP client. A site is followed to its feed the way
 * the app's "Add a feed" does (src/feed/discover.ts): the page's <link rel="alternate">, then the
 * usual paths.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_VERSION, PROJECT_URL } from '../app/version.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import { discoverFeed, type FetchTextResult, normaliseUserUrl } from '../feed/discover.ts';
import { judgeFeed } from '../feed/feed-verdict.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { maskUrl } from '../net/mask.ts';

export interface FeedInput {
  body: Uint8Array;
  url: string;
  contentType: string | null;
  /** Set when `source` was a site (or a bare host) and autodiscovery found this feed. */
  discoveredFrom: string | null;
}

/** The CLI acts for the person typing: their own machine and network are fair game. */
export function cliHttpClient(): HttpClient {
  return createHttpClient({
    version: APP_VERSION,
    projectUrl: PROJECT_URL,
    hostPolicy: { allowLoopback: true, allowPrivate: true },
  });
}

/** Files with these endings are never taken for a host name (`feed.xml` is a file, not a site). */
const FILE_ENDING = /\.(?:xml|rss|rdf|atom|json|opml|txt|html?)$/i;

/**
 * Whether `source` names a web address: an http(s) or feed: URL, or something shaped like a host
 * (`example.com`, `localhost:8080/blog`) that is not a file here.
 */
export function isWebAddress(source: string): boolean {
  if (/^(?:https?|feeds?):/i.test(source)) return true;
  if (existsSync(source)) return false;
  const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::\d+)?(?:[/?#]|$)/i.exec(source)?.[1];
  if (!host || FILE_ENDING.test(host)) return false;
  return host.includes('.') || host.toLowerCase() === 'localhost';
}

export async function readFeedInput(source: string, http: HttpClient): Promise<Result<FeedInput>> {
  if (isWebAddress(source)) return readWebFeed(source, http);
  try {
    const path = resolve(source);
    return ok({
      body: new Uint8Array(await readFile(path)),
      url: pathToFileURL(path).href,
      contentType: null,
      discoveredFrom: null,
    });
  } catch (e) {
    return fail(tidingsError('cli.read', `Cannot read ${source}: ${fsErrorReason(e)}.`));
  }
}

/** A feed URL is read at once; a page (or a bare host) is followed to its feed first. */
async function readWebFeed(source: string, http: HttpClient): Promise<Result<FeedInput>> {
  let url: string;
  if (/^https?:\/\//i.test(source)) {
    url = source;
    const res = await http.fetchFeed({ url });
    if (res.kind === 'error') return fail(res.error);
    if (res.kind !== 'ok')
      return fail(tidingsError('cli.status', `${maskUrl(url)} answered ${res.status} with no feed body.`));
    // A feed, or one that says it is a feed but does not parse: the caller parses it and says
    // why (the XML error with its line), not "no feed found" after guessing (issue 35).
    if (judgeFeed(res.body, res.contentType).kind !== 'notFeed')
      return ok({ body: res.body, url: res.finalUrl, contentType: res.contentType, discoveredFrom: null });
  }
  const found = await discoverFeedUrl(source, http);
  if (!found.ok) return found;
  url = found.value;
  const res = await http.fetchFeed({ url });
  if (res.kind === 'ok')
    return ok({ body: res.body, url: res.finalUrl, contentType: res.contentType, discoveredFrom: source });
  if (res.kind === 'error') return fail(res.error);
  return fail(tidingsError('cli.status', `${maskUrl(url)} answered ${res.status} with no feed body.`));
}

/**
 * The feed a site's address leads to (the address itself when it is a feed). Input without a
 * scheme is tried as https, then http, as the app does.
 */
export async function discoverFeedUrl(address: string, http: HttpClient): Promise<Result<string>> {
  const normalised = normaliseUserUrl(address);
  if (!normalised.ok) return normalised;
  const found = await discoverFeed(address, {
    fetchText: (url) => fetchText(http, url),
    judgeFeed,
  });
  return found.ok ? ok(found.value.feedUrl) : found;
}

/** One page or feed for discovery: as much as a feed fetch reads, redirects followed. */
async function fetchText(http: HttpClient, url: string): Promise<FetchTextResult> {
  const res = await http.request({
    method: 'GET',
    url,
    maxRedirects: 5,
    feedSized: true,
    headers: {
      accept: 'application/rss+xml, application/atom+xml, application/feed+json, text/html;q=0.9, */*;q=0.8',
    },
  });
  if (!res.ok) return { ok: false, message: res.error.message };
  if (res.value.status >= 400) return { ok: false, message: `${maskUrl(url)} answered ${res.value.status}.` };
  return {
    ok: true,
    finalUrl: res.value.finalUrl,
    contentType: res.value.headers['content-type'] ?? null,
    body: res.value.body,
  };
}
