/**
 * The lean notify pool against real loopback servers: node:http for ordinary answers and a raw
 * net server for the answers node:http would not send on its own (close-delimited, stray bytes).
 */
import net, { type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../net/http-client-types.ts';
import { startServer, type TestServer } from '../../net/test-server.ts';
import { NotifyPool } from './notify-pool.ts';

const LOOPBACK = { allowLoopback: true, allowPrivate: false };
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

function pool(max = 4, policy = LOOPBACK): NotifyPool {
  const p = new NotifyPool({ policy, maxSocketsPerHost: max });
  open.push({ close: () => p.destroy() });
  return p;
}

async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  open.push(s);
  return s;
}

/** A raw TCP server answering every request with `answer` (bytes as given). */
async function rawServer(answer: (n: number) => string): Promise<{ url: string; accepted: () => number }> {
  let accepted = 0;
  let n = 0;
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (d) => {
      if (d.includes('\r\n\r\n')) socket.write(answer(++n));
      if (answer(n).includes('Connection: close') || !answer(n).includes('Content-Length')) socket.end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  open.push({
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => srv.close(r));
    },
  });
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, accepted: () => accepted };
}

const post = (url: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'POST',
  url,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'url=http%3A%2F%2Ffeed.example%2Frss',
  timeoutMs: 2000,
  maxBodyBytes: 64 * 1024,
  ...extra,
});

const send = async (p: NotifyPool, req: HttpRequest) => {
  const r = p.request(req);
  if (!r) throw new Error('the lean path refused an eligible request');
  return r;
};

describe('NotifyPool', () => {
  it('sends the POST as node:http would read it and reuses at most N sockets for 300 requests', async () => {
    const s = await server((_req, res) => res.end('ok'));
    const p = pool(4);
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => send(p, post(`${s.url}/cb/${i}?x=1`))),
    );
    expect(answers.every((a) => a.ok && a.value.status === 200)).toBe(true);
    expect(s.requests).toHaveLength(300);
    expect(s.connections()).toBeLessThanOrEqual(4);
    const first = s.requests.find((r) => r.path === '/cb/7?x=1')!;
    expect(first.method).toBe('POST');
    expect(first.body).toBe('url=http%3A%2F%2Ffeed.example%2Frss');
    expect(first.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(first.headers.host).toBe(new URL(s.url).host);
    expect(first.headers['user-agent']).toMatch(/^Tidings\//);
  });

  it('reads chunked and gzip answers and hands back 3xx with its Location', async () => {
    const s = await server((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/there' });
        return res.end();
      }
      res.writeHead(200, { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' });
      const z = gzipSync('<methodResponse/>');
      res.write(z.subarray(0, 5));
      res.end(z.subarray(5));
    });
    const p = pool();
    const a = await send(p, post(`${s.url}/rpc`));
    expect(a.ok && Buffer.from(a.value.body).toString()).toBe('<methodResponse/>');
    const b = await send(p, post(`${s.url}/moved`));
    expect(b.ok && [b.value.status, b.value.headers.location]).toEqual([302, '/there']);
  });

  it('answers with Connection: close or without a length end the socket; the next request still works', async () => {
    const closing = await rawServer(
      () => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok',
    );
    const untilClose = await rawServer(() => 'HTTP/1.0 200 OK\r\n\r\nbody until close');
    const p = pool(1);
    for (let i = 0; i < 3; i++) {
      const a = await send(p, post(`${closing.url}/`));
      expect(a.ok && a.value.status).toBe(200);
      const b = await send(p, post(`${untilClose.url}/`));
      expect(b.ok && Buffer.from(b.value.body).toString()).toBe('body until close');
    }
    expect(closing.accepted()).toBe(3);
    expect(untilClose.accepted()).toBe(3);
  });

  it('retries once on a new socket when a kept-alive one is closed as the request goes out', async () => {
    // The server answers the first request on each socket and drops the socket at the second
    // without a byte: the race of a keep-alive timeout closing a socket the client just reused.
    let accepted = 0;
    const sockets = new Set<net.Socket>();
    const srv = net.createServer((socket) => {
      accepted++;
      sockets.add(socket);
      let served = 0;
      socket.on('data', () => {
        if (++served === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        else socket.destroy();
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    open.push({
      close: () => {
        for (const s of sockets) s.destroy();
        return new Promise((r) => srv.close(r));
      },
    });
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
    const p = pool(1);
    expect((await send(p, post(url))).ok).toBe(true);
    const second = await send(p, post(url));
    expect(second.ok).toBe(true);
    expect(accepted).toBe(2);
    const third = await send(p, post(url)); // the same race once more, on the retried socket
    expect(third.ok).toBe(true);
  });

  it('fails a request that gets no answer within its timeout with http.timeout, and frees the socket', async () => {
    const s = await server((req, res) => {
      if (req.url === '/hang') return; // never answers
      res.end('ok');
    });
    const p = pool(1);
    const t0 = performance.now();
    const hung = await send(p, post(`${s.url}/hang`, { timeoutMs: 300 }));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(!hung.ok && hung.error.code).toBe('http.timeout');
    expect((await send(p, post(`${s.url}/fine`))).ok).toBe(true);
  });

  it('refuses an answer over the cap, and a refused address, with readable errors', async () => {
    const s = await server((_req, res) => res.end('x'.repeat(5000)));
    const big = await send(pool(), post(`${s.url}/`, { maxBodyBytes: 1000 }));
    expect(!big.ok && big.error.code).toBe('http.tooLarge');
    const strict = pool(2, { allowLoopback: false, allowPrivate: false });
    const literal = await send(strict, post(`${s.url}/`));
    expect(!literal.ok && literal.error.code).toBe('http.blockedHost');
    const named = await send(strict, post(`http://localhost:${s.port}/`));
    expect(!named.ok && named.error.code).toBe('http.blockedHost');
    expect(s.requests).toHaveLength(1);
  });

  it('keeps at most N requests in flight to one host (the rest wait for a socket)', async () => {
    let inFlight = 0;
    let most = 0;
    const s = await server(async (_req, res) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      res.end('ok');
    });
    const p = pool(3);
    const all = await Promise.all(Array.from({ length: 30 }, () => send(p, post(`${s.url}/`))));
    expect(all.every((a) => a.ok)).toBe(true);
    expect(most).toBeLessThanOrEqual(3);
    expect(s.connections()).toBeLessThanOrEqual(3);
  });

  it('destroy() ends requests in flight at once', async () => {
    const s = await server(() => undefined);
    const p = pool();
    const pending = send(p, post(`${s.url}/`, { timeoutMs: 10_000 }));
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    p.destroy();
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('leaves https and credentials to the full client', () => {
    const p = pool();
    expect(p.request(post('https://127.0.0.1:1/'))).toBeNull();
    expect(p.request(post('http://user:pw@127.0.0.1:1/'))).toBeNull();
    expect(p.request(post('not a url'))).toBeNull();
  });
});
