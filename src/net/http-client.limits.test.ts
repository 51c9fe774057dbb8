import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client-types.ts';
import { freePort, startServer, type TestServer } from './test-server.ts';

const MiB = 1024 * 1024;

/** 1 GiB of zeros gzip-compressed by streaming (~1 MB out; the 1 GiB never exists in memory). */
async function gzipBomb(): Promise<Buffer> {
  const gz = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => gz.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  for (let i = 0; i < 1024; i++) {
    if (!gz.write(zeros)) await new Promise((resolve) => gz.once('drain', resolve));
  }
  gz.end();
  await ended;
  return Buffer.concat(out);
}

let bomb: Buffer;
let server: TestServer;
let client: HttpClient;
let roomy: HttpClient;
const timers = new Set<ReturnType<typeof setInterval>>();

/** Writes `total` bytes in 64 KiB chunks, respecting backpressure, stopping if the client leaves. */
async function streamBytes(res: import('node:http').ServerResponse, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

beforeAll(async () => {
  bomb = await gzipBomb();
  server = await startServer(async (req, res) => {
    switch (req.url) {
      case '/bomb':
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
        return;
      case '/huge-chunked':
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        await streamBytes(res, 50 * MiB);
        return;
      case '/huge-declared':
        res.writeHead(200, { 'content-length': 50 * MiB });
        await streamBytes(res, 50 * MiB);
        return;
      case '/slow-headers':
      case '/slow-body': {
        // Slowloris: one byte every 200 ms, forever.
        const socket = res.socket!;
        if (req.url === '/slow-body') res.writeHead(200, { 'content-type': 'text/xml' }).flushHeaders();
        else socket.write('HTTP/1.1 200 OK\r\n');
        const t = setInterval(() => {
          if (req.url === '/slow-body') res.write('x');
          else socket.write('X-Drip: a\r\n');
        }, 200);
        timers.add(t);
        socket.on('close', () => {
          clearInterval(t);
          timers.delete(t);
        });
        return;
      }
      case '/to-private':
        res.writeHead(302, { location: 'http://10.0.0.1/feed' }).end();
        return;
      case '/small':
        res.end('x'.repeat(2000));
        return;
      default:
        res.end('ok');
    }
  });
  client = createHttpClient({
    hostPolicy: { allowLoopback: true },
    limits: { totalTimeoutMs: 800, connectTimeoutMs: 500 },
  });
  // The caps are about size, not time: with the 800 ms above, a loaded machine still inflating
  // its 20 MiB hit the timeout first (http.timeout instead of http.tooLarge).
  roomy = createHttpClient({ hostPolicy: { allowLoopback: true }, limits: { totalTimeoutMs: 60_000 } });
}, 60_000);

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  client.close();
  roomy.close();
  await server.close();
});

describe('caps', () => {
  it('a gzip bomb (1 GiB of zeros) stops at the decompressed cap with little memory', async () => {
    expect(bomb.length).toBeLessThan(2 * MiB);
    const gcBefore = process.memoryUsage();
    const before = gcBefore.heapUsed + gcBefore.arrayBuffers;
    let peak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - before);
    }, 5);
    try {
      const r = await roomy.fetchFeed({ url: `${server.url}/bomb` });
      expect(r.kind).toBe('error');
      if (r.kind !== 'error') return;
      expect(r.error.code).toBe('http.tooLarge');
      expect(r.error.message).toBe(
        `The response from ${server.url}/bomb is larger than 20 MiB, the most Tidings reads.`,
      );
    } finally {
      clearInterval(sampler);
    }
    // Had the whole bomb been inflated this would be ~1 GiB; the cap keeps it near 20 MiB.
    expect(peak).toBeLessThan(150 * MiB);
  });

  it.each(['/huge-chunked', '/huge-declared'])('%s: a 50 MB plain body stops at the cap', async (path) => {
    const r = await roomy.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.error.code).toBe('http.tooLarge');
  });

  it('limits.maxBodyBytes sets the cap', async () => {
    const tight = createHttpClient({ hostPolicy: { allowLoopback: true }, limits: { maxBodyBytes: 1000 } });
    try {
      const r = await tight.fetchFeed({ url: `${server.url}/small` });
      expect(r.kind === 'error' && r.error.message).toMatch(/is larger than 1000 bytes/);
    } finally {
      tight.close();
    }
  });

  it('request() caps the body at maxBodyBytes', async () => {
    // The roomy client: the other's 800 ms deadline is for the timeout tests, and a loaded
    // machine missed it here.
    const r = await roomy.request({ method: 'GET', url: `${server.url}/small`, maxBodyBytes: 1024 });
    expect(!r.ok && r.error.code).toBe('http.tooLarge');
    const fine = await roomy.request({ method: 'GET', url: `${server.url}/small` });
    expect(fine.ok && fine.value.body.length).toBe(2000);
  });
});

