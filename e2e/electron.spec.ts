/**
 * The desktop app itself, where the Electron binary exists (ELECTRON_EXEC_PATH, or the one the
 * electron package downloaded). On machines without it, this spec is skipped with the reason.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { rssFeed, startFeedHost } from './support/servers.ts';

const ROOT = resolve(import.meta.dirname, '..');

function electronBinary(): string | null {
  if (process.env.ELECTRON_EXEC_PATH)
    return existsSync(process.env.ELECTRON_EXEC_PATH) ? process.env.ELECTRON_EXEC_PATH : null;
  const pathFile = join(ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const full = join(ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(full) ? full : null;
}

const binary = electronBinary();

test('the desktop window subscribes and shows the river', async () => {
  test.skip(
    !binary,
    'No Electron binary on this machine (set ELECTRON_EXEC_PATH or let `npm start` fetch it).',
  );
  const host = await startFeedHost();
  host.set(
    '/feed.xml',
    rssFeed('Desktop News', [{ title: 'Hello desktop', guid: 'x1', description: 'hi', date: new Date() }]),
  );
  const userData = mkdtempSync(join(tmpdir(), 'tidings-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [ROOT, `--user-data-dir=${userData}`, '--no-sandbox'],
  });
  try {
    const page = await app.firstWindow();
    // The renderer has no Node and no direct IPC: only the preload's minimal object.
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { tidings?: unknown }).tidings)).toBe('object');
    await page.getByTestId('add-feed-input').fill(`${host.url}/feed.xml`);
    await page.getByTestId('add-feed-submit').click();
    await expect(page.getByTestId('river')).toContainText('Hello desktop');
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.screenshot({ path: 'test-results/screenshots/electron.png' });
  } finally {
    await app.close();
    await host.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
