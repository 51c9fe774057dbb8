import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client-types.ts';
import { startServer, type TestServer } from './test-server.ts';

const FEED = readFileSync(new URL('./testdata/feed.xml', import.meta.url));
const ETAG = '"v1-abc"';
const LAST_MODIFIED = 'Wed, 01 Apr 2026 10:00:00 GMT';

let server: TestServer;
let client: HttpClient;
const clock = new ManualClock('2026-04-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/feed': {
        const fresh =
          req.headers['if-none-match'] === ETAG || req.headers['if-modified-since'] === LAST_MODIFIED;
        const common = { etag: ETAG, 'last-modified': LAST_MODIFIED, 'cache-control': 'public, max-age=900' };
        if (fresh) {
          res.writeHead(304, { ...common, expires: 'Wed, 01 Apr 2026 13:00:00 GMT' });
          res.end();
          return;
        }
        res.writeHead(200, { ...common, 'content-type': 'application/rss+xml; charset=utf-8' });
        res.end(FEED);
        return;
      }
      case '/expires':
        res.writeHead(200, { expires: 'Wed, 01 Apr 2026 14:00:00 GMT', 'content-type': 'text/xml' });
        res.end(FEED);
        return;
      case '/bad-expires':
        res.writeHead(200, { expires: '0', 'cache-control': 'no-cache' });
        res.end(FEED);
        return;
      case '/gone':
        res.writeHead(410);
        res.end('gone for good');
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>nope</h1>');
        return;
      case '/broken':
        res.writeHead(500);
        res.end();
        return;
      case '/busy-seconds':
        res.writeHead(429, { 'retry-after': '120', 'cache-control': 'max-age=60' });
        res.end();
        return;
      case '/busy-date':
        res.writeHead(503, { 'retry-after': 'Wed, 01 Apr 2026 15:30:00 GMT' });
        res.end();
        return;
      case '/gzip':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(FEED));
        return;
      case '/deflate':
        res.writeHead(200, { 'content-encoding': 'deflate' });
        res.end(zlib.deflateSync(FEED));
        return;
      case '/deflate-raw':
        res.writeHead(200, { 'content-encoding': 'deflate' });
        res.end(zlib.deflateRawSync(FEED));
        return;
      case '/br':
        res.writeHead(200, { 'content-encoding': 'br' });
        res.end(zlib.brotliCompressSync(FEED));
        return;
      case '/gzip-then-br':
        res.writeHead(200, { 'content-encoding': 'gzip, br' });
        res.end(zlib.brotliCompressSync(zlib.gzipSync(FEED)));
        return;
      case '/bad-gzip':
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end('this is not gzip at all');
        return;
      case '/unknown-encoding':
        res.writeHead(200, { 'content-encoding': 'zstd-from-the-future' });
        res.end('??');
        return;
      default:
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
    }
  });
  client = createHttpClient({
    version: '1.2.3',
    projectUrl: 'https://tidings.example/fetcher',
    hostPolicy: { allowLoopback: true },
    clock,
  });
});

afterAll(async () => {
  client.close();
  await server.close();
});

