/**
 * Issue 16 and 17 in the Settings page and the river:
 * - WebSub end to end between two `tidings serve` processes on loopback: the writer's own cloud is
 *   a WebSub hub its feed names; the reader subscribing to that feed goes real-time through the
 *   hub (its row and river bar say so, Settings > Real time lists the subscription), and a post
 *   typed in the writer's window reaches the reader's open river.
 * - The theme switch (Light / Dark / System) at the three sizes: a chosen theme wins over the
 *   system's, at once and after a reload.
 * - A one-feed view shows every item of a big update (no "N more from" cap).
 */
import { type Browser, test as base, type Page } from '@playwright/test';
import { freePort } from '../src/net/test-server.ts';
import { expect, test } from './support/fixtures.ts';
import { editPublishSettings, postFromComposer, startHostingWriter } from './support/publish.ts';
import { addFeed, axeViolations, numberedItems, SIZES, screenshot, showAll } from './support/reading.ts';
import { startTidings, type TidingsProcess } from './support/servers.ts';

async function openPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

base(
  'WebSub: the reader goes real-time through the writer’s hub; Settings lists it; a post arrives',
  async ({ browser }) => {
    base.setTimeout(120_000);
    const running: TidingsProcess[] = [];
    try {
      const writer = await startHostingWriter();
      running.push(writer);
      const port = await freePort();
      const reader = await startTidings([
        '--no-tunnel',
        '--public-url',
        `http://127.0.0.1:${port}`,
        '--receiver-port',
        String(port),
      ]);
      running.push(reader);

      // The writer: its own hub is named by default; the settings say where it is, in plain words.
      const w = await openPage(browser, writer.openUrl);
      await editPublishSettings(w, async () => {
        await w.getByTestId('publish-title').fill('Hub Writer');
        await expect(w.getByTestId('publish-hub-own')).toBeChecked();
        await expect(w.getByTestId('publish-own-hub-note')).toContainText(writer.publicUrl);
        await expect(w.getByTestId('settings-own-hub')).toContainText(
          `Your hub (WebSub), for readers whose apps use WebSub: ${writer.publicUrl}`,
        );
        await w.getByTestId('publish-hubs').scrollIntoViewIfNeeded();
        await screenshot(w, 'websub-writer-hub-settings');
      });
      await w.getByTestId('settings-toggle').click();
      const rssRow = w.getByTestId('publish-urls').locator('li').filter({ hasText: 'RSS' });
      const feedUrl = (await rssRow.locator('code').textContent())!.trim();
      await w.getByTestId('settings-toggle').click();
      await postFromComposer(w, 'First post, before the reader came');

      // The reader: the feed names both the own cloud and the own hub; the hub is used (it brings the
      // new feed itself), said in the row's tooltip and the river bar.
      const r = await openPage(browser, reader.openUrl);
      await r.getByTestId('add-feed-input').fill(feedUrl);
      await r.getByTestId('add-feed-submit').click();
      const row = r.getByTestId('feed-row').filter({ hasText: 'Hub Writer' });
      await expect(row).toHaveAttribute('title', /real-time via WebSub hub 127\.0\.0\.1/, {
        timeout: 20_000,
      });
      await expect(r.getByTestId('river-delivery')).toContainText('real-time via WebSub hub 127.0.0.1');
      const river = r.getByTestId('river');
      await expect(river).toContainText('First post, before the reader came');

      // A post typed in the writer's window reaches the open river, through the hub.
      await postFromComposer(w, 'Second post, delivered by the WebSub hub');
      await expect(river).toContainText('Second post, delivered by the WebSub hub', { timeout: 15_000 });
      await screenshot(r, 'websub-reader-river');

      // The writer's My posts: the own cloud's one ping reaches its WebSub readers too, and says so.
      await w.getByTestId('my-posts-link').click();
      const pings = w.getByTestId('post-card').first().getByTestId('post-ping');
      await expect(pings.filter({ hasText: 'own cloud (its WebSub hub too)' })).toContainText('ok', {
        timeout: 15_000,
      });
      await w.getByTestId('post-card').first().getByTestId('post-log').locator('summary').click();
      await expect(pings.first()).toBeVisible();
      await screenshot(w, 'websub-writer-my-posts');

      // Settings > Real time lists the subscription: WebSub, through whom, live, the last delivery.
      await r.getByTestId('settings-toggle').click();
      const sub = r.getByTestId('realtime-subscription').filter({ hasText: 'Hub Writer' });
      await expect(sub).toHaveAttribute('data-protocol', 'WebSub');
      await expect(sub).toContainText('WebSub hub 127.0.0.1');
      await expect(sub).toContainText('live');
      await expect(sub).toContainText('last delivery', { timeout: 10_000 });
      for (const size of SIZES) {
        await r.setViewportSize({ width: size.width, height: size.height });
        await sub.scrollIntoViewIfNeeded();
        await screenshot(r, `websub-reader-settings-${size.name}`);
        expect.soft(await axeViolations(r), `reader settings ${size.name}`).toEqual([]);
      }
    } finally {
      for (const p of running.reverse()) await p.stop();
    }
  },
);