describe('timeouts', () => {
  it.each(['/slow-headers', '/slow-body'])('%s: a slowloris server hits the total deadline', async (path) => {
    const r = await client.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe('http.timeout');
    expect(r.error.message).toBe(`127.0.0.1:${server.port} did not finish answering within 0.8 seconds.`);
  });

  it('request() has its own timeoutMs', async () => {
    const r = await client.request({ method: 'GET', url: `${server.url}/slow-body`, timeoutMs: 300 });
    expect(!r.ok && r.error.code).toBe('http.timeout');
  });

  it('a TLS server that never finishes the handshake hits the connect timeout', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const r = await client.fetchFeed({ url: `https://127.0.0.1:${port}/feed` });
      expect(r.kind === 'error' && r.error.code).toBe('http.connectTimeout');
      expect(r.kind === 'error' && r.error.message).toBe(
        `Could not connect to 127.0.0.1:${port}: no answer within 0.5 seconds.`,
      );
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('an abort signal cancels the request', async () => {
    const controller = new AbortController();
    const pending = client.fetchFeed({ url: `${server.url}/slow-body`, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const r = await pending;
    expect(r.kind === 'error' && r.error.code).toBe('http.aborted');
  });
});

describe('connection failures', () => {
  it('connection refused is readable', async () => {
    const port = await freePort();
    const r = await client.fetchFeed({ url: `http://127.0.0.1:${port}/feed` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe('http.connectionRefused');
    expect(r.error.message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused.`);
  });

  it('https to a plain http server is a TLS error', async () => {
    const r = await client.fetchFeed({ url: `https://127.0.0.1:${server.port}/feed` });
    expect(r.kind === 'error' && r.error.code).toBe('http.tls');
  });
});

describe('host guard', () => {
  const guarded = createHttpClient(); // default policy: no loopback, no private
  afterAll(() => guarded.close());

  it.each([
    (port: number) => `http://127.0.0.1:${port}/feed`,
    (port: number) => `http://localhost:${port}/feed`,
    (port: number) => `http://[::1]:${port}/feed`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/feed`,
    (port: number) => `http://0.0.0.0:${port}/feed`,
    (port: number) => `http://2130706433:${port}/feed`, // 127.0.0.1 as one decimal number
  ])('refuses loopback by default: %#', async (makeUrl) => {
    const before = server.connections();
    const r = await guarded.fetchFeed({ url: makeUrl(server.port) });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe('http.blockedHost');
    expect(r.error.message).toMatch(/^Refused to connect to .+: it is (a loopback|an unspecified)/);
    expect(r.error.message).toContain('hostPolicy.allowLoopback');
    expect(server.connections()).toBe(before);
  });

  it('refuses private addresses even with loopback allowed, and says how to allow them', async () => {
    const loopbackOnly = createHttpClient({ hostPolicy: { allowLoopback: true } });
    try {
      const r = await loopbackOnly.request({ method: 'POST', url: 'http://192.168.1.1/RPC2', body: 'x' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('http.blockedHost');
      expect(r.error.message).toBe(
        'Refused to connect to 192.168.1.1: it is a private-network address. Private-network addresses are ' +
          'refused by default; to allow them, turn on "Allow local network feeds" in Settings (hostPolicy.allowPrivate).',
      );
    } finally {
      loopbackOnly.close();
    }
  });

  it('checks every redirect hop', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/to-private` });
    expect(r.kind === 'error' && r.error.code).toBe('http.blockedHost');
    expect(r.kind === 'error' && r.error.message).toMatch(
      /^Refused to connect to 10\.0\.0\.1: it is a private-network/,
    );
  });
});
