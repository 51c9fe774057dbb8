/**
 * A fast lane in front of node:http for a server's raw routes (serve.ts `raw`: the receiver's
 * notifications). A storm of notifications spent most of the receiver's time in node:http's
 * per-request machinery (IncomingMessage and ServerResponse streams, timers, header objects):
 * 27-31 us a call for a bare node:http server on a shared 2-core machine, against the receiver's
 * own few. Here a connection's bytes are read as they come, and a chunk that holds whole, plain
 * requests for a raw route is answered straight from them.
 *
 * Everything else goes to node:http, for the rest of the connection's life: the socket is handed
 * over with the bytes not answered put back, so node's parser, its time limits and its answers
 * (400, 413, 431, ...) apply exactly as before. "Plain" is narrow on purpose: POST, HTTP/1.1, a
 * target of visible ASCII, a Host, a Content-Length within the route's cap, no Transfer-Encoding,
 * Expect, Upgrade or Connection other than keep-alive, each header once, well-formed names and
 * values, the whole body in hand.
 * A request split across packets (a slow client) is handed over at once: the lane never waits
 * for bytes, so it holds no half-sent request and needs no headers or request timeout. Between
 * requests a lane socket idles at most `keepAliveTimeoutMs`, as node's keep-alive sockets do.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { RawHandler, RawRequest } from './serve.ts';

export interface LeanLane {
  raw: RawHandler;
  /** The body cap for a request target (the server's maxBodyBytesFor or its one cap). */
  capFor(url: string): number;
  keepAliveTimeoutMs: number;
  /** Told about a raw handler that threw (the client gets a 500). */
  onError?: (err: unknown) => void;
  /** Gives the socket to node:http; the bytes not answered are already put back. */
  handOver(socket: Socket): void;
}

/** node's own limit on a request's head (--max-http-header-size): beyond it, node answers 431. */
const MAX_HEAD_BYTES = 16 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A request target of visible ASCII only (no space, control or 8-bit byte). */
const VISIBLE = /^[\x21-\x7e]+$/;
// Any control character but a tab, or DEL: node's parser would refuse or read it otherwise.
const BAD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Headers that change how a request is framed or answered: node decides those. */
const NOT_PLAIN = new Set(['transfer-encoding', 'expect', 'upgrade']);

/** Serves `socket` in the lane until a request needs node:http. */
export function leanConnection(socket: Socket, lane: LeanLane): void {
  const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(lane.keepAliveTimeoutMs / 1000)}\r\n`;
  const onTimeout = () => socket.destroy();
  const onError = () => {}; // a reset peer: 'close' follows, nothing to answer
  const onDrain = () => socket.resume();
  const onData = (chunk: Buffer) => {
    let out = '';
    let at = 0;
    while (at < chunk.length) {
      const request = readPlainRequest(chunk, at, lane);
      if (request === null) break;
      request.call.remoteAddress = socket.remoteAddress ?? '';
      let answer: ReturnType<RawHandler>;
      try {
        answer = lane.raw(request.call);
      } catch (err) {
        lane.onError?.(err);
        answer = {
          status: 500,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
          body: 'Internal Server Error',
        };
      }
      if (answer === null) break; // not a raw route after all
      out += responseText(answer, keepAlive);
      at = request.end;
    }
    // A client that sends and never reads must not make us buffer answers without end: read
    // nothing more until it has taken these (node:http pauses its parser alike).
    if (out !== '' && !socket.write(out)) {
      socket.pause();
      socket.once('drain', onDrain);
    }
    if (at < chunk.length) handOver(at === 0 ? chunk : chunk.subarray(at));
  };
  const handOver = (rest: Buffer) => {
    socket.removeListener('data', onData);
    socket.removeListener('timeout', onTimeout);
    socket.removeListener('error', onError);
    socket.removeListener('drain', onDrain);
    socket.setTimeout(0);
    socket.pause();
    socket.unshift(rest);
    lane.handOver(socket);
    socket.resume();
  };
  socket.setTimeout(lane.keepAliveTimeoutMs);
  socket.on('timeout', onTimeout);
  socket.on('error', onError);
  socket.on('data', onData);
}

interface PlainRequest {
  call: RawRequest;
  /** Where the next request starts in the chunk. */
  end: number;
}

/** The plain request at `at`, whole, or null when node:http should read it. */
function readPlainRequest(chunk: Buffer, at: number, lane: LeanLane): PlainRequest | null {
  const headEnd = chunk.indexOf('\r\n\r\n', at, 'latin1');
  if (headEnd < 0 || headEnd - at > MAX_HEAD_BYTES) return null;
  const lines = chunk.toString('latin1', at, headEnd).split('\r\n');
  const first = lines[0]!;
  if (!first.startsWith('POST /') || !first.endsWith(' HTTP/1.1')) return null;
  const target = first.slice(5, -9);
  if (!VISIBLE.test(target)) return null; // node refuses what is not a plain request target
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    const name = line.slice(0, colon).toLowerCase();
    if (!TOKEN.test(name) || name in headers || NOT_PLAIN.has(name)) return null;
    const value = line.slice(colon + 1).trim();
    if (BAD_VALUE.test(value)) return null;
    headers[name] = value;
  }
  if (headers.host === undefined) return null; // HTTP/1.1 without Host: node answers 400
  const declared = headers['content-length'];
  if (declared === undefined || !/^\d{1,9}$/.test(declared)) return null;
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return null;
  const length = Number(declared);
  const bodyStart = headEnd + 4;
  if (bodyStart + length > chunk.length || length > lane.capFor(target)) return null;
  return {
    call: {
      method: 'POST',
      url: target,
      headers,
      remoteAddress: '',
      body: chunk.subarray(bodyStart, bodyStart + length),
    },
    end: bodyStart + length,
  };
}

/** The answer as node:http writes it for a raw route: status, its headers, length, date, keep-alive. */
function responseText(answer: NonNullable<ReturnType<RawHandler>>, keepAlive: string): string {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'unknown'}\r\n`;
  for (const name in answer.headers) {
    const value = answer.headers[name]!;
    if (!/[\r\n]/.test(value)) head += `${name}: ${value}\r\n`;
  }
  return `${head}content-length: ${Buffer.byteLength(answer.body)}\r\nDate: ${httpDate()}\r\n${keepAlive}\r\n${answer.body}`;
}

let dateText = '';
let dateSecond = -1;
/** The Date header, made once a second (as node does). */
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}
