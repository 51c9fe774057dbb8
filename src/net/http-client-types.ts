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
