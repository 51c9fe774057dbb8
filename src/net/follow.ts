/**
 * The redirect loop around send(): one total deadline over every hop, the host guard on every
 * hop, credentials only while the chain stays on the first origin, errors mapped with the URL
 * that failed. Shared by fetchFeed and request.
 */
import type { LookupFunction } from 'node:net';
import type { TidingsError } from '../common/errors.ts';
import { checkLiteralHost } from './host-guard.ts';
import { mapNetError, NetFailure, tooManyRedirects, totalTimeout } from './net-errors.ts';
import {
  isRedirect,
  MoveTracker,
  mayKeepCredentials,
  methodAfterRedirect,
  ORIGIN_BOUND_HEADERS,
  resolveLocation,
} from './redirects.ts';
import { type Agents, type Exchange, send } from './send.ts';
import type { HostPolicy } from './types.ts';

export interface FollowOptions {
  url: URL;
  method: string;
  /** Lower-case names. Origin-bound ones (authorization, cookie...) are dropped when leaving the origin. */
  headers: Record<string, string>;
  body?: Uint8Array | string;
  /** Fresh credential headers for each same-origin hop (WSSE needs a new nonce every time). */
  authHeaders?: () => Record<string, string>;
  /** 0 with `overflow: 'return'` means a 3xx comes back as is. */
  maxRedirects: number;
  overflow: 'error' | 'return';
  wantsBody(status: number): boolean;
  maxBodyBytes: number;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  signal?: AbortSignal;
  agents: Agents;
  lookup: LookupFunction;
  policy: HostPolicy;
}

export type Followed =
  | { ok: true; exchange: Exchange; finalUrl: URL; movedTo: URL | null }
  | { ok: false; error: TidingsError; movedTo: URL | null };

export async function follow(opts: FollowOptions): Promise<Followed> {
  let current = opts.url;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new NetFailure(totalTimeout(current, opts.totalTimeoutMs))),
    opts.totalTimeoutMs,
  );
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
  try {
    return await loop(opts, signal, (u) => (current = u));
  } finally {
    clearTimeout(timer);
  }
}

async function loop(
  opts: FollowOptions,
  signal: AbortSignal,
  setCurrent: (u: URL) => void,
): Promise<Followed> {
  const moves = new MoveTracker();
  let url = opts.url;
  let method = opts.method;
  let body = opts.body;
  let headers = { ...opts.headers };
  let credentialsAllowed = true;
  const following = opts.maxRedirects > 0 || opts.overflow === 'error';

  for (let hops = 0; ; ) {
    setCurrent(url);
    const refusal = checkLiteralHost(url, opts.policy);
    if (refusal) return { ok: false, error: refusal, movedTo: moves.movedTo };

    let exchange: Exchange;
    try {
      exchange = await send({
        url,
        method,
        headers: { ...headers, ...(credentialsAllowed && opts.authHeaders ? opts.authHeaders() : {}) },
        body,
        agents: opts.agents,
        lookup: opts.lookup,
        connectTimeoutMs: opts.connectTimeoutMs,
        signal,
        wantsBody: (s) => !(following && isRedirect(s)) && opts.wantsBody(s),
        maxBodyBytes: opts.maxBodyBytes,
      });
    } catch (err) {
      return { ok: false, error: mapNetError(err, url), movedTo: moves.movedTo };
    }

    const location = exchange.headers.location;
    if (!isRedirect(exchange.status) || !location || !following) {
      return { ok: true, exchange, finalUrl: url, movedTo: moves.movedTo };
    }
    if (hops >= opts.maxRedirects) {
      return { ok: false, error: tooManyRedirects(opts.url, opts.maxRedirects), movedTo: moves.movedTo };
    }
    const next = resolveLocation(url, location);
    if ('error' in next) return { ok: false, error: next.error, movedTo: moves.movedTo };
    hops++;
    moves.hop(exchange.status, next.url);

    const change = methodAfterRedirect(exchange.status, method);
    method = change.method;
    if (!change.keepBody) {
      body = undefined;
      headers = withoutHeaders(headers, ['content-type', 'content-length']);
    }
    if (!mayKeepCredentials(opts.url, next.url)) {
      // Once the chain leaves the first origin it never gets credentials back, even if it returns.
      credentialsAllowed = false;
      headers = withoutHeaders(headers, ORIGIN_BOUND_HEADERS);
    }
    url = next.url;
  }
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!names.includes(k)) out[k] = v;
  return out;
}
