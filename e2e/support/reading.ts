/**
 * Helpers for the reading-experience specs (e2e/reading-*.spec.ts): a small library of feeds on
 * the loopback feed host, subscribed through the window, and the three window sizes the issue names.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Locator, type Page } from '@playwright/test';
import type { RunOptions, run } from 'axe-core';
import { type FeedHost, rssFeed } from './servers.ts';

export const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '800x600', width: 800, height: 600 },
  { name: '480x800', width: 480, height: 800 },
] as const;

export const SHOTS = 'test-results/screenshots';

/** Three feeds with plain items, served at /news.xml, /tech.xml and /blog.xml. */
export function serveLibrary(host: FeedHost): { path: string; title: string }[] {
  const at = (h: number) => new Date(Date.UTC(2026, 10, 20, h, 0, 0));
  const feeds = [
    { path: '/news.xml', title: 'Loopback News', words: ['harbour', 'election', 'weather'] },
    { path: '/tech.xml', title: 'Tech Weekly', words: ['compiler', 'database', 'network'] },
    { path: '/blog.xml', title: 'A Personal Blog', words: ['garden', 'bicycle', 'kitchen'] },
  ];
  for (const [f, feed] of feeds.entries()) {
    const xml = rssFeed(
      feed.title,
      feed.words.map((word, i) => ({
        title: `${feed.title}: about the ${word}`,
        guid: `${feed.path}-${word}`,
        description: `<p>A paragraph about the <b>${word}</b>, long enough to wrap on a narrow window and show how the text flows.</p>`,
        date: at(f * 3 + i),
      })),
    );
    // Categories and an author on every item: the chips and bylines are checked for contrast too.
    host.set(
      feed.path,
      xml.replaceAll(
        '</item>',
        '<category>Local</category><category>Long reads</category><author>desk@example.com (The Desk)</author></item>',
      ),
    );
  }
  return feeds;
}

/** `n` plain RSS items "<prefix> 0".."<prefix> n-1", a minute apart within `hour` of 20 Nov 2026. */
export function numberedItems(prefix: string, n: number, hour: number): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `<item><title>${prefix} ${i}</title><guid>${prefix}-${i}</guid><pubDate>${new Date(Date.UTC(2026, 10, 20, hour, 59 - i)).toUTCString()}</pubDate><description>d</description></item>`,
  ).join('');
}

/** Subscribes through the add-feed form and waits for the feed's row. */
export async function addFeed(page: Page, url: string, title: string): Promise<void> {
  await page.getByTestId('add-feed-input').fill(url);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('feed-row').filter({ hasText: title })).toBeVisible();
}

/**
 * Opens the app at `openUrl` with the library served on `host`, and subscribes through the form to
 * its first `count` feeds (all of them by default). Returns the library's feeds.
 */
export async function openLibrary(
  page: Page,
  host: FeedHost,
  openUrl: string,
  count = Number.POSITIVE_INFINITY,
): Promise<{ path: string; title: string }[]> {
  const feeds = serveLibrary(host);
  await page.goto(openUrl);
  for (const feed of feeds.slice(0, count)) await addFeed(page, `${host.url}${feed.path}`, feed.title);
  return feeds;
}

/** Back to every feed's river (a new subscription selects its own feed): g then a. */
export async function showAll(page: Page): Promise<void> {
  await page.getByTestId('river').focus();
  await page.keyboard.press('g');
  await page.keyboard.press('a');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('All feeds');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** axe-core's own script, read once: put into a page the first time that page is scanned. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  // Only violations are gathered: the passing nodes' details, which nothing reads, cost as much again.
  resultTypes: ['violations'],
};

/**
 * axe-core on the page as it is now, WCAG 2.x A and AA rules and best practices; returns readable
 * violations. axe runs in the page itself (the app has no frames to merge), put there once per
 * document: @axe-core/playwright evaluated its 650 kB script twice on every scan, about 0.6 s of
 * a 0.87 s scan, and its default mode opened a blank page per scan besides.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    // No context: the whole document.
    (options) => (globalThis as unknown as { axe: { run: typeof run } }).axe.run(options),
    AXE_OPTIONS,
  );
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
  );
}

/**
 * Radios and checkboxes inside `scope` smaller than 24x24 px (WCAG 2.2 target-size). axe flags
 * them only when neighbours are close, which depends on how the browser's font wraps the labels:
 * this measures the controls themselves, the same on every Chromium.
 */
export async function smallToggles(scope: Locator): Promise<string[]> {
  return scope.locator('input[type="radio"], input[type="checkbox"]').evaluateAll((inputs) =>
    inputs
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.width < 24 || box.height < 24))
      .map(
        ({ el, box }) =>
          `${el.getAttribute('data-testid') ?? el.getAttribute('name')}: ${box.width}x${box.height}`,
      ),
  );
}

/**
 * Rows of the feed tree wholly inside the sidebar's scrolling list (what the eye can use without
 * scrolling). bench/river.ts measures the same thing as sidebar_rows_visible.
 */
export const SIDEBAR_ROWS_VISIBLE = `(() => {
  const list = document.querySelector('#sidebar .feed-list');
  if (!list) return 0;
  const frame = list.getBoundingClientRect();
  let n = 0;
  for (const row of list.querySelectorAll('[role="treeitem"]')) {
    const box = row.getBoundingClientRect();
    if (box.height > 0 && box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5) n++;
  }
  return n;
})()`;

/** The names of sidebar rows in sight that something else (a sticky header) sits over. */
export const SIDEBAR_ROWS_COVERED = `(() => {
  const list = document.querySelector('#sidebar .feed-list');
  const frame = list.getBoundingClientRect();
  const out = [];
  for (const row of list.querySelectorAll('[role="treeitem"]')) {
    const box = row.getBoundingClientRect();
    if (box.top < frame.top || box.bottom > frame.bottom) continue;
    const hit = document.elementFromPoint(box.left + box.width / 3, box.top + box.height / 2);
    if (!hit || !row.contains(hit)) out.push(row.textContent);
  }
  return out;
})()`;

/** An OPML document of `count` feeds served by `host`, `perFolder` to a folder ("Folder 1"...). */
export function serveManyFeeds(host: FeedHost, count: number, perFolder: number): string {
  const folders = new Map<string, string[]>();
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, '0');
    host.set(`/many/${n}.xml`, rssFeed(`Many feed ${n}`, [{ title: `item ${n}`, guid: `m${n}` }]));
    const folder = `Folder ${Math.floor(i / perFolder) + 1}`;
    const list = folders.get(folder) ?? [];
    list.push(`<outline type="rss" text="Many feed ${n}" xmlUrl="${host.url}/many/${n}.xml"/>`);
    folders.set(folder, list);
  }
  const body = [...folders].map(([title, list]) => `<outline text="${title}">${list.join('')}</outline>`);
  return `<?xml version="1.0"?><opml version="2.0"><body>${body.join('')}</body></opml>`;
}

/** Imports an OPML document through the sidebar's Import button. */
export async function importOpml(page: Page, opml: string): Promise<void> {
  await page.getByTestId('import-opml-input').setInputFiles({
    name: 'feeds.opml',
    mimeType: 'text/x-opml',
    buffer: Buffer.from(opml),
  });
}

/** A silent mono 8 kHz WAV of `seconds`: a real audio file Chromium can play and seek. */
export function silence(seconds: number): Uint8Array {
  const rate = 8000;
  const data = rate * seconds;
  const b = Buffer.alloc(44 + data, 128);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(data, 40);
  return new Uint8Array(b);
}

/** A 2x2 PNG (any bytes would do for the request counts; this one also renders). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
