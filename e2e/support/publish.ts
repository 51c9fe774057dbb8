/**
 * Processes for the writer's end-to-end tests: a standalone `tidings cloud` with a saveRss
 * account made by its own CLI first (same data folder), and small page helpers.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { freePort } from '../../src/net/test-server.ts';
import { spawnTidingsOn, startTidings, type TidingsProcess } from './servers.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'tidings.cjs');

export interface CloudProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `tidings cloud --allow-loopback` on a free port, with account `user`/`password` for saveRss. */
export async function startCloudWithAccount(user: string, password: string): Promise<CloudProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-e2e-cloud-'));
  const made = spawnSync(
    process.execPath,
    [BIN, 'cloud', 'user', 'add', user, '--data', dataDir, '--password-stdin'],
    {
      cwd: ROOT,
      input: `${password}\n`,
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) throw new Error(`tidings cloud user add failed:\n${made.stdout}${made.stderr}`);
  const cloud = await spawnTidingsOn(
    dataDir,
    'cloud',
    ['--port', '0', '--allow-loopback'],
    /(http:\/\/127\.0\.0\.1:\d+)/,
  );
  return {
    url: cloud.ready,
    port: Number(new URL(cloud.ready).port),
    async stop() {
      await cloud.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `tidings serve` on a data folder the caller owns (kept when it stops), so a test can stop the
 * app and start it again on the same data: a restart.
 */
export async function serveOn(
  dataDir: string,
  args: string[] = [],
): Promise<{ openUrl: string; stop(): Promise<void> }> {
  const app = await spawnTidingsOn(
    dataDir,
    'serve',
    ['--port', '0', '--no-tunnel', ...args],
    /Open (http:\/\/\S+)/,
  );
  return { openUrl: app.ready, stop: app.stop };
}

/** A static web server on 127.0.0.1 over `dir`: the "public URL" of a folder save target. */
export async function serveFolder(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    try {
      const body = readFileSync(join(dir, path.endsWith('/') ? `${path}index.html` : path));
      const type = path.endsWith('.xml') ? 'application/rss+xml; charset=utf-8' : 'text/html; charset=utf-8';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Nothing focused: keys go to the document, as after clicking an empty spot. */
export const blur = (page: Page) =>
  page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');

/** Opens the composer with `c`, types, posts, and waits for the dialog to close. */
export async function postFromComposer(page: Page, text: string): Promise<void> {
  await blur(page);
  await page.keyboard.press('c');
  await page.getByTestId('composer-text').fill(text);
  await page.getByTestId('composer-post').click();
  await page.getByTestId('composer').waitFor({ state: 'hidden' });
}

/**
 * `tidings serve` whose hosted feed counts as saved: hosting needs a public address, and this
 * one's is its own receiver on loopback.
 */
export async function startHostingWriter(): Promise<TidingsProcess & { publicUrl: string }> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const tidings = await startTidings([
    '--no-tunnel',
    '--public-url',
    publicUrl,
    '--receiver-port',
    String(port),
    '--allow-loopback',
  ]);
  return { ...tidings, publicUrl };
}

/** Opens Settings, lets `change` edit the publish section, saves (waits for "Saved.") and closes. */
export async function editPublishSettings(page: Page, change: () => Promise<void>): Promise<void> {
  await page.getByTestId('settings-toggle').click();
  await change();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-result')).toHaveText('Saved.');
  await page.getByTestId('settings-toggle').click();
}
