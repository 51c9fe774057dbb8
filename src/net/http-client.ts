/**
 * The one HTTP client (ARCHITECTURE: one owner per concern), on node:http/https so sockets,
 * timeouts and caps are ours. fetchFeed is the polite feed fetch (conditional GET, compression,
 * redirects that may move a subscription, cache hints); request is everything else (pings,
 * pleaseNotify, XML-RPC, notifications). Neither throws: failures are readable values.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type Clock, systemClock } from '../common/clock.ts';
import { fail, ok, type Result } from '../common/errors.ts';
import { authHeaders, splitUserinfo } from './auth.ts';
import { cacheHints, emptyHints } from './cache-hints.ts';
import { ACCEPT_ENCODING } from './decompress.ts';
import { follow } from './follow.ts';
import { DEFAULT_HOST_POLICY, guardedLookup } from './host-guard.ts';
import type { HttpClient, HttpRequest, HttpResponse } from './http-client-types.ts';
import { resolveLocalhostNames } from './localhost-names.ts';
import { badUrl, statusError } from './net-errors.ts';
import { createAgents } from './send.ts';
import {
  type Credentials,
  DEFAULT_FETCH_LIMITS,
  type FeedFetchRequest,
  type FeedFetchResult,
  type FetchLimits,
  type HostPolicy,
} from './types.ts';
import { DEFAULT_PROJECT_URL, DEFAULT_VERSION, userAgent } from './user-agent.ts';

export interface HttpClientOptions {
  /** Tidings' version, for the User-Agent. */
  version?: string;
  /** Where publishers can read about the fetcher, for the User-Agent. */
  projectUrl?: string;
  limits?: Partial<FetchLimits>;
  hostPolicy?: Partial<HostPolicy>;
  /** Parallel connections per host (default 8; a cloud notifying thousands on one host: 64-256). */
  maxSocketsPerHost?: number;
  /** Wall-clock source for cache hints (Retry-After seconds, WSSE Created). Timeouts use real time. */
  clock?: Clock;
  /** Extra certificate authorities (PEM) to trust besides the system's: a private CA, a test certificate. */
  ca?: string | Uint8Array;
}

/** Feed types first, then generic XML/JSON, then anything (HTML pages for autodiscovery). */
export const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, ' +
  'application/json;q=0.8, application/xml;q=0.8, text/xml;q=0.8, text/html;q=0.5, */*;q=0.1';

export const DEFAULT_REQUEST_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_SOCKETS_PER_HOST = 8;

/** A URL we can fetch: absolute http(s) with a host; userinfo split off into Basic credentials. */
export function parseTarget(
  raw: string,
): { ok: true; url: URL; credentials: Credentials | null } | { ok: false; error: ReturnType<typeof badUrl> } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, error: badUrl(raw, 'it is not a complete address') };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: badUrl(raw, 'only http and https addresses can be fetched') };
  }
  if (!url.hostname) return { ok: false, error: badUrl(raw, 'it has no host name') };
  url.hash = '';
  const split = splitUserinfo(url);
  return { ok: true, url: split.url, credentials: split.credentials };
}

