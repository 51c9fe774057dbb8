/**
 * A lean keep-alive HTTP/1.1 client for notifications over plain http: one request at a time per
 * socket (no pipelining, as the reference cloud), sockets reused per host, each request written as
 * one string, the answer parsed straight from the socket's bytes. A fan-out to 100,000 subscribers
 * spent most of its ~115 us per delivery in node:http's ClientRequest/IncomingMessage/stream
 * machinery, AbortSignals and the garbage they leave; this does the same exchange for a fraction.
 *
 * Only what a notification needs: POST to an http: URL without credentials. Everything else
 * (https, userinfo, GET challenges) goes to the full HttpClient, see `leanNotifyClient`. Same host
 * policy (the guarded lookup on names, the literal check on IPs), same error values (net-errors).
 */
import net, { isIP, type LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { fail, ok, type Result, type TidingsError } from '../../common/errors.ts';
import { contentEncodings } from '../../net/decompress.ts';
import { checkLiteralHost, guardedLookup } from '../../net/host-guard.ts';
import type { HttpClient, HttpRequest, HttpResponse } from '../../net/http-client-types.ts';
import { resolveLocalhostNames } from '../../net/localhost-names.ts';
import { badEncoding, mapNetError, tooLarge, totalTimeout } from '../../net/net-errors.ts';
import type { HostPolicy } from '../../net/types.ts';
import { DEFAULT_PROJECT_URL, DEFAULT_VERSION, userAgent } from '../../net/user-agent.ts';

export interface NotifyPoolOptions {
  policy: HostPolicy;
  /** Sockets open to one host at most (requests beyond wait for one). */
  maxSocketsPerHost: number;
}

type Done = (r: Result<HttpResponse>) => void;

interface HostSlot {
  hostname: string;
  port: number;
  /** The Host header as the URL gave it. */
  host: string;
  /**
   * Why the policy refuses this host by its literal (an IP literal outside the policy, a metadata
   * name), or null; checked once per host, not once per notification (the same few hosts take
   * 100,000 of them: the check was a tenth of a fan-out's JavaScript).
   */
  refusal: TidingsError | null;
  idle: Conn[];
  open: number;
  waiting: (() => void)[];
}

const HEAD_END = Buffer.from('\r\n\r\n');
const UA = userAgent(DEFAULT_VERSION, DEFAULT_PROJECT_URL);

/** A request the lean path takes: a plain-http POST without credentials or a caller's signal. */
export function isLeanEligible(req: HttpRequest): boolean {
  return (
    req.method === 'POST' &&
    req.url.startsWith('http://') &&
    !req.signal &&
    (req.maxRedirects ?? 0) === 0 &&
    (req.body === undefined || typeof req.body === 'string')
  );
}

export class NotifyPool {
  private readonly hosts = new Map<string, HostSlot>();
  private readonly lookup: LookupFunction;
  private readonly all = new Set<Conn>();
  private readonly headerBlocks = new WeakMap<object, string>();
  private destroyed = false;
  private readonly opts: NotifyPoolOptions;

  constructor(opts: NotifyPoolOptions) {
    this.opts = opts;
    this.lookup = resolveLocalhostNames(guardedLookup(opts.policy));
  }

  /**
   * One exchange; never throws. A 3xx comes back as is (the caller follows redirects). Null when
   * the lean path does not take this request (not a URL, credentials in it): use the full client.
   */
  request(req: HttpRequest): Promise<Result<HttpResponse>> | null {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return null;
    }
    if (url.protocol !== 'http:' || url.username || url.password) return null;
    const slot = this.slot(url);
    if (slot.refusal) return Promise.resolve(fail(slot.refusal));
    const head = this.headBytes(url, req);
    const started = performance.now();
    const timeoutMs = req.timeoutMs ?? 4000;
    const maxBody = req.maxBodyBytes ?? 1024 * 1024;
    return new Promise((resolve) => {
      const exchange = new Exchange(url, head, maxBody, started, resolve);
      exchange.timer = setTimeout(() => exchange.fail(totalTimeout(url, timeoutMs)), timeoutMs);
      this.start(exchange, false, slot);
    });
  }

  /** Closes every socket; exchanges in flight fail at once. */
  destroy(): void {
    this.destroyed = true;
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    for (const slot of this.hosts.values()) for (const w of slot.waiting.splice(0)) w();
  }

  private start(ex: Exchange, fresh: boolean, slot = this.slot(ex.url)): void {
    if (this.destroyed) {
      ex.fail(mapNetError(Object.assign(new Error('closed'), { code: 'ECONNABORTED' }), ex.url));
      return;
    }
    const conn = fresh ? null : slot.idle.pop();
    if (conn) {
      conn.send(ex);
      return;
    }
    if (slot.open < this.opts.maxSocketsPerHost) {
      slot.open++;
      this.connect(slot).send(ex);
      return;
    }
    slot.waiting.push(() => (ex.settled ? this.next(slot) : this.start(ex, false)));
  }

  private next(slot: HostSlot): void {
    slot.waiting.shift()?.();
  }

  private connect(slot: HostSlot): Conn {
    const socket = net.connect({
      host: slot.hostname,
      port: slot.port,
      ...(isIP(slot.hostname) ? {} : { lookup: this.lookup }),
    });
    socket.setNoDelay(true);
    const conn = new Conn(
      socket,
      (c, reusable) => {
        if (reusable && !this.destroyed) {
          c.socket.unref(); // an idle socket kept for the next fan-out never holds the process open
          slot.idle.push(c);
        } else {
          c.socket.destroy();
          if (this.all.delete(c)) slot.open--;
          const i = slot.idle.indexOf(c);
          if (i >= 0) slot.idle.splice(i, 1);
        }
        this.next(slot);
      },
      (ex) => this.start(ex, true),
    );
    this.all.add(conn);
    return conn;
  }

  private slot(url: URL): HostSlot {
    let slot = this.hosts.get(url.host);
    if (!slot) {
      slot = {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: Number(url.port) || 80,
        host: url.host,
        refusal: checkLiteralHost(url, this.opts.policy),
        idle: [],
        open: 0,
        waiting: [],
      };
      this.hosts.set(url.host, slot);
    }
    return slot;
  }

  /** The request's bytes; the fixed headers are built once per headers object (once per fan-out). */
  private headBytes(url: URL, req: HttpRequest): string {
    const given = req.headers ?? {};
    let block = this.headerBlocks.get(given);
    if (block === undefined) {
      const h: Record<string, string> = { 'user-agent': UA, accept: '*/*' };
      for (const [k, v] of Object.entries(given)) h[k.toLowerCase()] = v;
      delete h['content-length'];
      delete h.host;
      delete h.connection;
      block = '';
      for (const [k, v] of Object.entries(h)) {
        if (/[\r\n]/.test(v)) continue; // never let a value split the request
        block += `${k}: ${v}\r\n`;
      }
      this.headerBlocks.set(given, block);
    }
    const body = (req.body as string | undefined) ?? '';
    return (
      `${req.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${block}` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    );
  }
}

