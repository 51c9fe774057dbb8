/**
 * The desktop app itself: tray hide/show, single instance, a feed: link, a notification, quit while
 * fetching. Runs where the Electron binary exists (ELECTRON_EXEC_PATH, or the one the electron
 * package downloaded: node_modules/electron/path.txt + dist/); elsewhere every test skips and the
 * reason is printed in the run's output. A tray icon and an OS notification cannot be clicked
 * from a test: main exposes their handlers when TIDINGS_E2E=1 (main/index.ts), and the test
 * calls those, which is what a click does.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type ElectronApplication, _electron as electron, expect, type Page, test } from '@playwright/test';
import { openStore } from '../src/store/store.ts';
import { type FeedHost, rssFeed, startFeedHost } from './support/servers.ts';

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
const SKIP_REASON =
  'No Electron binary on this machine (set ELECTRON_EXEC_PATH, or let `npm start` download it): ' +
  'the desktop-shell flows (tray, single instance, feed: link, notification, quit while fetching) were not run.';
if (!binary) console.log(`e2e/electron.spec.ts skipped: ${SKIP_REASON}`);

interface Shell {
  tray(): { tooltip: string; menu: { label?: string }[] };
  trayAction(action: string): void;
  notifications(): {
    title: string;
    body: string;
    target: { feedId: number | null; itemId: number | null };
  }[];
  clickNotification(i: number): void;
  optInFeeds(ids: number[]): void;
}

let host: FeedHost;
let userData: string;
const apps: ElectronApplication[] = [];

test.beforeEach(async () => {
  test.skip(!binary, SKIP_REASON);
  host = await startFeedHost();
  userData = mkdtempSync(join(tmpdir(), 'tidings-electron-'));
  // Close-to-tray on every platform for these tests (macOS defaults to its dock convention).
  writeFileSync(
    join(userData, 'shell-preferences.json'),
    JSON.stringify({ closeToTray: true, suggestedOffered: true }),
  );
  // The first run's tunnel question, answered "keep it closed": these tests stay on loopback and
  // meet no modal question (the test below asks it on a fresh data folder).
  answerTunnelQuestion(false);
});

/** What the window's first-run question would remember, written before launch. */
function answerTunnelQuestion(open: boolean): void {
  mkdirSync(join(userData, 'data'), { recursive: true });
  const store = openStore(join(userData, 'data', 'tidings.db'));
  store.setSetting('tunnelEnabled', open);
  store.close();
}

test.afterEach(async () => {
  for (const app of apps.splice(0)) await app.close().catch(() => {});
  await host?.close();
  if (userData) rmSync(userData, { recursive: true, force: true });
});

async function launch(extraArgs: string[] = []): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await electron.launch({
    executablePath: binary!,
    args: [ROOT, `--user-data-dir=${userData}`, '--no-sandbox', ...extraArgs],
    env: { ...process.env, TIDINGS_E2E: '1' } as Record<string, string>,
  });
  apps.push(app);
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return { app, page };
}

/** Calls one of main's test handles (see Shell) in the main process. */
const shell = <K extends keyof Shell>(
  app: ElectronApplication,
  method: K,
  ...args: Parameters<Shell[K]>
): Promise<ReturnType<Shell[K]>> =>
  app.evaluate(
    (_electron, [m, a]) => {
      const handles = (
        globalThis as unknown as { __tidingsShell: Record<string, (...x: unknown[]) => unknown> }
      ).__tidingsShell;
      return handles[m as string]!(...(a as unknown[]));
    },
    [method, args] as const,
  ) as Promise<ReturnType<Shell[K]>>;
const trayLabels = async (app: ElectronApplication) => (await shell(app, 'tray')).menu.map((m) => m.label);
const notificationTitles = async (app: ElectronApplication) =>
  (await shell(app, 'notifications')).map((n) => n.title);

const windowVisible = (app: ElectronApplication) =>
  app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible() ?? false);

async function subscribe(page: Page, url: string, title: string): Promise<void> {
  await page.getByTestId('add-feed-input').fill(url);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('feed-list')).toContainText(title);
}

test('the window is locked down: no Node, only the preload bridge, served from app://', async () => {
  const { page } = await launch();
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  expect(await page.evaluate(() => typeof (globalThis as { tidings?: unknown }).tidings)).toBe('object');
  expect(page.url()).toMatch(/^app:\/\/tidings\//);
});

test('the first run asks in the window before opening a public tunnel, and remembers the answer', async () => {
  rmSync(join(userData, 'data'), { recursive: true, force: true });
  const { app, page } = await launch();
  const question = page.getByTestId('tunnel-question');
  await expect(question).toBeVisible();
  await expect(question).toContainText('never reachable through it');
  await question.getByTestId('tunnel-keep-closed').click();
  await expect(question).toHaveCount(0);
  await app.close();
  apps.splice(apps.indexOf(app), 1);
  const again = await launch();
  // Remembered: Settings says it is off by the person's choice, and no question comes.
  await again.page.getByTestId('settings-toggle').click();
  await expect(again.page.getByTestId('settings-realtime')).toHaveAttribute('data-off', 'setting');
  await expect(again.page.getByTestId('tunnel-question')).toHaveCount(0);
});

test('closing the window hides it to the tray; the tray brings it back', async () => {
  const { app } = await launch();
  await expect.poll(() => windowVisible(app)).toBe(true);
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());
  await expect.poll(() => windowVisible(app)).toBe(false);
  // Still running, and the tray offers to open it.
  await expect.poll(() => trayLabels(app)).toContain('Open Tidings');
  await shell(app, 'trayAction', 'toggleWindow');
  await expect.poll(() => windowVisible(app)).toBe(true);
  expect(await trayLabels(app)).toContain('Hide Tidings');
});