/** A stored validator is only sent if it is a legal header value (a hostile server may have set it). */
function headerSafe(value: string | null | undefined): string | null {
  return value && /^[\t\x20-\x7e\x80-\xff]+$/.test(value) ? value : null;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function firstHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

export function createHttpClient(opts: HttpClientOptions = {}): HttpClient {
  const version = opts.version ?? DEFAULT_VERSION;
  const projectUrl = opts.projectUrl ?? DEFAULT_PROJECT_URL;
  const limits: FetchLimits = { ...DEFAULT_FETCH_LIMITS, ...opts.limits };
  // Read at each connection, not copied: the app's "Allow local network feeds" setting changes
  // the policy of the running client (the caller may pass an object with getters).
  const given = opts.hostPolicy ?? {};
  const policy: HostPolicy = {
    get allowLoopback() {
      return given.allowLoopback ?? DEFAULT_HOST_POLICY.allowLoopback;
    },
    get allowPrivate() {
      return given.allowPrivate ?? DEFAULT_HOST_POLICY.allowPrivate;
    },
    get howToAllow() {
      return given.howToAllow;
    },
  };
  const clock = opts.clock ?? systemClock;
  const agents = createAgents(opts.maxSocketsPerHost ?? DEFAULT_MAX_SOCKETS_PER_HOST, opts.ca);
  const lookup = resolveLocalhostNames(guardedLookup(policy));
  const shared = { agents, lookup, policy, connectTimeoutMs: limits.connectTimeoutMs };

  async function fetchFeed(req: FeedFetchRequest): Promise<FeedFetchResult> {
    const started = performance.now();
    const sent = { ifNoneMatch: headerSafe(req.etag), ifModifiedSince: headerSafe(req.lastModified) };
    const base = { requestedUrl: req.url, movedTo: null, cache: emptyHints(), sent };
    const elapsed = () => Math.round(performance.now() - started);

    const target = parseTarget(req.url);
    if (!target.ok)
      return { ...base, kind: 'error', status: null, error: target.error, elapsedMs: elapsed() };
    const credentials = req.credentials ?? target.credentials;

    const headers: Record<string, string> = {
      'user-agent': userAgent(version, projectUrl, req.subscribers ?? 1),
      accept: FEED_ACCEPT,
      'accept-encoding': ACCEPT_ENCODING,
    };
    if (sent.ifNoneMatch) headers['if-none-match'] = sent.ifNoneMatch;
    if (sent.ifModifiedSince) headers['if-modified-since'] = sent.ifModifiedSince;

    const done = await follow({
      ...shared,
      url: target.url,
      method: 'GET',
      headers,
      authHeaders: credentials ? () => authHeaders(credentials, clock.now()) : undefined,
      maxRedirects: limits.maxRedirects,
      overflow: 'error',
      wantsBody: (status) => status >= 200 && status < 300,
      maxBodyBytes: limits.maxBodyBytes,
      totalTimeoutMs: limits.totalTimeoutMs,
      signal: req.signal,
    });
    if (!done.ok) return { ...base, kind: 'error', status: null, error: done.error, elapsedMs: elapsed() };

    const { exchange, finalUrl } = done;
    const { status, headers: h } = exchange;
    const now = clock.now();
    // The subscription only moves when the moved address actually answered.
    const movedTo = done.movedTo?.href ?? null;
    if (status === 304) {
      const cache = cacheHints(h, now, { freshness: true, retryAfter: false });
      return { ...base, kind: 'notModified', status, movedTo, cache, elapsedMs: elapsed() };
    }
    if (status === 410) return { ...base, kind: 'gone', status, elapsedMs: elapsed() };
    if (status >= 200 && status < 300) {
      return {
        ...base,
        kind: 'ok',
        status,
        movedTo,
        cache: cacheHints(h, now, { freshness: true, retryAfter: false }),
        finalUrl: finalUrl.href,
        body: exchange.body,
        wireBytes: exchange.wireBytes,
        contentType: firstHeader(h['content-type']),
        etag: firstHeader(h.etag),
        lastModified: firstHeader(h['last-modified']),
        bodyHash: createHash('sha256').update(exchange.body).digest('hex'),
        link: h.link === undefined ? null : Array.isArray(h.link) ? h.link.join(', ') : h.link,
        elapsedMs: elapsed(),
      };
    }
    const cache = cacheHints(h, now, { freshness: false, retryAfter: status === 429 || status === 503 });
    return {
      ...base,
      kind: 'error',
      status,
      cache,
      error: statusError(status, finalUrl),
      elapsedMs: elapsed(),
    };
  }

  async function request(req: HttpRequest): Promise<Result<HttpResponse>> {
    const started = performance.now();
    const target = parseTarget(req.url);
    if (!target.ok) return fail(target.error);

    const headers: Record<string, string> = {
      'user-agent': userAgent(version, projectUrl),
      accept: '*/*',
      'accept-encoding': ACCEPT_ENCODING,
    };
    for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
    if (req.body !== undefined && headers['content-length'] === undefined) {
      headers['content-length'] = String(Buffer.byteLength(req.body));
    }
    const credentials = target.credentials;

    const done = await follow({
      ...shared,
      url: target.url,
      method: req.method,
      headers,
      body: req.body,
      authHeaders:
        credentials && headers.authorization === undefined
          ? () => authHeaders(credentials, clock.now())
          : undefined,
      maxRedirects: req.maxRedirects ?? 0,
      overflow: (req.maxRedirects ?? 0) > 0 ? 'error' : 'return',
      wantsBody: () => true,
      maxBodyBytes: req.feedSized
        ? limits.maxBodyBytes
        : (req.maxBodyBytes ?? DEFAULT_REQUEST_MAX_BODY_BYTES),
      totalTimeoutMs: req.timeoutMs ?? limits.totalTimeoutMs,
      signal: req.signal,
    });
    if (!done.ok) return fail(done.error);
    return ok({
      status: done.exchange.status,
      headers: flattenHeaders(done.exchange.headers),
      body: done.exchange.body,
      finalUrl: done.finalUrl.href,
      movedTo: done.movedTo?.href ?? null,
      elapsedMs: Math.round(performance.now() - started),
    });
  }

  return {
    fetchFeed,
    request,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
