/**
 * A farm of feed hosts for benchmarks, run as a child process so the parent's memory figures
 * are its own. Serves /feed/<n> on `hosts` ports; the parent sends "bump" to change every feed
 * (50 new items each) and reads "ready <ports>" / "bumped" on stdout.
 *
 * The corpus can take the shapes real servers have, so a bench is not flattered by one of them:
 * - validators: `etag` (the default), `lastmod` (Last-Modified only: the reader sends
 *   If-Modified-Since), `both`, or `mix` (feed n: etag, lastmod, both, in turn);
 * - gzip: `1` answers a client that accepts gzip with a gzip body (as most servers do).
 *
 * Usage: node feed-farm.ts <hosts> <itemsPerFeed> [validators=etag] [gzip=0]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const hosts = Number(process.argv[2] ?? 10);
const itemsPerFeed = Number(process.argv[3] ?? 50);
const validators = process.argv[4] ?? 'etag';
const gzip = process.argv[5] === '1';
if (!['etag', 'lastmod', 'both', 'mix'].includes(validators))
  throw new Error(`feed-farm: validators must be etag, lastmod, both or mix, not ${validators}`);
let generation = 1;

function feedBody(n: number, gen: number): string {
  const items: string[] = [];
  for (let k = 0; k < itemsPerFeed; k++) {
    const when = new Date(Date.UTC(2026, 10, 20, 0, 0, 0) + (gen * 1000 + k) * 60_000).toUTCString();
    items.push(
      `<item><title>Feed ${n} story ${gen}.${k}</title><link>https://example.com/${n}/${gen}/${k}</link>` +
        `<guid isPermaLink="false">g${gen}-${n}-${k}</guid><pubDate>${when}</pubDate>` +
        `<description>&lt;p&gt;Generation ${gen}, item ${k} of feed ${n}: a paragraph of text long enough to look like a real summary of a real post, with &lt;a href="https://example.com/"&gt;a link&lt;/a&gt;.&lt;/p&gt;</description></item>`,
    );
  }
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${n}</title><link>https://example.com/${n}</link><description>Bench feed</description>${items.join('')}</channel></rss>`;
}

/** Which validators feed n's server sends. */
function validatorsOf(n: number): { etag: boolean; lastModified: boolean } {
  const kind = validators === 'mix' ? (['etag', 'lastmod', 'both'] as const)[n % 3]! : validators;
  return { etag: kind !== 'lastmod', lastModified: kind !== 'etag' };
}

/** Each generation is a day later: an If-Modified-Since of this generation or later is a 304. */
const lastModifiedOf = (gen: number) => new Date(Date.UTC(2026, 10, 1) + gen * 86_400_000).toUTCString();

const cache = new Map<string, Buffer>();
const ports: number[] = [];
for (let h = 0; h < hosts; h++) {
  const server = createServer((req, res) => {
    const n = Number(/^\/feed\/(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
    if (!Number.isFinite(n)) {
      res.writeHead(404).end();
      return;
    }
    const has = validatorsOf(n);
    const headers: Record<string, string> = {};
    if (has.etag) headers.etag = `"v${generation}-${n}"`;
    if (has.lastModified) headers['last-modified'] = lastModifiedOf(generation);
    // RFC 9110 §13.2.2: If-None-Match first; If-Modified-Since only without it.
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const fresh =
      inm !== undefined
        ? has.etag && inm === headers.etag
        : has.lastModified && ims !== undefined && Date.parse(ims) >= Date.parse(headers['last-modified']!);
    if (fresh) {
      res.writeHead(304, headers).end();
      return;
    }
    const zipped = gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const key = `${generation}:${n}:${zipped}`;
    let body = cache.get(key);
    if (!body) {
      const plain = Buffer.from(feedBody(n, generation));
      body = zipped ? gzipSync(plain) : plain;
      cache.set(key, body);
    }
    if (zipped) headers['content-encoding'] = 'gzip';
    res.writeHead(200, { 'content-type': 'application/rss+xml', ...headers }).end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ports.push((server.address() as AddressInfo).port);
}
process.stdout.write(`ready ${ports.join(',')}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of chunk.split('\n')) {
    if (line.trim() === 'bump') {
      generation++;
      cache.clear();
      process.stdout.write('bumped\n');
    }
  }
});
process.stdin.on('end', () => process.exit(0));