test('a feed: link at launch asks before subscribing', async () => {
  host.set(
    '/feed.xml',
    rssFeed('Linked News', [{ title: 'Hello from a link', guid: 'l1', date: new Date() }]),
  );
  const feedLink = `feed:${host.url}/feed.xml`;
  const { page } = await launch([feedLink]);
  const dialog = page.getByTestId('shell-subscribe-dialog');
  await expect(dialog).toContainText(`${host.url}/feed.xml`);
  expect(host.hits('/feed.xml')).toBe(0);
  await dialog.getByTestId('shell-dialog-confirm').click();
  await expect(page.getByTestId('feed-list')).toContainText('Linked News');
  await expect(page.getByTestId('river')).toContainText('Hello from a link');
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/electron.png' });
});

test('a second launch focuses the first and hands over its feed: link', async () => {
  host.set('/second.xml', rssFeed('Second Launch', [{ title: 'Handed over', guid: 's1', date: new Date() }]));
  const { app, page } = await launch();
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.hide());
  const second = spawn(
    binary!,
    [
      ROOT,
      `--user-data-dir=${userData}`,
      '--no-sandbox',
      `feed://${host.url.replace('http://', '')}/second.xml`,
    ],
    {
      stdio: 'ignore',
    },
  );
  const code = await new Promise<number | null>((r) => second.on('exit', (c) => r(c)));
  expect(code).toBe(0);
  await expect.poll(() => windowVisible(app)).toBe(true);
  const dialog = page.getByTestId('shell-subscribe-dialog');
  await expect(dialog).toContainText(`${host.url}/second.xml`);
  await dialog.getByTestId('shell-dialog-confirm').click();
  await expect(page.getByTestId('feed-list')).toContainText('Second Launch');
});

test('new items of an opted-in feed make one notification; clicking it opens the item', async () => {
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      title: `Story ${i}`,
      guid: `n${i}`,
      date: new Date(Date.UTC(2026, 0, 1, 0, i)),
    }));
  host.set('/notify.xml', rssFeed('Notify News', items(3)));
  const { app, page } = await launch();
  await subscribe(page, `${host.url}/notify.xml`, 'Notify News');
  await expect(page.getByTestId('river')).toContainText('Story 2');
  // The first fetch said nothing.
  expect(await notificationTitles(app)).toEqual([]);
  const feedId = Number(await page.getByTestId('feed-row').first().getAttribute('data-feed-id'));
  await shell(app, 'optInFeeds', [feedId]);
  // Away from the window, five new stories arrive.
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.hide());
  host.set('/notify.xml', rssFeed('Notify News', items(8)));
  await shell(app, 'trayAction', 'refreshAll');
  await expect.poll(() => notificationTitles(app), { timeout: 20_000 }).toEqual(['5 new from Notify News']);
  await shell(app, 'clickNotification', 0);
  await expect.poll(() => windowVisible(app)).toBe(true);
  await expect(page.getByTestId('river')).toContainText('Story 7');
});

test('quitting while a fetch runs waits for it, then closes the database cleanly', async () => {
  host.set('/slow.xml', {
    body: rssFeed('Slow News', [{ title: 'Worth the wait', guid: 'w1', date: new Date() }]),
  });
  const { app, page } = await launch();
  await subscribe(page, `${host.url}/slow.xml`, 'Slow News');
  host.set('/slow.xml', {
    body: rssFeed('Slow News', [
      { title: 'Worth the wait', guid: 'w1', date: new Date() },
      { title: 'Arrived while quitting', guid: 'w2', date: new Date() },
    ]),
    delayMs: 3_000,
  });
  await shell(app, 'trayAction', 'refreshAll');
  await expect.poll(() => host.hits('/slow.xml')).toBeGreaterThanOrEqual(2);
  const exited = new Promise<number | null>((r) => app.process().on('exit', (code) => r(code)));
  await shell(app, 'trayAction', 'quit');
  expect(await exited).toBe(0);
  apps.splice(apps.indexOf(app), 1);

  const dbFile = join(userData, 'data', 'tidings.db');
  expect(existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0).toBe(0);
  const db = new DatabaseSync(dbFile);
  try {
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const titles = db
      .prepare('SELECT title FROM items ORDER BY title')
      .all()
      .map((r) => (r as { title: string }).title);
    expect(titles).toEqual(['Arrived while quitting', 'Worth the wait']);
  } finally {
    db.close();
  }
});