/** One request's state: its bytes, deadline and where the answer goes. */
class Exchange {
  settled = false;
  timer: ReturnType<typeof setTimeout> | null = null;
  conn: Conn | null = null;
  retried = false;
  readonly url: URL;
  readonly head: string;
  readonly maxBody: number;
  readonly started: number;
  private readonly done: Done;

  constructor(url: URL, head: string, maxBody: number, started: number, done: Done) {
    this.url = url;
    this.head = head;
    this.maxBody = maxBody;
    this.started = started;
    this.done = done;
  }

  finish(r: Result<HttpResponse>): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.done(r);
  }

  /** Deadline or pool closed: the socket is abandoned (its answer may still be on its way). */
  fail(error: TidingsError): void {
    if (this.settled) return;
    const conn = this.conn;
    this.finish(fail(error));
    if (conn) conn.abandon();
  }
}

/** One keep-alive socket, at most one exchange at a time. */
class Conn {
  private ex: Exchange | null = null;
  private buf: Buffer | null = null;
  private used = 0;
  private gotBytes = false;
  private parsed: Parsed | null = null;
  private dead = false;
  /** Whether this socket had served an exchange before the current one (a keep-alive reuse). */
  private wasUsed = false;

  readonly socket: net.Socket;
  private readonly release: (c: Conn, reusable: boolean) => void;
  private readonly retry: (ex: Exchange) => void;

