/**
 * The bench's subscribers and feed server as one minimal HTTP/1.1 responder on raw sockets:
 * requests read one after another on each keep-alive connection (head up to the blank line, then
 * a Content-Length body), each answered with one write. A bench on 2 cores shares them with the
 * cloud it measures, and node:http's server (IncomingMessage, ServerResponse, their streams and
 * garbage) cost about as much CPU per delivery as the cloud's own work, so the figure said as
 * much about the bench's subscribers as about the cloud. Real subscribers are other machines.
 *
 * Only what the cloud sends: no chunked bodies (answered 501 and counted in `refused`, so a bench
 * that meets one says so instead of miscounting), no pipelining beyond reading what has arrived
 * in order, no Expect: 100-continue.
 */
import net from 'node:net';

export interface SinkHandlers {
  /** The answer to a GET of `path` (its query string cut off). */
  get(path: string): { type: string; body: string };
  /** A request other than GET, body read, of `path`: a delivery. */
  post(path: string): void;
}

export interface Sink {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Requests answered 501 (chunked bodies): each is a delivery the bench could not count. */
  refused(): number;
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:/i;
const CLOSE = /\r\nconnection:[ \t]*close/i;

export async function startLeanSink(handlers: SinkHandlers): Promise<Sink> {
  let connections = 0;
  let refused = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // a peer that resets its connection is its own business
    let pending: Buffer | null = null;
    socket.on('data', (chunk: Buffer) => {
      let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
      let out = '';
      let close = false;
      for (;;) {
        const end = buf.indexOf(HEAD_END);
        if (end < 0) {
          if (buf.length > MAX_HEAD) close = true;
          break;
        }
        const head = buf.toString('latin1', 0, end);
        const length = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) break; // the body is still on its way
        buf = buf.subarray(end + 4 + length);
        const firstSpace = head.indexOf(' ');
        const method = head.slice(0, firstSpace);
        const target = head.slice(firstSpace + 1, head.indexOf(' ', firstSpace + 1));
        const q = target.indexOf('?');
        const path = q < 0 ? target : target.slice(0, q);
        if (CHUNKED.test(head)) {
          refused++;
          out += 'HTTP/1.1 501 Not Implemented\r\ncontent-length: 0\r\nconnection: close\r\n\r\n';
          close = true;
          break;
        }
        if (method === 'GET') {
          const { type, body } = handlers.get(path);
          out += `HTTP/1.1 200 OK\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        } else {
          handlers.post(path);
          out += 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok';
        }
        if (CLOSE.test(head)) {
          close = true;
          break;
        }
      }
      pending = buf.length && !close ? buf : null;
      if (close) socket.end(out);
      else if (out) socket.write(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    refused: () => refused,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
