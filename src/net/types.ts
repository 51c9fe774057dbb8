import type { TidingsError } from '../common/errors.ts';

/** Per-feed credentials for private feeds. Never logged, exported or shown. */
export type Credentials =
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'wsse'; username: string; password: string };

/** What the server said about when to come back (read by the scheduler, src/poll/). */
export interface CacheHints {
  /** Cache-Control max-age, seconds. */
  maxAgeSec: number | null;
  /** Expires header, ms since epoch. */
  expiresAt: number | null;
  /** Retry-After (429/503), ms since epoch. */
  retryAfterAt: number | null;
}

export interface FeedFetchRequest {
  url: string;
  etag?: string | null;
  lastModified?: string | null;
  credentials?: Credentials | null;
  /** People this install reads the feed for (User-Agent "N subscribers"); 1 on a desktop. */
  subscribers?: number;
  signal?: AbortSignal;
}

interface FetchCommon {
  /** The URL asked for. */
  requestedUrl: string;
  /** Set when a 301/308 was followed: the subscription should move here (user is told). */
  movedTo: string | null;
  cache: CacheHints;
  /** Conditional headers that were sent, for `tidings fetch` and the activity log. */
  sent: { ifNoneMatch: string | null; ifModifiedSince: string | null };
  elapsedMs: number;
}

/** The fetcher's tagged result (STYLE: notModified | ok | gone | error). */
export type FeedFetchResult =
  | (FetchCommon & {
      kind: 'ok';
      status: number;
      /** The URL the body finally came from (after any redirects). */
      finalUrl: string;
      /** Decompressed body. */
      body: Uint8Array;
      /** Bytes on the wire (compressed). */
      wireBytes: number;
      contentType: string | null;
      etag: string | null;
      lastModified: string | null;
      /** sha256 hex of the decompressed body: an unchanged 200 is not re-parsed. */
      bodyHash: string;
      /** The Link header(s), joined (WebSub discovery: rel="hub" and rel="self"); null when none. */
      link: string | null;
    })
  | (FetchCommon & { kind: 'notModified'; status: 304 })
  | (FetchCommon & { kind: 'gone'; status: 410 })
  | (FetchCommon & { kind: 'error'; status: number | null; error: TidingsError });

/** Limits against hostile or broken servers. */
export interface FetchLimits {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxRedirects: number;
  /** Cap on the decompressed body (gzip bombs stop here). */
  maxBodyBytes: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  maxRedirects: 5,
  maxBodyBytes: 20 * 1024 * 1024,
};

/** Which hosts outbound requests may reach. User-supplied URLs to private hosts are refused. */
export interface HostPolicy {
  /** Allow loopback (tests, local feeds). */
  allowLoopback: boolean;
  /** Allow RFC 1918 / link-local / unique-local addresses. */
  allowPrivate: boolean;
  /**
   * How the person running this opens each kind, named in refusals (e.g. `tidings cloud`'s
   * "start the cloud with --allow-loopback"); absent: the setting's own name.
   */
  howToAllow?: { loopback?: string; private?: string };
}
