/**
 * The reader view's fetch-extract-cache path against a real loopback web server and the app's one
 * HTTP client: what a person gets for an article, and a readable reason for everything else.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { openStore, type Store } from '../store/store.ts';
import { makeItem } from '../store/test-support.ts';
import { articlePage } from '../testing/article-page.ts';
import { type FeedHost, startFeedHost } from '../testing/feed-host.ts';
import { createExtractPool, type ExtractPool } from './extract-pool.ts';
import { createFullTextReader, MAX_PAGE_BYTES } from './reader.ts';

let host: FeedHost;
let http: HttpClient;
let pool: ExtractPool;
let store: Store;
let feed: number;
const clock = new ManualClock(Date.UTC(2026, 10, 20));

beforeAll(async () => {
  host = await startFeedHost();
  http = createHttpClient({ hostPolicy: { allowLoopback: true } });
  pool = createExtractPool();
});
afterAll(async () => {
  await pool.close();
  http.close();
  await host.close();
});
beforeEach(() => {
  store = openStore(':memory:', { clock });
  feed = store.addFeed({ url: 'https://feed.example/' }).feed.id;
});

function itemLinking(path: string): number {
  const link = path.startsWith('http') ? path : `${host.url}${path}`;
  return store.upsertItems(feed, [makeItem(path, { link })], 1).inserted[0]!;
}

const html = (body: string | Uint8Array, type = 'text/html; charset=utf-8') => ({ body, type });

describe('the reader view', () => {
  it('extracts the article, absolute links included, and reads it from the cache the second time', async () => {
    host.set('/news/otters', html(articlePage('Otters return to the river', 12)));
    const id = itemLinking('/news/otters');
    const reader = createFullTextReader({ store, http, clock, pool });
    const first = await reader.read(id);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.title).toBe('Otters return to the river');
    expect(first.value.content).toContain('Paragraph 12 of the article');
    expect(first.value.content).toContain(`href="${host.url}/more/3"`);
    // The menu and the footer are not the article.
    expect(first.value.content).not.toContain('Privacy');
    const again = await reader.read(id);
    expect(again.ok && again.value.content).toBe(first.value.content);
    expect(host.hits('/news/otters')).toBe(1);
    // Asked to, it fetches again.
    await reader.read(id, true);
    expect(host.hits('/news/otters')).toBe(2);
  });

  it('decodes a page in the charset its <meta> names', async () => {
    const page = articlePage('Caf\u00e9 society', 10).replace('charset="utf-8"', 'charset="windows-1252"');
    host.set('/latin', html(Buffer.from(page, 'latin1'), 'text/html'));
    const r = await createFullTextReader({ store, http, clock, pool }).read(itemLinking('/latin'));
    expect(r.ok && r.value.title).toMatch(/^Caf\u00e9 society/);
    expect(r.ok && r.value.content).toContain('Caf\u00e9 society');
  });

  it('says why when there is no article: too little text, a PDF, a missing page, a page too big, no link', async () => {
    const reader = createFullTextReader({ store, http, clock, pool });
    host.set('/short', html('<html><body><p>Just a line.</p></body></html>'));
    host.set('/doc.pdf', html('%PDF-1.4', 'application/pdf'));
    host.set('/huge', html(`<html><body>${'x'.repeat(MAX_PAGE_BYTES + 10)}</body></html>`));
    const cases: [string, string, RegExp][] = [
      ['/short', 'fulltext.notArticle', /does not look like an article/],
      ['/doc.pdf', 'fulltext.notArticle', /PDF document/],
      ['/gone', 'fulltext.fetchFailed', /404 Not Found/],
      ['/huge', 'fulltext.tooBig', /larger than 5 MiB/],
    ];
    for (const [path, code, message] of cases) {
      const r = await reader.read(itemLinking(path));
      expect(r.ok, path).toBe(false);
      if (!r.ok) {
        expect(r.error.code, path).toBe(code);
        expect(r.error.message, path).toMatch(message);
      }
    }
    const none = store.upsertItems(feed, [makeItem('no-link', { link: null })], 1).inserted[0]!;
    const r = await reader.read(none);
    expect(!r.ok && r.error.code).toBe('fulltext.noLink');
  });

  it('goes through the network guards feeds go through: a private address is refused', async () => {
    const guarded = createHttpClient({ hostPolicy: { allowLoopback: false } });
    try {
      host.set('/inside', html(articlePage('Inside', 10)));
      const r = await createFullTextReader({ store, http: guarded, clock, pool }).read(
        itemLinking('/inside'),
      );
      expect(!r.ok && r.error.code).toBe('fulltext.fetchFailed');
      expect(!r.ok && r.error.message).toMatch(/Refused to connect to 127\.0\.0\.1/);
      expect(host.hits('/inside')).toBe(0);
    } finally {
      guarded.close();
    }
  });
});

describe('the full-text cache', () => {
  it('keeps within its size, dropping the articles opened least recently', () => {
    const ids = ['a', 'b', 'c'].map((k) => store.upsertItems(feed, [makeItem(k)], 1).inserted[0]!);
    const put = (itemId: number) =>
      store.putFullText(
        {
          itemId,
          url: 'https://x/',
          title: null,
          byline: null,
          siteName: null,
          content: 'y'.repeat(1000),
          fetchedAt: 0,
        },
        2500,
      );
    put(ids[0]!);
    clock.advance(1000);
    put(ids[1]!);
    clock.advance(1000);
    // Opening the first makes it the most recent: the second goes when the third comes.
    expect(store.getFullText(ids[0]!)).not.toBeNull();
    clock.advance(1000);
    put(ids[2]!);
    expect(store.getFullText(ids[1]!)).toBeNull();
    expect(store.getFullText(ids[0]!)).not.toBeNull();
    expect(store.fullTextCacheBytes()).toBeLessThanOrEqual(2500);
  });
});
