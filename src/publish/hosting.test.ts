/**
 * The hosting handler as a Request -> Response function (no socket): only its own documents and
 * content-named media files, nothing else under the data folder; GET and HEAD only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { siteDocument } from './documents.ts';
import { createHostingHandler, pickEncoding } from './hosting.ts';
import { PublishStore } from './publish-store.ts';

let dir: string;
let store: PublishStore;
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('serves its documents and media, and nothing else', async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-hosting-'));
  store = new PublishStore(join(dir, 'publish.db'));
  store.putDocuments(
    [siteDocument('/feed.xml', '<rss version="2.0"/>', 'application/rss+xml; charset=utf-8')],
    1000,
  );
  mkdirSync(join(dir, 'media'));
  writeFileSync(
    join(dir, 'media', '0123456789abcdef.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  writeFileSync(join(dir, 'secret.txt'), 'not for the internet');
  const handle = createHostingHandler({
    store,
    mediaDir: join(dir, 'media'),
    now: () => 5000,
    login: () => null,
  });
  const get = (path: string, method = 'GET') =>
    handle(new Request(`http://x${path}`, { method }), { remoteAddress: '127.0.0.1' });

  expect((await get('/feed.xml')).status).toBe(200);
  expect((await get('/feed.xml', 'POST')).status).toBe(405);
  const svg = await get('/media/0123456789abcdef.svg');
  expect(svg.status).toBe(200);
  expect(svg.headers.get('content-security-policy')).toContain('sandbox');
  expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
  for (const path of [
    '/media/../secret.txt',
    '/media/%2e%2e/secret.txt',
    '/media/..%2fsecret.txt',
    '/secret.txt',
    '/publish.db',
    '/media/',
  ]) {
    expect((await get(path)).status, path).toBe(404);
  }
});

it.each([
  [null, null],
  ['identity', null],
  ['gzip', 'gzip'],
  ['gzip, br', 'br'],
  ['br;q=0, gzip', 'gzip'],
  ['*', 'gzip'],
  ['deflate', null],
])('Accept-Encoding %j -> %j', (accept, chosen) => {
  expect(pickEncoding(accept)).toBe(chosen);
});
