/**
 * A farm of feed hosts for benchmarks, run as a child process so the parent's memory figures
 * are its own. Serves /feed/<n> on `hosts` ports with ETag validators; the parent sends "bump"
 * to change every feed (50 new items each) and reads "ready <ports>" / "bumped" on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const hosts = Number(process.argv[2] ?? 10);
const itemsPerFeed = Number(process.argv[3] ?? 50);
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

const cache = new Map<string, string>();
const ports: number[] = [];
for (let h = 0; h < hosts; h++) {
  const server = createServer((req, res) => {
    const n = Number(/^\/feed\/(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
    if (!Number.isFinite(n)) {
      res.writeHead(404).end();
      return;
    }
    const etag = `"v${generation}-${n}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    const key = `${generation}:${n}`;
    let body = cache.get(key);
    if (!body) {
      body = feedBody(n, generation);
      cache.set(key, body);
    }
    res.writeHead(200, { 'content-type': 'application/rss+xml', etag }).end(body);
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
