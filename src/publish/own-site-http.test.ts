/**
 * The own cloud's reads of our hosted feed skip the tunnel: a URL under the public address's
 * /site/ is read from the receiver on loopback; anything else goes to the cloud's own client,
 * whose host policy still refuses loopback.
 */
import { afterEach, expect, it } from 'vitest';
import { createHttpClient } from '../net/http-client.ts';
import { startServer, type TestServer } from '../net/test-server.ts';
import { readOwnSiteLocally } from './own-site-http.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
});

it('reads /site/ of our public address on loopback, and nothing else', async () => {
  server = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(`<rss version="2.0"><channel><title>${req.url}</title></channel></rss>`);
  });
  const strict = createHttpClient({ hostPolicy: { allowLoopback: false } });
  const loopback = createHttpClient({ hostPolicy: { allowLoopback: true } });
  const http = readOwnSiteLocally(strict, loopback, () => ({
    publicUrl: 'https://tidings-abc.loca.lt',
    localUrl: server!.url,
  }));
  try {
    const res = await http.fetchFeed({ url: 'https://tidings-abc.loca.lt/site/feed.xml' });
    expect(res.kind).toBe('ok');
    if (res.kind === 'ok') {
      expect(Buffer.from(res.body).toString()).toContain('<title>/site/feed.xml</title>');
      expect(res.finalUrl).toBe('https://tidings-abc.loca.lt/site/feed.xml');
    }
    // The receiver's other paths, and loopback addresses given directly, stay with the strict client.
    const other = await http.fetchFeed({ url: `${server!.url}/site/feed.xml` });
    expect(other.kind).toBe('error');
    expect(server!.requests.map((r) => r.path)).toEqual(['/site/feed.xml']);
  } finally {
    http.close();
  }
});
