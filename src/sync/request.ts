/**
 * Reading a sync client's request: parameters from the query and, for a form POST, the body,
 * merged and repeatable (`i=1&i=2`), as FreshRSS and Miniflux read them. Clients write forms
 * loosely (NetNewsWire sends folder names and its edit token unencoded, the token with a trailing
 * newline), so values are taken as URLSearchParams decodes them and trimmed where a client may
 * pad them. And who is asking, for the login rate limit.
 */
import { forwardedPeer } from '../net/forwarded-peer.ts';

export interface Params {
  get(name: string): string | null;
  all(name: string): string[];
  has(name: string): boolean;
}

const FORM = /^application\/x-www-form-urlencoded\b/i;

/** Query parameters, then (POST with a form body) the body's: `get` gives the body's first. */
export async function readParams(req: Request): Promise<Params> {
  const url = new URL(req.url);
  const query = url.searchParams;
  let body: URLSearchParams | null = null;
  if (req.method === 'POST') {
    const type = req.headers.get('content-type') ?? '';
    const text = await req.text();
    // Some clients send a form without saying so: a body that looks like one is read as one.
    if (FORM.test(type) || (type === '' && /^[^\s{<]*=/.test(text))) body = new URLSearchParams(text);
  }
  return {
    get: (name) => body?.get(name) ?? query.get(name),
    all: (name) => [...query.getAll(name), ...(body?.getAll(name) ?? [])],
    has: (name) => query.has(name) || (body?.has(name) ?? false),
  };
}

/**
 * The caller's address for rate limits: the tunnel server's word, not the caller's
 * (net/forwarded-peer.ts). A caller that forges the header only moves itself into another bucket:
 * the limit over all callers (login-guard.ts) still holds.
 */
export function peerOf(req: Request, remoteAddress: string): string {
  return forwardedPeer(req.headers.get('x-forwarded-for'), remoteAddress, 'last');
}

export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export const notFound = (): Response => text('Not found', 404);

export function tooMany(retryAfterSec: number): Response {
  return text(`Too many login attempts: try again in ${retryAfterSec} s.`, 429, {
    'retry-after': String(retryAfterSec),
  });
}