afterEach(() => {
  server.requests.length = 0;
});

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('fetchFeed: 200 then conditional 304', () => {
  it('returns the body, validators and hints on 200', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/feed` });
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(r.status).toBe(200);
    expect(Buffer.from(r.body).equals(FEED)).toBe(true);
    expect(r.bodyHash).toBe(sha256(FEED));
    expect(r.wireBytes).toBe(FEED.length);
    expect(r.etag).toBe(ETAG);
    expect(r.lastModified).toBe(LAST_MODIFIED);
    expect(r.contentType).toBe('application/rss+xml; charset=utf-8');
    expect(r.finalUrl).toBe(`${server.url}/feed`);
    expect(r.requestedUrl).toBe(`${server.url}/feed`);
    expect(r.movedTo).toBeNull();
    expect(r.cache).toEqual({ maxAgeSec: 900, expiresAt: null, retryAfterAt: null });
    expect(r.sent).toEqual({ ifNoneMatch: null, ifModifiedSince: null });

    const seen = server.requests[0]!.headers;
    expect(seen['if-none-match']).toBeUndefined();
    expect(seen['if-modified-since']).toBeUndefined();
    expect(seen['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen.accept).toMatch(/^application\/rss\+xml, application\/atom\+xml, application\/feed\+json/);
    expect(seen['user-agent']).toBe('Tidings/1.2.3 (+https://tidings.example/fetcher; 1 subscribers)');
  });

  it('sends both validators and reports notModified with hints', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/feed`, etag: ETAG, lastModified: LAST_MODIFIED });
    expect(r.kind).toBe('notModified');
    expect(r.status).toBe(304);
    expect(r.sent).toEqual({ ifNoneMatch: ETAG, ifModifiedSince: LAST_MODIFIED });
    expect(r.cache).toEqual({
      maxAgeSec: 900,
      expiresAt: Date.parse('2026-04-01T13:00:00Z'),
      retryAfterAt: null,
    });
    const seen = server.requests[0]!.headers;
    expect(seen['if-none-match']).toBe(ETAG);
    expect(seen['if-modified-since']).toBe(LAST_MODIFIED);
  });

  it.each([
    { given: { etag: ETAG }, sent: { ifNoneMatch: ETAG, ifModifiedSince: null } },
    { given: { lastModified: LAST_MODIFIED }, sent: { ifNoneMatch: null, ifModifiedSince: LAST_MODIFIED } },
    { given: { etag: '', lastModified: null }, sent: { ifNoneMatch: null, ifModifiedSince: null } },
    // a validator that is not a legal header value (stored from a hostile server) is not sent
    {
      given: { etag: '"a"\r\nX-Evil: 1', lastModified: LAST_MODIFIED },
      sent: { ifNoneMatch: null, ifModifiedSince: LAST_MODIFIED },
    },
  ])('sends only the validators it has: $sent', async ({ given, sent }) => {
    const r = await client.fetchFeed({ url: `${server.url}/feed`, ...given });
    expect(r.sent).toEqual(sent);
    const seen = server.requests[0]!.headers;
    expect(seen['if-none-match']).toBe(sent.ifNoneMatch ?? undefined);
    expect(seen['if-modified-since']).toBe(sent.ifModifiedSince ?? undefined);
  });
});

