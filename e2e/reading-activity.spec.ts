/**
 * Issue 9, window sizes: the rssCloud activity table, with real calls in it (a real cloud and
 * tunnel on loopback), stays inside its panel at 800x600 and 480x800 (it scrolls there; the page
 * does not overflow sideways), in light and dark, axe-clean.
 */
import { expect, test } from '@playwright/test';
import { addFeed, axeViolations, screenshot } from './support/reading.ts';
import { type RealtimeRig, startRealtimeRig } from './support/realtime.ts';
import { rssFeed } from './support/servers.ts';

let rig: RealtimeRig;

test.beforeEach(async () => {
  rig = await startRealtimeRig();
});

test.afterEach(async () => {
  await rig?.stop();
});

test('the activity table stays in its panel at 800x600 and 480x800', async ({ page }) => {
  const { host, cloud, tidings } = rig;
  test.setTimeout(120_000);
  host.set(
    '/desk.xml',
    rssFeed(
      'Cloud Desk',
      [{ title: 'Filed', guid: 'a1', date: new Date('2026-11-20T09:00:00Z') }],
      cloud.markup('http-post'),
    ),
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/desk.xml`, 'Cloud Desk');
  const row = page.getByTestId('feed-row').filter({ hasText: 'Cloud Desk' });
  await expect(row).toHaveAttribute('title', /real-time via/, { timeout: 20_000 });
  await page.getByTestId('activity-toggle').click();
  await expect(page.getByTestId('activity-row').first()).toBeVisible();

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of [
      { name: '800x600', width: 800, height: 600 },
      { name: '480x800', width: 480, height: 800 },
    ]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      const overflow = await page.evaluate(() => {
        // e2e compiles without the DOM lib (it sits with the core's tsconfig): type what is read.
        const g = globalThis as unknown as {
          document: { documentElement: { scrollWidth: number } };
          innerWidth: number;
        };
        return g.document.documentElement.scrollWidth - g.innerWidth;
      });
      expect(overflow, `page overflows sideways at ${size.name}`).toBeLessThanOrEqual(0);
      const panel = await page.getByTestId('activity-log').boundingBox();
      expect(panel && panel.x + panel.width).toBeLessThanOrEqual(size.width);
      // The river is still there below the panel.
      await expect(page.getByTestId('river')).toBeVisible();
      await screenshot(page, `activity-calls-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `activity ${size.name} ${scheme}`).toEqual([]);
    }
  }
});
