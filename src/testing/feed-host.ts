/**
 * A real feed host on 127.0.0.1 for tests and e2e: each path answers what the test says
 * (a body with validators, a status, a redirect), and it records what it was asked.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  status?: number;
  body?: string | Uint8Array;
  type?: string;
  headers?: Record<string, string>;
  /** Answer 304 when If-None-Match equals this ETag (sent with 200s too). */
  etag?: string;
  /** Require HTTP Basic with these credentials (401 otherwise). */
  basicAuth?: { username: string; password: string };
  /** Answer this long after the request arrives (a slow server, so a stop lands mid-fetch). */
  delayMs?: number;
  /**
   * Answer byte ranges (Range: bytes=a-b, 206 with Content-Range), as a media file's server does:
   * browsers only seek within media whose server does.
   */
  ranges?: boolean;
}

export interface FeedHost {
  url: string;
  /** Serves `body` (or a full Route) at `path`. */
  set(path: string, route: Route | string): void;
  /** How often `path` was asked for. */
  hits(path: string): number;
  /** Headers of the last request for `path`. */
  lastHeaders(path: string): IncomingHttpHeaders | null;
  close(): Promise<void>;
}

export async function startFeedHost(): Promise<FeedHost> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const headers = new Map<string, IncomingHttpHeaders>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    headers.set(path, req.headers);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (route.basicAuth) {
      const expected = `Basic ${Buffer.from(`${route.basicAuth.username}:${route.basicAuth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res
          .writeHead(401, { 'www-authenticate': 'Basic realm="feed"', 'content-type': 'text/plain' })
          .end('login needed');
        return;
      }
    }
    if (route.etag && req.headers['if-none-match'] === route.etag) {
      res.writeHead(304, { etag: route.etag }).end();
      return;
    }
    const answer = () => {
      if (res.destroyed) return;
      const range = route.ranges ? /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '') : null;
      if (route.ranges && route.body !== undefined) {
        const body = typeof route.body === 'string' ? Buffer.from(route.body) : route.body;
        const from = range?.[1] ? Number(range[1]) : 0;
        const to = range?.[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
        res.writeHead(range ? 206 : 200, {
          'content-type': route.type ?? 'application/octet-stream',
          'accept-ranges': 'bytes',
          'content-length': String(to - from + 1),
          ...(range ? { 'content-range': `bytes ${from}-${to}/${body.length}` } : {}),
        });
        res.end(body.subarray(from, to + 1));
        return;
      }
      res.writeHead(route.status ?? 200, {
        'content-type': route.type ?? 'application/rss+xml; charset=utf-8',
        ...(route.etag ? { etag: route.etag } : {}),
        ...route.headers,
      });
      res.end(route.body ?? '');
    };
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (path, route) => routes.set(path, typeof route === 'string' ? { body: route } : route),
    hits: (path) => hits.get(path) ?? 0,
    lastHeaders: (path) => headers.get(path) ?? null,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface TestItem {
  title: string;
  guid: string;
  description?: string;
  date?: Date;
}

/** A small RSS 2.0 document for tests (the real writer is src/feed/write-rss.ts). */
export function rssFeed(title: string, items: TestItem[], extraChannel = ''): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = items
    .map(
      (i) =>
        `<item><title>${esc(i.title)}</title><guid isPermaLink="false">${esc(i.guid)}</guid>` +
        `<link>http://example.com/${esc(i.guid)}</link><description>${esc(i.description ?? i.title)}</description>` +
        (i.date ? `<pubDate>${i.date.toUTCString()}</pubDate>` : '') +
        '</item>',
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(title)}</title><link>http://example.com/</link><description>${esc(title)}</description>${extraChannel}
${body}
</channel></rss>`;
}
