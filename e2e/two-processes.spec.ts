/**
 * The whole rssCloud loop between two Tidings processes on loopback: `tidings cloud` (the cloud)
 * and `tidings serve` (the reader, its receiver reached at a public URL on 127.0.0.1). A writer
 * saves the feed and pings the cloud; the reader's open river shows the item with no refresh.
 */
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { freePort } from '../src/net/test-server.ts';
import {
  type FeedHost,
  rssFeed,
  spawnTidings,
  startFeedHost,
  startTidings,
  type TidingsProcess,
} from './support/servers.ts';

function startCloudProcess() {
  return spawnTidings('cloud', ['--port', '0', '--allow-loopback'], /(http:\/\/127\.0\.0\.1:\d+)/).then(
    (child) => ({
      url: child.ready,
      port: Number(new URL(child.ready).port),
      stop: child.stop,
    }),
  );
}

let host: FeedHost;
let cloud: Awaited<ReturnType<typeof startCloudProcess>>;
let reader: TidingsProcess;

test.beforeEach(async () => {
  host = await startFeedHost();
  cloud = await startCloudProcess();
  const receiverPort = await freePort();
  reader = await startTidings([
    '--no-tunnel',
    '--public-url',
    `http://127.0.0.1:${receiverPort}`,
    '--receiver-port',
    String(receiverPort),
  ]);
});

test.afterEach(async () => {
  await reader?.stop();
  await cloud?.stop();
  await host?.close();
});

test('writer -> tidings cloud -> tidings serve: the pinged item appears in the river', async ({ page }) => {
  const cloudElement = `<cloud domain="127.0.0.1" port="${cloud.port}" path="/pleaseNotify" registerProcedure="" protocol="http-post"/>`;
  const first = { title: 'Before the ping', guid: 'p1', date: new Date('2026-11-20T08:00:00Z') };
  host.set('/writer.xml', rssFeed('Two Process Desk', [first], cloudElement));

  await page.goto(reader.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/writer.xml`);
  await page.getByTestId('add-feed-submit').click();
  const river = page.getByTestId('river');
  await expect(river).toContainText('Before the ping');
  const row = page.getByTestId('feed-row').filter({ hasText: 'Two Process Desk' });
  await expect(row).toHaveAttribute('title', /real-time via 127\.0\.0\.1/, { timeout: 20_000 });

  host.set(
    '/writer.xml',
    rssFeed(
      'Two Process Desk',
      [{ title: 'After the ping', guid: 'p2', date: new Date() }, first],
      cloudElement,
    ),
  );
  const ping = await fetch(`${cloud.url}/ping`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ url: `${host.url}/writer.xml` }),
  });
  expect(await ping.json()).toEqual({ success: true, msg: 'Thanks for the ping.' });
  await expect(river).toContainText('After the ping', { timeout: 5_000 });

  // The cloud's own status page lists the reader's subscription.
  const subs = await (await fetch(`${cloud.url}/subscriptions.json`)).text();
  expect(subs).toContain(`${host.url}/writer.xml`);

  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/two-processes.png' });
});
