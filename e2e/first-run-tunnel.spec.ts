/**
 * Issue 35, the first run asks before going public: `tidings serve` with no tunnel option opens
 * no tunnel until the window's question is answered; the question says in one sentence what the
 * tunnel exposes (the receiver and your hosted feed, never the app); the answer is remembered; an
 * unanswered question (Escape) comes back. A real localtunnel server on loopback is the saved
 * tunnel server. At 1280x800 and 480x800, light and dark, axe-clean.
 * Screenshots: test-results/screenshots/first-run-tunnel-*.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openStore } from '../src/store/store.ts';
import { startTunnelServer, type TunnelServer } from '../src/testing/tunnel-server.ts';
import { axeViolations, screenshot } from './support/reading.ts';
import { spawnTidingsOn } from './support/servers.ts';
import { toolbarAction } from './support/toolbar.ts';

const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '480x800', width: 480, height: 800 },
] as const;

let tunnel: TunnelServer;
let data: string;
let stopApp: (() => Promise<void>) | null = null;

test.beforeEach(async () => {
  tunnel = await startTunnelServer();
  data = mkdtempSync(join(tmpdir(), 'tidings-e2e-first-run-'));
  mkdirSync(data, { recursive: true });
  // The tunnel server in Settings is the loopback one (the default would be localtunnel.me).
  const store = openStore(join(data, 'tidings.db'));
  store.setSetting('tunnelHost', tunnel.url);
  store.close();
});

test.afterEach(async () => {
  await stopApp?.();
  stopApp = null;
  await tunnel.stop();
  rmSync(data, { recursive: true, force: true });
});

/** `tidings serve` on the test's data folder, with no tunnel option: as `npm start` runs it. */
async function serve(): Promise<string> {
  const run = await spawnTidingsOn(data, 'serve', ['--port', '0'], /Open (http:\/\/\S+)/);
  stopApp = run.stop;
  await expect
    .poll(() => run.output())
    .toContain('The window asks once whether Tidings may open a public tunnel');
  return run.ready;
}

/** What Settings > Real time says is in use. */
async function realtimeLine(page: Page) {
  await toolbarAction(page, 'settings-toggle');
  return page.getByTestId('settings-realtime');
}

test('the window asks first; "Open the tunnel" opens it at once and is remembered', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(await serve());
  const question = page.getByTestId('tunnel-question');
  await expect(question).toBeVisible();
  await expect(question.getByRole('heading')).toHaveText('Read feeds in real time through a public tunnel?');
  await expect(question).toContainText(
    `A tunnel through 127.0.0.1:${tunnel.port} makes only Tidings’ small receiver and the feed you host reachable from the internet`,
  );
  await expect(question).toContainText(
    'the app itself, its window and your data are never reachable through it',
  );
  await expect(question.getByTestId('tunnel-open')).toBeFocused();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await screenshot(page, `first-run-tunnel-question-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `question ${size.name} ${scheme}`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await question.getByTestId('tunnel-open').click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('notice').filter({ hasText: 'Opening a tunnel through' })).toBeVisible();
  const line = await realtimeLine(page);
  await expect(line).toHaveText(
    new RegExp(`^In use: a tunnel through 127\\.0\\.0\\.1:${tunnel.port}\\. Clouds call`),
    {
      timeout: 20_000,
    },
  );
  await screenshot(page, 'first-run-tunnel-open-settings');
  // Remembered: a reload (and a restart) asks no more, and the tunnel is in use.
  await page.reload();
  await expect(await realtimeLine(page)).toHaveAttribute('data-mode', 'tunnel');
  await expect(page.getByTestId('tunnel-question')).toHaveCount(0);
});

test('"Keep it closed" opens nothing and is remembered; Escape answers nothing and asks again', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const url = await serve();
  await page.goto(url);
  const question = page.getByTestId('tunnel-question');
  await expect(question).toBeVisible();
  // Escape: no answer. The tunnel stays closed and Settings says why; the next load asks again.
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  const line = await realtimeLine(page);
  await expect(line).toHaveAttribute('data-off', 'unanswered');
  await expect(line).toContainText('you have not said yet that it may');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await line.scrollIntoViewIfNeeded();
      await screenshot(page, `first-run-tunnel-unanswered-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `unanswered ${size.name} ${scheme}`).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(question).toBeVisible();
  await question.getByTestId('tunnel-keep-closed').click();
  await expect(question).toHaveCount(0);
  await expect(
    page.getByTestId('notice').filter({ hasText: 'No tunnel: feeds are checked on a schedule' }),
  ).toBeVisible();
  await expect(await realtimeLine(page)).toHaveAttribute('data-off', 'setting');
  // Remembered, across a restart of the app too.
  await stopApp?.();
  await page.goto(await serveAgain());
  await expect(await realtimeLine(page)).toHaveAttribute('data-off', 'setting');
  await expect(page.getByTestId('tunnel-question')).toHaveCount(0);
});

/** The app again on the same data folder (the console no longer speaks of a question). */
async function serveAgain(): Promise<string> {
  const run = await spawnTidingsOn(data, 'serve', ['--port', '0'], /Open (http:\/\/\S+)/);
  stopApp = run.stop;
  await expect.poll(() => run.output()).toContain('Real-time reading: off (no tunnel, no public URL)');
  return run.ready;
}