  constructor(
    socket: net.Socket,
    release: (c: Conn, reusable: boolean) => void,
    retry: (ex: Exchange) => void,
  ) {
    this.socket = socket;
    this.release = release;
    this.retry = retry;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.onEnd(err));
    socket.on('close', () => this.onEnd(null));
  }

  send(ex: Exchange): void {
    this.ex = ex;
    ex.conn = this;
    this.buf = null;
    this.parsed = null;
    this.gotBytes = false;
    this.wasUsed = this.used > 0;
    this.used++;
    this.socket.ref();
    this.socket.write(ex.head);
  }

  abandon(): void {
    this.ex = null;
    this.kill();
  }

  private kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.release(this, false);
  }

  private onData(chunk: Buffer): void {
    const ex = this.ex;
    if (!ex) {
      this.kill(); // bytes nobody asked for: the socket is not trustworthy
      return;
    }
    this.gotBytes = true;
    this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    const step = parseResponse(this.buf, this.parsed, ex.maxBody, false);
    this.settle(ex, step);
  }

  private onEnd(err: Error | null): void {
    const ex = this.ex;
    this.ex = null;
    if (ex && !ex.settled) {
      // A reused socket the server closed while idle, before any answer: once more on a new one.
      if (this.wasUsed && !this.gotBytes && !ex.retried) {
        ex.retried = true;
        ex.conn = null;
        this.kill();
        this.retry(ex);
        return;
      }
      if (this.buf && this.parsed) {
        const step = parseResponse(this.buf, this.parsed, ex.maxBody, true);
        if (step.kind === 'done') {
          this.settle(ex, step);
          this.kill();
          return;
        }
      }
      ex.finish(fail(mapNetError(err ?? Object.assign(new Error('closed'), { code: 'ECONNRESET' }), ex.url)));
    }
    this.kill();
  }

  private settle(ex: Exchange, step: Step): void {
    if (step.kind === 'more') {
      this.parsed = step.parsed;
      return;
    }
    this.ex = null;
    ex.conn = null;
    if (step.kind === 'error') {
      ex.finish(fail(step.error(ex.url)));
      this.kill();
      return;
    }
    const { parsed, body } = step;
    let decoded: Buffer = body;
    const encodings = contentEncodings(parsed.headers['content-encoding']);
    try {
      for (const e of encodings.reverse()) decoded = decode(e, decoded, ex.maxBody);
    } catch (cause) {
      ex.finish(fail(badEncoding(ex.url, encodings.join(', '), cause)));
      this.kill();
      return;
    }
    ex.finish(
      ok({
        status: parsed.status,
        headers: parsed.headers,
        body: decoded,
        finalUrl: ex.url.href,
        elapsedMs: Math.round(performance.now() - ex.started),
      }),
    );
    if (step.reusable && !this.dead) this.release(this, true);
    else this.kill();
  }
}

function decode(encoding: string, body: Buffer, max: number): Buffer {
  const o = { maxOutputLength: max };
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(body, o);
    case 'deflate':
      try {
        return zlib.inflateSync(body, o);
      } catch {
        return zlib.inflateRawSync(body, o);
      }
    case 'br':
      return zlib.brotliDecompressSync(body, o);
    default:
      throw new Error(`unknown content-encoding ${encoding}`);
  }
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
  framing: 'length' | 'chunked' | 'close' | 'none';
  length: number;
  keepAlive: boolean;
}

type Step =
  | { kind: 'more'; parsed: Parsed | null }
  | { kind: 'done'; parsed: Parsed; body: Buffer; reusable: boolean }
  | { kind: 'error'; error: (url: URL) => TidingsError };

const MAX_HEAD_BYTES = 64 * 1024;

function protocolError(url: URL): TidingsError {
  return mapNetError(Object.assign(new Error('bad response'), { code: 'HPE_INVALID' }), url);
}