describe('fetchFeed: statuses', () => {
  it('410 is gone', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/gone` });
    expect(r.kind).toBe('gone');
    expect(r.status).toBe(410);
  });

  it.each([
    { path: '/missing', status: 404, message: 'The server answered 404 Not Found.' },
    { path: '/broken', status: 500, message: 'The server answered 500 Internal Server Error.' },
  ])('$status is a readable http.status error', async ({ path, status, message }) => {
    const r = await client.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.status).toBe(status);
    expect(r.error.code).toBe('http.status');
    expect(r.error.message).toBe(message);
    expect(r.error.args).toMatchObject({ status, url: `${server.url}${path}` });
    expect(r.cache.retryAfterAt).toBeNull();
  });

  it('429 with Retry-After seconds sets retryAfterAt from the clock', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/busy-seconds` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.status).toBe(429);
    expect(r.error.message).toBe('The server answered 429 Too Many Requests.');
    expect(r.cache).toEqual({ maxAgeSec: null, expiresAt: null, retryAfterAt: clock.now() + 120_000 });
  });

  it('503 with Retry-After as an HTTP-date', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/busy-date` });
    expect(r.kind).toBe('error');
    expect(r.status).toBe(503);
    expect(r.cache.retryAfterAt).toBe(Date.parse('2026-04-01T15:30:00Z'));
  });

  it('Expires is parsed; an invalid Expires is ignored', async () => {
    const a = await client.fetchFeed({ url: `${server.url}/expires` });
    expect(a.cache).toEqual({
      maxAgeSec: null,
      expiresAt: Date.parse('2026-04-01T14:00:00Z'),
      retryAfterAt: null,
    });
    const b = await client.fetchFeed({ url: `${server.url}/bad-expires` });
    expect(b.cache).toEqual({ maxAgeSec: null, expiresAt: null, retryAfterAt: null });
  });
});

describe('fetchFeed: compression', () => {
  it.each([
    ['/gzip', zlib.gzipSync(FEED).length],
    ['/deflate', zlib.deflateSync(FEED).length],
    ['/deflate-raw', zlib.deflateRawSync(FEED).length],
    ['/br', zlib.brotliCompressSync(FEED).length],
    ['/gzip-then-br', zlib.brotliCompressSync(zlib.gzipSync(FEED)).length],
  ])('%s is decompressed and wire bytes counted', async (path, wire) => {
    const r = await client.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(Buffer.from(r.body).equals(FEED)).toBe(true);
    expect(r.bodyHash).toBe(sha256(FEED));
    expect(r.wireBytes).toBe(wire);
    expect(r.wireBytes).toBeLessThan(FEED.length);
  });

  it.each(['/bad-gzip', '/unknown-encoding'])('%s is a readable http.badEncoding error', async (path) => {
    const r = await client.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe('http.badEncoding');
    expect(r.error.message).toMatch(/^The response from 127\.0\.0\.1:\d+ could not be decoded/);
  });
});

describe('fetchFeed: identity and connections', () => {
  it('announces the subscriber count in the User-Agent', async () => {
    await client.fetchFeed({ url: `${server.url}/feed`, subscribers: 42 });
    expect(server.requests[0]!.headers['user-agent']).toBe(
      'Tidings/1.2.3 (+https://tidings.example/fetcher; 42 subscribers)',
    );
  });

  it('reuses one keep-alive socket for sequential requests', async () => {
    const own = await startServer((_req, res) => res.end('ok'));
    const c = createHttpClient({ hostPolicy: { allowLoopback: true } });
    try {
      for (let i = 0; i < 4; i++) {
        const r = await c.fetchFeed({ url: `${own.url}/feed?n=${i}` });
        expect(r.kind).toBe('ok');
      }
      const plain = await c.request({ method: 'GET', url: `${own.url}/other` });
      expect(plain.ok).toBe(true);
      expect(own.requests).toHaveLength(5);
      expect(own.connections()).toBe(1);
    } finally {
      c.close();
      await own.close();
    }
  });

  it('opens at most maxSocketsPerHost sockets for parallel requests', async () => {
    const own = await startServer((_req, res) => setTimeout(() => res.end('ok'), 20));
    const c = createHttpClient({ hostPolicy: { allowLoopback: true }, maxSocketsPerHost: 2 });
    try {
      const all = await Promise.all(
        Array.from({ length: 6 }, (_, i) => c.fetchFeed({ url: `${own.url}/f${i}` })),
      );
      expect(all.every((r) => r.kind === 'ok')).toBe(true);
      expect(own.connections()).toBe(2);
    } finally {
      c.close();
      await own.close();
    }
  });

  it.each([
    ['not a url', 'http.badUrl'],
    ['ftp://example.com/feed.xml', 'http.badUrl'],
    ['/relative/feed.xml', 'http.badUrl'],
  ])('%s is refused before any connection (%s)', async (url, code) => {
    const r = await client.fetchFeed({ url });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe(code);
    expect(r.status).toBeNull();
    expect(r.requestedUrl).toBe(url);
  });

  it('masks secrets of the URL in error messages and args', async () => {
    const url = `${server.url}/missing?token=s3cr3t-token&page=2`;
    const r = await client.fetchFeed({ url });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(JSON.stringify({ message: r.error.message, args: r.error.args })).not.toContain('s3cr3t');
    expect(r.error.args?.url).toBe(`${server.url}/missing?token=***&page=2`);
  });
});
