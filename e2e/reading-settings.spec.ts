/**
 * Issue 17, point 7: Settings is a page of its own (the river's place, not a panel above it: at
 * 800x600 with the player open it left no river), with sections Reading, Real time, Your feed,
 * Privacy, About, one Save, names that do not run into their descriptions, and no promise that
 * readers are notified through the tunnel while the tunnel is off. axe-clean, light and dark.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, SIZES, screenshot, smallToggles } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

const OVERLAPS = `(() => {
  const bad = [];
  for (const label of document.querySelectorAll('.settings-label, .settings-check > span')) {
    const a = label.getBoundingClientRect();
    const next = label.parentElement.querySelector('.settings-note');
    if (!next || label.contains(next)) continue;
    const b = next.getBoundingClientRect();
    if (a.bottom > b.top + 0.5 && a.top < b.bottom && a.right > b.left && a.left < b.right) bad.push(label.textContent);
  }
  return bad;
})()`;

test('Settings is a page with sections, one Save, plain words, true about the tunnel', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(150_000);
  host.set('/feed.xml', rssFeed('Settled Feed', [{ title: 'hello', guid: 's1', date: new Date() }]));
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/feed.xml`, 'Settled Feed');
  await page.getByTestId('settings-toggle').click();
  const settings = page.getByTestId('settings-panel');
  await expect(settings).toBeVisible();
  // In the river's place.
  await expect(page.getByTestId('river')).toHaveCount(0);
  const nav = settings.getByRole('navigation', { name: 'Settings sections' });
  await expect(nav.getByRole('link')).toHaveText([
    'Reading',
    'Mute filters',
    'Real time',
    'Privacy',
    'Other devices',
    'Your feed',
    'Backup',
    'About',
  ]);
  for (const name of [
    'Reading',
    'Real time',
    'Privacy',
    'Read on other devices',
    'Your feed',
    'Backup',
    'About',
  ])
    await expect(settings.getByRole('heading', { name, exact: true })).toHaveCount(1);
  // One Save; the old jargon is gone; the tunnel is off, so nothing promises it.
  await expect(settings.getByRole('button', { name: /^Save/ })).toHaveCount(1);
  await expect(settings).not.toContainText('through your tunnel');
  await expect(settings).not.toContainText('Ping sink');
  await expect(settings.getByTestId('publish-own-cloud-note')).toContainText('Not reachable now');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await expect(settings.getByTestId('settings-save')).toBeInViewport();
      expect(await page.evaluate(OVERLAPS), `overlaps at ${size.name}`).toEqual([]);
      expect(await smallToggles(settings)).toEqual([]);
      await screenshot(page, `settings-page-${size.name}-${scheme}`);
      // axe: reading-sizes scans this page at every size, light and dark.
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 800, height: 600 });
  // The one Save saves the reading settings and Your feed together.
  await settings.getByTestId('settings-interval').fill('45');
  await settings.getByTestId('publish-title').fill('Saved together');
  await settings.getByTestId('settings-save').click();
  await expect(settings.getByTestId('settings-result')).toHaveText('Saved.');
  await expect(settings.getByTestId('settings-unsaved')).toHaveCount(0);
  // Picking a feed leaves Settings for its river.
  await page.getByTestId('feed-row').filter({ hasText: 'Settled Feed' }).click();
  await expect(settings).toHaveCount(0);
  await expect(page.getByTestId('river')).toBeVisible();
});
