/**
 * The whole rssCloud loop between two Tidings processes on loopback: `tidings cloud` (the cloud)
 * and `tidings serve` (the reader, its receiver reached at a public URL on 127.0.0.1). A writer
 * saves the feed and pings the cloud; the reader's open river shows the item with no refresh.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  type FeedHost,
  rssFeed,
  startFeedHost,
  startTidings,
  type TidingsProcess,
} from './support/servers.ts';

const ROOT = resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

async function startCloudProcess(): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-e2e-cloud-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'tidings.cjs'), 'cloud', '--port', '0', '--data', dataDir, '--allow-loopback'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`tidings cloud did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  return {
    url,
    port: Number(new URL(url).port),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  await expect(row).toContainText(/real-time via 127\.0\.0\.1/, { timeout: 20_000 });

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
