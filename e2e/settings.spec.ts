/** Settings from the window: the polling interval applies at once; a bad address is refused in words. */
import { mkdirSync } from 'node:fs';
import { expect, test } from './support/fixtures.ts';
import { rssFeed } from './support/servers.ts';

test('changing settings in the panel takes effect and explains refusals', async ({ page, host, tidings }) => {
  host.set(
    '/feed.xml',
    rssFeed('Settled Feed', [{ title: 'hello', guid: 's1', date: new Date('2026-11-20T09:00:00Z') }]),
  );
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/feed.xml`);
  await page.getByTestId('add-feed-submit').click();
  const row = page.getByTestId('feed-row').filter({ hasText: 'Settled Feed' });
  await expect(row).toHaveAttribute('title', /polled every 60 min/);

  await page.getByTestId('settings-toggle').click();
  const panel = page.getByTestId('settings-panel');
  await expect(panel.getByTestId('settings-realtime')).toContainText('Off');
  await panel.getByTestId('settings-interval').fill('30');
  await panel.getByTestId('settings-save').click();
  await expect(panel.getByTestId('settings-result')).toHaveText('Saved.');
  await expect(row).toHaveAttribute('title', /polled every 30 min/);

  await panel.getByTestId('settings-public-url').fill('ftp://not-a-web-address');
  await panel.getByTestId('settings-save').click();
  await expect(panel.getByTestId('settings-result')).toContainText('http(s)');

  await panel.getByTestId('settings-public-url').fill('https://me.example.org');
  await panel.getByTestId('settings-save').click();
  await expect(panel.getByTestId('settings-result')).toHaveText('Saved.');
  await expect(panel.getByTestId('settings-realtime')).toContainText('https://me.example.org');
  await expect(panel.getByTestId('settings-own-cloud')).toContainText(
    'me.example.org:443/cloud/pleaseNotify',
  );
  await expect(panel.getByTestId('settings-own-cloud')).toContainText('https-post');
  // Reachable now: the own notification service's line may promise readers are told at once.
  await expect(panel.getByTestId('publish-own-cloud-note')).toContainText('told of each post at once');

  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/settings.png' });
});
