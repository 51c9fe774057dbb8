/**
 * The node:http adapter for Request -> Response handlers (STYLE §9, Hono-style): the receiver
 * and the cloud are plain `(Request) => Response` functions that unit tests call directly; this
 * file is the only place that knows about sockets. Bodies are buffered up to a cap (413 beyond
 * it, at once, the rest of the body read and dropped: see readRequestBody); a handler that throws
 * becomes a 500 and never takes the process down. Time limits and
 * connection caps (serve-limits.ts) keep slow or numerous clients from starving everyone else.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type LeanLane, leanConnection } from './lean-lane.ts';
import {
  type ConnectionStats,
  guardConnections,
  refuseSocket,
  resolveLimits,
  type ServeLimits,
} from './serve-limits.ts';

export { DEFAULT_SERVE_LIMITS, type ServeLimits } from './serve-limits.ts';

export type Handler = (req: Request, info: { remoteAddress: string }) => Response | Promise<Response>;

/** A call as the fast path sees it: the body is whole (under maxBodyBytes), or null for GET/HEAD. */
export interface RawRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  remoteAddress: string;
  body: Buffer | null;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Answers some calls from plain values, null for the rest (they go to the Web-style handler).
 * For hot routes only: a storm of rssCloud notifications spent most of its time building
 * Request/Headers/Response/streams per call (bench:latency).
 */
export type RawHandler = (req: RawRequest) => RawResponse | null;

export interface ServeOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Default 127.0.0.1 (ARCHITECTURE: every listening socket binds loopback unless told otherwise). */
  host?: string;
  /** Cap on request bodies; beyond it the answer is 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** A cap per request target instead (one route takes whole feeds, the others a few KB). */
  maxBodyBytesFor?: (url: string) => number;
  /** Told about handler failures (the client only sees "Internal Server Error"). */
  onError?: (err: unknown) => void;
  /** Time limits and connection caps (DEFAULT_SERVE_LIMITS for what is not given). */
  limits?: Partial<ServeLimits>;
  /** Tried first for every whole request (see RawHandler). */
  raw?: RawHandler;
  /** Told about each body refused for its size (413), which no handler sees (logs, fallbacks). */
  onTooLarge?: (req: { url: string; remoteAddress: string }) => void;
  /**
   * A body over its cap is still read (and dropped) up to this many bytes before the 413, so the
   * client can read the answer (default 16 MiB; the request's time limit holds meanwhile).
   */
  maxDiscardBytes?: number;
}

export const DEFAULT_MAX_DISCARD_BYTES = 16 * 1024 * 1024;

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
  server: http.Server;
  /** Open connections and what the caps refused or evicted so far. */
  connections(): ConnectionStats;
  /** An upgrade handler took this socket over (WebSocket): never evict it. */
  keep(socket: Duplex): void;
}

export const DEFAULT_SERVE_MAX_BODY_BYTES = 1024 * 1024;

class BodyTooLarge extends Error {}

/**
 * The body, up to `max` bytes, to `done` once (a callback, not a promise: a storm of small
 * notifications paid for the promise and its continuation on every call, bench:latency). Past the
 * cap (or declared past it) `over` is called at once, so the 413 goes out while the rest is read
 * and dropped, up to `discardMax`, and only then refused: a client that reads once it has sent
 * everything (curl, most libraries) reads our answer, where a close mid-upload reset its
 * connection (EPIPE) and it never saw why; and a client that reads as it goes has the answer
 * without sending the rest. Beyond `discardMax` (or declared so) it is cut off at once.
 */
function readRequestBody(
  req: IncomingMessage,
  max: number,
  discardMax: number,
  over: () => void,
  done: (err: Error | null, body: Buffer) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > Math.max(max, discardMax)) {
    done(new BodyTooLarge(), EMPTY);
    return;
  }
  let dropping = Number.isFinite(declared) && declared > max;
  if (dropping) over();
  let first: Buffer | null = null;
  let chunks: Buffer[] | null = null;
  let size = 0;
  let settled = false;
  const settle = (err: Error | null, body: Buffer) => {
    if (settled) return;
    settled = true;
    done(err, body);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (!dropping && size > max) {
      dropping = true;
      first = null;
      chunks = null;
      over();
    }
    if (dropping) {
      if (size > discardMax) settle(new BodyTooLarge(), EMPTY);
    } else if (first === null) first = chunk;
    else {
      chunks ??= [first];
      chunks.push(chunk);
    }
  });
  req.once('end', () =>
    dropping
      ? settle(new BodyTooLarge(), EMPTY)
      : settle(null, chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY)),
  );
  req.once('error', (err) => settle(err, EMPTY));
  // A client that goes away mid-body: nothing to answer.
  req.once('close', () => {
    if (!req.complete) settle(new Error('request aborted'), EMPTY);
  });
}

const EMPTY = Buffer.alloc(0);

