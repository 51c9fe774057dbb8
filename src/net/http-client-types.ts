import type { Result } from '../common/errors.ts';
import type { FeedFetchRequest, FeedFetchResult } from './types.ts';

/** A plain request for everything that is not a feed fetch: pings, pleaseNotify, XML-RPC, notify. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Overall deadline for this request (default: the client's totalTimeoutMs). */
  timeoutMs?: number;
  /** Cap on the response body (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * Cap the body as a feed fetch is capped (the client's one feed limit, 20 MiB by default)
   * instead of maxBodyBytes: subscribing reads what polling will.
   */
  feedSized?: boolean;
  /** Redirects to follow (default 0: a 3xx is returned as is). */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: Uint8Array;
  finalUrl: string;
  /**
   * Where permanent redirects (301/308, every hop so far permanent) moved the address: what a
   * subscription should follow. Null when none did (a 302/307 is where it is today, not its address).
   */
  movedTo?: string | null;
  elapsedMs: number;
}

/** The one HTTP client (ARCHITECTURE: one owner per concern). Keep-alive agents, limits, host policy. */
export interface HttpClient {
  /** A polite feed fetch: conditional GET, decompression, redirects, caps; never throws. */
  fetchFeed(req: FeedFetchRequest): Promise<FeedFetchResult>;
  /** Any other request; never throws (errors come back as readable values). */
  request(req: HttpRequest): Promise<Result<HttpResponse>>;
  /** Closes idle keep-alive sockets. */
  close(): void;
}