/** Parses what arrived so far; `ended` when the server closed the socket. */
export function parseResponse(buf: Buffer, known: Parsed | null, maxBody: number, ended: boolean): Step {
  let parsed = known;
  let from = 0;
  while (!parsed) {
    const end = buf.indexOf(HEAD_END, from);
    if (end < 0) {
      return buf.length - from > MAX_HEAD_BYTES
        ? { kind: 'error', error: protocolError }
        : { kind: 'more', parsed: null };
    }
    const lines = buf.toString('latin1', from, end).split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
    if (!m) return { kind: 'error', error: protocolError };
    const status = Number(m[2]);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) return { kind: 'error', error: protocolError };
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    from = end + 4;
    if (status >= 100 && status < 200) continue; // interim answers (100 Continue) carry no body
    const connection = (headers.connection ?? '').toLowerCase();
    const keepAlive = m[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    const te = (headers['transfer-encoding'] ?? '').toLowerCase();
    const cl = headers['content-length'];
    let framing: Parsed['framing'];
    let length = 0;
    if (status === 204 || status === 304) framing = 'none';
    else if (te.includes('chunked')) framing = 'chunked';
    else if (cl !== undefined) {
      if (!/^\d+$/.test(cl)) return { kind: 'error', error: protocolError };
      framing = 'length';
      length = Number(cl);
      if (length > maxBody) return { kind: 'error', error: (u) => tooLarge(u, maxBody) };
    } else framing = 'close';
    parsed = { status, headers, bodyStart: from, framing, length, keepAlive };
  }

  const start = parsed.bodyStart;
  switch (parsed.framing) {
    case 'none':
      return done(parsed, buf, start, start, parsed.keepAlive);
    case 'length':
      if (buf.length - start < parsed.length) return { kind: 'more', parsed };
      return done(parsed, buf, start, start + parsed.length, parsed.keepAlive);
    case 'close':
      if (buf.length - start > maxBody) return { kind: 'error', error: (u) => tooLarge(u, maxBody) };
      return ended ? done(parsed, buf, start, buf.length, false) : { kind: 'more', parsed };
    case 'chunked':
      return dechunk(parsed, buf, maxBody);
  }
}

function done(parsed: Parsed, buf: Buffer, start: number, end: number, keepAlive: boolean): Step {
  // Bytes after the answer that we did not ask for: do not trust the socket with another request.
  const reusable = keepAlive && end === buf.length;
  return { kind: 'done', parsed, body: buf.subarray(start, end), reusable };
}

function dechunk(parsed: Parsed, buf: Buffer, maxBody: number): Step {
  const parts: Buffer[] = [];
  let size = 0;
  let at = parsed.bodyStart;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return { kind: 'more', parsed };
    const n = Number.parseInt(buf.toString('latin1', at, eol).split(';')[0]!.trim(), 16);
    if (!Number.isFinite(n) || n < 0) return { kind: 'error', error: protocolError };
    if (n === 0) {
      // Trailers (rare) end with an empty line.
      const end = buf.indexOf(HEAD_END, eol);
      const close = buf.subarray(eol, eol + 4).equals(HEAD_END) ? eol + 4 : end < 0 ? -1 : end + 4;
      if (close < 0) return { kind: 'more', parsed };
      return {
        kind: 'done',
        parsed,
        body: Buffer.concat(parts, size),
        reusable: parsed.keepAlive && close === buf.length,
      };
    }
    size += n;
    if (size > maxBody) return { kind: 'error', error: (u) => tooLarge(u, maxBody) };
    if (buf.length < eol + 2 + n + 2) return { kind: 'more', parsed };
    parts.push(buf.subarray(eol + 2, eol + 2 + n));
    at = eol + 2 + n + 2;
  }
}

/**
 * The notify client a fan-out uses: lean for plain-http POSTs, the full client for the rest
 * (https, credentials, anything with a signal or redirects to follow by itself).
 */
export function leanNotifyClient(inner: HttpClient, pool: NotifyPool): HttpClient {
  return {
    fetchFeed: (r) => inner.fetchFeed(r),
    request: (r) => (isLeanEligible(r) && pool.request(r)) || inner.request(r),
    close: () => pool.destroy(),
  };
}
