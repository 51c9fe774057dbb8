/**
 * `npm run screenshot`: the README's picture of the river, docs/images/river.png (1280x800, light
 * theme), taken the way a user sees the app: the feeds of scripts/screenshot-feeds.ts served on
 * loopback, imported with `tidings opml import`, fetched by a real `tidings serve` (browser mode, no
 * tunnel) and shown in Chromium (Playwright). Nothing leaves 127.0.0.1; the data folder is temporary.
 * Run `npx electron-vite build` first (the npm script does). Look at the PNG before committing it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { Resvg } from '@resvg/resvg-js';
import { chromiumPath } from '../e2e/support/chromium.ts';
import { spawnTidingsOn } from '../e2e/support/servers.ts';
import type { FeedView } from '../src/app/api.ts';
import { escapeXmlAttr, escapeXmlText } from '../src/feed/xml-escape.ts';
import { tempDir } from '../src/store/test-support.ts';
import { tidings } from '../src/testing/cli-run.ts';
import { type FeedHost, startFeedHost } from '../src/testing/feed-host.ts';
import { waitFor } from '../src/testing/wait.ts';
import { SHOT_FEEDS, type ShotFeed } from './screenshot-feeds.ts';

const OUT = resolve(import.meta.dirname, '..', 'docs', 'images', 'river.png');
const VIEWPORT = { width: 1280, height: 800 };

/** A feed's icon: its letter, white on its colour, as a PNG (feeds' icons are pictures, not text). */
function iconPng(letter: string, colour: string, size: number): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="${colour}"/>
  <text x="32" y="45" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="38"
        fill="#fff" text-anchor="middle">${letter}</text></svg>`;
  return new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
}

function rssDocument(feed: ShotFeed, base: string, now: number): string {
  const home = `${base}/${feed.slug}/`;
  const items = feed.items.map((item, i) => {
    const date = new Date(now - item.minutesAgo * 60_000).toUTCString();
    const categories = (item.categories ?? [])
      .map((c) => `<category>${escapeXmlText(c)}</category>`)
      .join('');
    const episode = item.episode
      ? `<enclosure url="${home}episode-${item.episode.number}.mp3" type="audio/mpeg" length="46640000"/>` +
        `<itunes:duration>${item.episode.seconds}</itunes:duration>` +
        `<itunes:season>${item.episode.season}</itunes:season><itunes:episode>${item.episode.number}</itunes:episode>`
      : '';
    return `<item><title>${escapeXmlText(item.title)}</title><link>${home}${i}</link>
<guid isPermaLink="false">${feed.slug}-${i}</guid><pubDate>${date}</pubDate>
${item.author ? `<dc:creator>${escapeXmlText(item.author)}</dc:creator>` : ''}${categories}${episode}
<description>${escapeXmlText(item.html)}</description></item>`;
  });
  const art = feed.podcast ? `<itunes:image href="${home}artwork.png"/>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>${escapeXmlText(feed.title)}</title><link>${home}</link><description>${escapeXmlText(feed.title)}</description>
<image><url>${home}icon.png</url><title>${escapeXmlText(feed.title)}</title><link>${home}</link></image>${art}
${items.join('\n')}
</channel></rss>`;
}

function serveFeeds(host: FeedHost, now: number): void {
  for (const feed of SHOT_FEEDS) {
    host.set(`/${feed.slug}/feed.xml`, rssDocument(feed, host.url, now));
    host.set(`/${feed.slug}/icon.png`, {
      body: iconPng(feed.icon.letter, feed.icon.colour, 64),
      type: 'image/png',
    });
    if (feed.podcast) {
      host.set(`/${feed.slug}/artwork.png`, {
        body: iconPng(feed.icon.letter, feed.icon.colour, 256),
        type: 'image/png',
      });
    }
  }
}

/** The subscriptions as OPML, filed in their folders, as a reader moving from another app has them. */
function opml(base: string): string {
  const outline = (f: ShotFeed) =>
    `<outline type="rss" text="${escapeXmlAttr(f.title)}" xmlUrl="${base}/${f.slug}/feed.xml"/>`;
  const folders = [...new Set(SHOT_FEEDS.map((f) => f.folder).filter((f) => f !== null))];
  const filed = folders.map(
    (name) =>
      `<outline text="${escapeXmlAttr(name)}">${SHOT_FEEDS.filter((f) => f.folder === name)
        .map(outline)
        .join('')}</outline>`,
  );
  const unfiled = SHOT_FEEDS.filter((f) => f.folder === null).map(outline);
  return `<?xml version="1.0"?><opml version="2.0"><head><title>Feeds</title></head><body>${[...filed, ...unfiled].join('')}</body></opml>`;
}

async function api<T>(openUrl: string, method: string, args: unknown[] = []): Promise<T> {
  const url = new URL(openUrl);
  const answer = await fetch(new URL(`/api/${method}`, url), {
    method: 'POST',
    headers: { authorization: `Bearer ${url.searchParams.get('token')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ args }),
  });
  const body = (await answer.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

const dir = tempDir('tidings-screenshot-');
const host = await startFeedHost();
let app: Awaited<ReturnType<typeof spawnTidingsOn>> | null = null;
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  serveFeeds(host, Date.now());
  const dataDir = dir.file('data');
  mkdirSync(dataDir);
  const list = dir.file('feeds.opml');
  writeFileSync(list, opml(host.url));
  const imported = await tidings('opml', 'import', list, '--data', dataDir);
  if (imported.code !== 0) throw new Error(`tidings opml import failed:\n${imported.stderr}`);

  app = await spawnTidingsOn(dataDir, 'serve', ['--port', '0', '--no-tunnel'], /Open (http:\/\/\S+)/);
  const openUrl = app.ready;
  await waitFor(
    async () => {
      const feeds = await api<FeedView[]>(openUrl, 'listFeeds');
      return feeds.filter((f) => !f.own && f.status === 'ok').length === SHOT_FEEDS.length;
    },
    30_000,
    'every feed fetched once',
  );

  const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light', deviceScaleFactor: 1 });
  // The theme is the window's own choice (renderer/src/lib/theme.ts); this file has no DOM types.
  await page.addInitScript("localStorage.setItem('tidings.theme', 'light')");
  await page.goto(openUrl);
  await page.getByTestId('river-item').first().waitFor();
  // Every icon and the podcast's artwork drawn before the picture is taken.
  const images = page.locator('img');
  await waitFor(
    () => images.evaluateAll((all) => all.every((img) => (img as unknown as { complete: boolean }).complete)),
    10_000,
    'the icons and the artwork drawn',
  );
  // The add-feed field takes the focus on start: a picture of the river shows no focus ring.
  await page.getByTestId('add-feed-input').blur();
  mkdirSync(resolve(OUT, '..'), { recursive: true });
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT} (${VIEWPORT.width}x${VIEWPORT.height}, light theme)`);
} finally {
  await browser.close();
  await app?.stop();
  await host.close();
  dir.remove();
}