function toWebRequest(req: IncomingMessage, body: Buffer | null, fallbackOrigin: string): Request {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? ''}`);
  } catch {
    url = new URL(req.url ?? '/', fallbackOrigin);
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      // A header value Headers refuses (stray control characters): drop it.
    }
  }
  const method = req.method ?? 'GET';
  const hasBody = body !== null && method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, ...(hasBody ? { body } : {}) });
}

async function writeWebResponse(res: ServerResponse, response: Response, isHead: boolean): Promise<void> {
  const body = isHead || response.body === null ? null : Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (body !== null && !res.hasHeader('content-length') && !res.hasHeader('transfer-encoding')) {
    res.setHeader('content-length', body.length);
  }
  res.end(body ?? undefined);
}

function writeRawResponse(res: ServerResponse, answer: RawResponse, isHead: boolean): void {
  res.statusCode = answer.status;
  for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
  res.setHeader('content-length', Buffer.byteLength(answer.body));
  // A string body goes out with the headers in one write (a Buffer would be a writev of two).
  res.end(isHead ? undefined : answer.body);
}

/**
 * The 413 written whole (its length says where it ends) but the response not ended: the connection
 * stays open while the rest of the body is read and dropped, then `res.end()` closes it.
 */
function startTooLarge(res: ServerResponse): void {
  if (res.headersSent) return;
  const text = 'Payload Too Large';
  res.writeHead(413, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  res.write(text);
}

function plain(res: ServerResponse, status: number, text: string, close = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  // After an unread body the connection cannot be reused: say so and close it.
  if (close) res.setHeader('connection', 'close');
  res.end(text);
}

export async function serve(handler: Handler, opts: ServeOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_SERVE_MAX_BODY_BYTES;
  let origin = `http://${host}`;

  const limits = resolveLimits(opts.limits);
  // Node loads its Request/Response classes (undici) on their first use: about 100 ms here. Loaded
  // now, before the port opens, so the first request (a browser's first page: bench:river's cold
  // start) does not wait for it.
  void new Response(null);
  const server = http.createServer(
    {
      keepAlive: true,
      // How often node looks for requests past headersTimeout/requestTimeout (default 30 s).
      connectionsCheckingInterval: limits.checkIntervalMs,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
    },
    (req, res) => handle(req, res),
  );
  // Sockets in the fast lane (lean-lane.ts) until a request needs node:http: node's own
  // connection listener is called only then, so node does not know them (close() must).
  const laneSockets = new Set<Socket>();
  if (opts.raw) {
    const nodeConnection = server.listeners('connection') as ((socket: Socket) => void)[];
    server.removeAllListeners('connection');
    const raw = opts.raw;
    const lane: LeanLane = {
      raw,
      capFor: (url) => opts.maxBodyBytesFor?.(url) ?? maxBodyBytes,
      keepAliveTimeoutMs: limits.keepAliveTimeoutMs,
      onError: opts.onError,
      handOver: (socket) => {
        laneSockets.delete(socket);
        for (const listener of nodeConnection) listener.call(server, socket);
      },
    };
    server.on('connection', (socket: Socket) => {
      if (socket.destroyed) return; // refused by the guard (below, it runs first)
      laneSockets.add(socket);
      socket.once('close', () => laneSockets.delete(socket));
      leanConnection(socket, lane);
    });
  }
  const guard = guardConnections(server, limits);

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'GET' || req.method === 'HEAD') {
      req.resume();
      void answer(req, res, null);
      return;
    }
    let refused = false;
    const tooLarge = () => {
      if (refused) return;
      refused = true;
      startTooLarge(res);
      opts.onTooLarge?.({ url: req.url ?? '/', remoteAddress: req.socket.remoteAddress ?? '' });
    };
    readRequestBody(
      req,
      opts.maxBodyBytesFor?.(req.url ?? '/') ?? maxBodyBytes,
      opts.maxDiscardBytes ?? DEFAULT_MAX_DISCARD_BYTES,
      tooLarge,
      (err, body) => {
        if (err instanceof BodyTooLarge) {
          tooLarge();
          res.end();
        } else if (err) res.destroy();
        else void answer(req, res, body);
      },
    );
  }

  async function answer(req: IncomingMessage, res: ServerResponse, body: Buffer | null): Promise<void> {
    try {
      const quick = opts.raw?.({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        remoteAddress: req.socket.remoteAddress ?? '',
        body,
      });
      if (quick) {
        // Answered at once: no turn of the loop in which the connection could be evicted.
        writeRawResponse(res, quick, req.method === 'HEAD');
        return;
      }
      // Received whole: from now on the connection is working, not lingering (serve-limits.ts).
      res.once('close', guard.busy(req.socket));
      const request = toWebRequest(req, body, origin);
      const response = await handler(request, { remoteAddress: req.socket.remoteAddress ?? '' });
      await writeWebResponse(res, response, req.method === 'HEAD');
    } catch (err) {
      opts.onError?.(err);
      plain(res, 500, 'Internal Server Error');
    }
  }

  // A malformed request, a timeout or a reset socket must not become an unhandled 'error'; what
  // is refused is destroyed (an end() alone waits for a peer that may never close).
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // A connection that never sent a byte is closed without an answer. A tunnel client (and any
    // proxy) opens connections ahead of the requests it will carry: a 408 written on one of them
    // was read as the answer to the next request sent through it ("it answered 408").
    if (timedOut && (socket as Socket).bytesRead === 0) {
      socket.destroy();
      return;
    }
    refuseSocket(socket, timedOut ? '408 Request Timeout' : '400 Bad Request');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue: a burst of connections (a flood the caps will cut) must not fill it
    // and make the kernel drop a real client's SYN (retried only after 1 s, then 3 s).
    server.listen({ port: opts.port ?? 0, host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  origin = `http://${urlHost}:${port}`;

  return {
    url: origin,
    port,
    host,
    server,
    connections: () => guard.stats(),
    keep: (socket) => guard.keep(socket),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of laneSockets) socket.destroy();
      }),
  };
}

/**
 * Query parameters merged with an application/x-www-form-urlencoded body (rssCloud clients put
 * `url` in either). Reads the request body: call it once, on a request nobody else reads.
 */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(req.url).search);
  const type = req.headers.get('content-type') ?? '';
  if (req.body !== null && /^application\/x-www-form-urlencoded\b/i.test(type)) {
    for (const [name, value] of new URLSearchParams(await req.text())) params.append(name, value);
  }
  return params;
}