const background = (page: Page) => page.evaluate('getComputedStyle(document.body).backgroundColor');
const WHITE = 'rgb(255, 255, 255)';
const DARK = 'rgb(22, 24, 29)';

test('the theme switch: Light on a dark system, Dark on a light one, on Save and after a reload', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(300_000);
  host.set(
    '/feed.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Themed Feed</title><link>${host.url}/</link><description>d</description><item><title>A themed item</title><guid>t1</guid><description>&lt;p&gt;Some words, &lt;mark&gt;marked&lt;/mark&gt;.&lt;/p&gt;</description></item></channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/feed.xml`, 'Themed Feed');
  const cases = [
    { system: 'dark', choice: 'light', expected: WHITE },
    { system: 'light', choice: 'dark', expected: DARK },
  ] as const;
  for (const c of cases) {
    await page.emulateMedia({ colorScheme: c.system });
    await page.getByTestId('settings-toggle').click();
    const settings = page.getByTestId('settings-panel');
    // System first: the page follows the system.
    await settings.getByTestId('settings-theme-system').check();
    await settings.getByTestId('settings-save').click();
    await expect(settings.getByTestId('settings-result')).not.toBeEmpty();
    expect(await background(page)).toBe(c.system === 'dark' ? DARK : WHITE);
    // The choice waits for Save, like every field in Settings (issue 35), then applies.
    await settings.getByTestId(`settings-theme-${c.choice}`).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', c.system);
    await expect(settings.getByTestId('settings-unsaved')).toHaveText('Not saved yet: Reading');
    await settings.getByTestId('settings-save').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', c.choice);
    expect(await background(page)).toBe(c.expected);
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await settings.getByTestId(`settings-theme-${c.choice}`).scrollIntoViewIfNeeded();
      await screenshot(page, `theme-${c.choice}-on-${c.system}-settings-${size.name}`);
    }
    // The colours of a chosen theme over the other system scheme (reading-sizes scans each
    // scheme at every size; the size does not change a colour).
    expect.soft(await axeViolations(page), `settings ${c.choice} on ${c.system}`).toEqual([]);
    // Remembered: after a reload the river keeps the chosen theme over the system's.
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', c.choice);
    expect(await background(page)).toBe(c.expected);
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await expect(page.getByTestId('river')).toContainText('A themed item');
      await screenshot(page, `theme-${c.choice}-on-${c.system}-river-${size.name}`);
    }
    expect.soft(await axeViolations(page), `river ${c.choice} on ${c.system}`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  // Back to System: the system's scheme again, live.
  await page.getByTestId('settings-toggle').click();
  await page.getByTestId('settings-theme-system').check();
  await page.getByTestId('settings-save').click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('a one-feed view shows every item of a big update, with no "N more from" cap', async ({
  page,
  host,
  tidings,
}) => {
  const feed = (body: string) =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Big Feed</title><link>${host.url}/</link><description>x</description>${body}</channel></rss>`;
  host.set('/big.xml', feed(numberedItems('Start', 1, 13)));
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/big.xml`, 'Big Feed');
  // A big live update: 25 new items in one fetch (the all-feeds river caps such a group at 10).
  host.set('/big.xml', feed(numberedItems('Big', 25, 12) + numberedItems('Start', 1, 13)));
  const row = page.getByTestId('feed-row').filter({ hasText: 'Big Feed' });
  await row.click();
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  await expect(row).toContainText('26');
  const bigItems = page.getByTestId('river-item').filter({ hasText: /^Big \d+/ });
  await showAll(page);
  await expect(page.getByTestId('group-more')).toHaveText('15 more from Big Feed');
  // The feed's own view: all 25, no cap line.
  await row.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Big Feed');
  await expect(bigItems).toHaveCount(25);
  await expect(page.getByTestId('group-more')).toHaveCount(0);
  await page.getByTestId('river').getByText('Big 24').scrollIntoViewIfNeeded();
  await screenshot(page, 'one-feed-view-all-items');
});
