/**
 * One HTTP exchange on node:http / node:https with our own keep-alive agents, the guarded
 * `lookup`, a connect timeout (TCP + TLS handshake) and an abort signal the caller uses for the
 * total deadline. Redirects, credentials and result shapes live above this (follow.ts).
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import tls from 'node:tls';
import { discardBody, readBody } from './decompress.ts';
import { aborted, connectTimeout, NetFailure } from './net-errors.ts';

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * One keep-alive agent per protocol; `maxSocketsPerHost` bounds parallel connections to a host.
 * `extraCa` adds certificate authorities to the system's (a private CA; a test certificate).
 */
export function createAgents(maxSocketsPerHost: number, extraCa?: string | Uint8Array): Agents {
  const options = {
    keepAlive: true,
    maxSockets: maxSocketsPerHost,
    maxFreeSockets: Math.max(4, Math.min(maxSocketsPerHost, 256)),
    scheduling: 'lifo' as const,
    // Idle keep-alive sockets are dropped after this long (servers usually close sooner).
    timeout: 30_000,
  };
  const ca = extraCa ? [...tls.rootCertificates, Buffer.from(extraCa).toString('utf8')] : undefined;
  return { http: new http.Agent(options), https: new https.Agent(ca ? { ...options, ca } : options) };
}

export interface SendOptions {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
  agents: Agents;
  lookup: LookupFunction;
  connectTimeoutMs: number;
  /** Aborting it ends the exchange; a NetFailure reason (e.g. the deadline) is the error reported. */
  signal: AbortSignal;
  /** Read the body of a response with this status, or drain and drop it. */
  wantsBody(status: number): boolean;
  maxBodyBytes: number;
}

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  wireBytes: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Sends the request. A keep-alive socket the server closed just as we reused it fails with
 * ECONNRESET before any response: idempotent requests are retried once on a fresh socket.
 */
export async function send(opts: SendOptions): Promise<Exchange> {
  const first = await attempt(opts);
  if ('value' in first) return first.value;
  if (first.staleSocket && IDEMPOTENT.has(opts.method) && !opts.signal.aborted) {
    const second = await attempt(opts);
    if ('value' in second) return second.value;
    throw second.error;
  }
  throw first.error;
}

type Attempt = { value: Exchange } | { error: unknown; staleSocket: boolean };

function attempt(opts: SendOptions): Promise<Attempt> {
  const { url, signal } = opts;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    let responded = false;
    let res: IncomingMessage | null = null;
    let connectTimer: ReturnType<typeof setTimeout> | null = null;

    const isHttps = url.protocol === 'https:';
    const req = (isHttps ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: url.pathname + url.search,
      method: opts.method,
      headers: opts.headers,
      agent: isHttps ? opts.agents.https : opts.agents.http,
      lookup: opts.lookup,
    });

    const finish = (result: Attempt) => {
      if (settled) return;
      settled = true;
      if (connectTimer) clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const failWith = (error: unknown) => {
      const staleSocket =
        !responded &&
        req.reusedSocket &&
        ['ECONNRESET', 'EPIPE'].includes((error as { code?: string }).code ?? '');
      finish({ error, staleSocket });
    };
    const onAbort = () => {
      const reason = signal.reason instanceof NetFailure ? signal.reason : new NetFailure(aborted(url));
      res?.destroy(reason);
      req.destroy(reason);
      failWith(reason);
    };

    // Errors after we settled (a late reset on a destroyed socket) must not crash the process.
    req.on('error', failWith);
    req.on('socket', (socket: Socket) => {
      // A socket handed over from the agent's queue may already be connected without being
      // marked reused: waiting for its 'connect' would leak a listener that never fires.
      if (req.reusedSocket || settled || !socket.connecting) return;
      connectTimer = setTimeout(
        () => req.destroy(new NetFailure(connectTimeout(url, opts.connectTimeoutMs))),
        opts.connectTimeoutMs,
      );
      socket.once(isHttps ? 'secureConnect' : 'connect', () => {
        if (connectTimer) clearTimeout(connectTimer);
        connectTimer = null;
      });
    });
    req.on('response', (response) => {
      responded = true;
      res = response;
      if (connectTimer) clearTimeout(connectTimer);
      const status = response.statusCode ?? 0;
      const base = { status, headers: response.headers, body: Buffer.alloc(0), wireBytes: 0 };
      if (opts.method === 'HEAD' || !opts.wantsBody(status)) {
        discardBody(response, url).then(() => finish({ value: base }));
        return;
      }
      readBody(response, { maxBytes: opts.maxBodyBytes, decode: true, url }).then(
        ({ body, wireBytes }) => finish({ value: { ...base, body, wireBytes } }),
        failWith,
      );
    });

    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}
