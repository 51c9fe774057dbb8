/**
 * The confirmations the desktop shell asks for (a feed: link, an opened .opml file, the suggested
 * feeds on first run), in Chromium against a real `tidings serve`. Electron's preload is the one
 * part stood in for: an init script gives the page a `window.tidings` bridge that carries commands
 * to the real core over browser mode's HTTP API and lets the test send main's shell.* events.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { rssFeed } from './support/servers.ts';
import { emit, openWithBridge } from './support/shell-bridge.ts';

const feedCount = (page: Page) =>
  page.evaluate(async () => {
    const bridge = (
      globalThis as unknown as { tidings: { invoke(m: string, a: unknown[]): Promise<unknown[]> } }
    ).tidings;
    return (await bridge.invoke('listFeeds', [])).length;
  });

test('a feed: link is only a question until the person says yes', async ({ page, host, tidings }) => {
  host.set('/linked.xml', rssFeed('Linked News', [{ title: 'One', guid: 'o1', date: new Date() }]));
  await openWithBridge(page, tidings.openUrl);
  const url = `${host.url}/linked.xml`;

  await emit(page, 'shell.subscribeRequest', { url });
  const dialog = page.getByTestId('shell-subscribe-dialog');
  await expect(dialog).toContainText('Subscribe to this feed?');
  await expect(dialog).toContainText(url);
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/shell-subscribe.png' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await feedCount(page)).toBe(0);
  expect(host.hits('/linked.xml')).toBe(0);

  await emit(page, 'shell.subscribeRequest', { url });
  await page.getByTestId('shell-dialog-confirm').click();
  await expect(dialog).toHaveCount(0);
  expect(await feedCount(page)).toBe(1);
  await expect(page.getByTestId('feed-list')).toContainText('127.0.0.1');
});

test('a refused address says why in the dialog, which stays open', async ({ page, host, tidings }) => {
  await openWithBridge(page, tidings.openUrl);
  await emit(page, 'shell.subscribeRequest', { url: `${host.url}/nothing-here.xml` });
  const dialog = page.getByTestId('shell-subscribe-dialog');
  await dialog.getByTestId('shell-dialog-confirm').click();
  await expect(dialog.getByRole('alert')).not.toBeEmpty();
  expect(await feedCount(page)).toBe(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('an opened OPML file shows what it holds, and imports on confirmation', async ({
  page,
  host,
  tidings,
}) => {
  host.set('/a.xml', rssFeed('Feed A', [{ title: 'A1', guid: 'a1', date: new Date() }]));
  host.set('/b.xml', rssFeed('Feed B', [{ title: 'B1', guid: 'b1', date: new Date() }]));
  await openWithBridge(page, tidings.openUrl);
  const text = `<?xml version="1.0"?><opml version="2.0"><body>
    <outline text="Feed A" type="rss" xmlUrl="${host.url}/a.xml"/>
    <outline text="Feed B" type="rss" xmlUrl="${host.url}/b.xml"/></body></opml>`;
  await emit(page, 'shell.importRequest', { fileName: 'blogroll.opml', text, suggested: false });
  const dialog = page.getByTestId('shell-import-dialog');
  await expect(dialog).toContainText('Import 2 feeds from blogroll.opml?');
  await expect(dialog.getByRole('listitem')).toHaveText(['Feed A', 'Feed B']);
  await page.screenshot({ path: 'test-results/screenshots/shell-import.png' });
  expect(await feedCount(page)).toBe(0);
  await dialog.getByTestId('shell-dialog-confirm').click();
  await expect(dialog).toHaveCount(0);
  expect(await feedCount(page)).toBe(2);
});

test('the suggested feeds on first run can be declined', async ({ page, tidings }) => {
  await openWithBridge(page, tidings.openUrl);
  const text = `<opml version="2.0"><body><outline text="X" xmlUrl="https://example.com/x.xml"/></body></opml>`;
  await emit(page, 'shell.importRequest', { fileName: 'Suggested feeds', text, suggested: true });
  const dialog = page.getByTestId('shell-import-dialog');
  await expect(dialog).toContainText('Start with some suggested feeds?');
  await dialog.getByRole('button', { name: 'No, thanks' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await feedCount(page)).toBe(0);
});
