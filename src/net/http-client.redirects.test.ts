import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client-types.ts';
import { startServer, type TestServer } from './test-server.ts';

let server: TestServer;
let other: TestServer;
let client: HttpClient;

/** path -> [status, Location]; anything else under /final* answers 200. */
const ROUTES: Record<string, [number, string]> = {
  '/301': [301, '/final'],
  '/308': [308, '/final'],
  '/302': [302, '/final'],
  '/303': [303, '/final'],
  '/307': [307, '/final'],
  // 301 -> 302 -> 301: only the first permanent hop moves the subscription
  '/c1': [301, '/c2'],
  '/c2': [302, '/c3'],
  '/c3': [301, '/final'],
  // 301 -> 308: all permanent, the last one wins
  '/p1': [301, '/p2'],
  '/p2': [308, '/final'],
  // 302 -> 301: a temporary hop first means no move at all
  '/t1': [302, '/t2'],
  '/t2': [301, '/final'],
  '/dir/sub/rel': [302, 'next'],
  '/dir/sub/up': [302, '../final-up'],
  '/dir/query': [302, '?page=2'],
  '/to-ftp': [302, 'ftp://example.com/feed.xml'],
  '/to-js': [301, 'javascript:alert(1)'],
  '/301-to-404': [301, '/missing'],
};

beforeAll(async () => {
  other = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`other ${req.url}`);
  });
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = url.search === '' ? ROUTES[url.pathname] : undefined;
    if (route) {
      res.writeHead(route[0], { location: route[1] });
      res.end('moving');
      return;
    }
    const loop = /^\/loop\/(\d+)$/.exec(url.pathname);
    if (loop) {
      const n = Number(loop[1]);
      if (n === 0) res.end('landed');
      else res.writeHead(302, { location: `/loop/${n - 1}` }).end();
      return;
    }
    if (url.pathname === '/to-other') {
      res.writeHead(301, { location: `${other.url}/moved-here` }).end();
      return;
    }
    if (url.pathname === '/protocol-relative') {
      res.writeHead(302, { location: `//127.0.0.1:${other.port}/pr` }).end();
      return;
    }
    if (url.pathname === '/missing') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`final ${req.url}`);
  });
  client = createHttpClient({ hostPolicy: { allowLoopback: true } });
});

afterAll(async () => {
  client.close();
  await server.close();
  await other.close();
});

describe('fetchFeed: redirects', () => {
  it.each([
    { path: '/301', final: '/final', movedTo: '/final' },
    { path: '/308', final: '/final', movedTo: '/final' },
    { path: '/302', final: '/final', movedTo: null },
    { path: '/303', final: '/final', movedTo: null },
    { path: '/307', final: '/final', movedTo: null },
    { path: '/c1', final: '/final', movedTo: '/c2' },
    { path: '/p1', final: '/final', movedTo: '/final' },
    { path: '/t1', final: '/final', movedTo: null },
    { path: '/dir/sub/rel', final: '/dir/sub/next', movedTo: null },
    { path: '/dir/sub/up', final: '/dir/final-up', movedTo: null },
    { path: '/dir/query', final: '/dir/query?page=2', movedTo: null },
    { path: '/loop/5', final: '/loop/0', movedTo: null },
  ])('$path ends at $final, movedTo $movedTo', async ({ path, final, movedTo }) => {
    const r = await client.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(r.finalUrl).toBe(`${server.url}${final}`);
    expect(r.movedTo).toBe(movedTo === null ? null : `${server.url}${movedTo}`);
    expect(r.requestedUrl).toBe(`${server.url}${path}`);
    expect(Buffer.from(r.body).toString()).toBe(`final ${final}`.replace('final /loop/0', 'landed'));
  });

  it('a permanent move to another origin is reported', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/to-other` });
    expect(r.kind).toBe('ok');
    expect(r.movedTo).toBe(`${other.url}/moved-here`);
  });

  it('resolves protocol-relative locations', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/protocol-relative` });
    expect(r.kind === 'ok' && r.finalUrl).toBe(`${other.url}/pr`);
  });

  it('6 redirects are one too many', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/loop/6` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe('http.tooManyRedirects');
    expect(r.error.message).toBe(
      `${server.url}/loop/6 redirected more than 5 times; Tidings stopped following.`,
    );
    expect(r.status).toBeNull();
  });

  it('maxRedirects is configurable', async () => {
    const strict = createHttpClient({ hostPolicy: { allowLoopback: true }, limits: { maxRedirects: 1 } });
    try {
      expect((await strict.fetchFeed({ url: `${server.url}/loop/1` })).kind).toBe('ok');
      const r = await strict.fetchFeed({ url: `${server.url}/loop/2` });
      expect(r.kind === 'error' && r.error.code).toBe('http.tooManyRedirects');
    } finally {
      strict.close();
    }
  });

  it.each(['/to-ftp', '/to-js'])('%s: a redirect to a non-http scheme is refused', async (path) => {
    const r = await client.fetchFeed({ url: `${server.url}${path}` });
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.error.code).toBe('http.badRedirect');
    expect(r.error.message).toMatch(
      /^127\.0\.0\.1:\d+ redirected to ".+", which is not an http or https address\.$/,
    );
  });

  it('a move that ends in an error does not move the subscription', async () => {
    const r = await client.fetchFeed({ url: `${server.url}/301-to-404` });
    expect(r.kind).toBe('error');
    expect(r.status).toBe(404);
    expect(r.movedTo).toBeNull();
  });
});
