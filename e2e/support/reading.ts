/**
 * Helpers for the reading-experience specs (e2e/reading-*.spec.ts): a small library of feeds on
 * the loopback feed host, subscribed through the window, and the three window sizes the issue names.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
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

/** Subscribes through the add-feed form and waits for the feed's row. */
export async function addFeed(page: Page, url: string, title: string): Promise<void> {
  await page.getByTestId('add-feed-input').fill(url);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('feed-row').filter({ hasText: title })).toBeVisible();
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

/** axe-core on the page as it is now, WCAG 2.x A and AA rules; returns readable violations. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
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
