/**
 * Issue 17, point 9: every bulk change offers an Undo toast, and `z` (or the toast's button)
 * brings back exactly what it took. Mark read: the items that were unread, the ones not yet
 * loaded included. Unsubscribe: the feed with its items, read and starred marks, and folder.
 * Delete a folder: the folder with its subfolders and its feeds in place. A mute filter: the
 * filter goes and the items it muted show again.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, openLibrary, SIZES, screenshot, showAll } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

/** The toast says what happened, at every size, reachable and clean for axe. */
async function toastAtEverySize(page: Page, text: string, name: string): Promise<void> {
  const toast = page.getByTestId('undo-toast');
  await expect(toast).toContainText(text);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(toast.getByTestId('undo-button')).toBeInViewport();
    await screenshot(page, `${name}-${size.name}`);
    expect.soft(await axeViolations(page), `${name} ${size.name}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const feedRow = (page: Page, title: string) => page.getByTestId('feed-row').filter({ hasText: title });
const folderRow = (page: Page, title: string) => page.getByTestId('folder-row').filter({ hasText: title });

async function newFolder(page: Page, title: string, inside?: string): Promise<void> {
  if (inside) {
    await folderRow(page, inside).first().getByTestId('folder-menu-button').click();
    await page.getByTestId('folder-new-subfolder').click();
  } else await page.getByTestId('new-folder').click();
  await page.getByTestId('folder-name').fill(title);
  await page.getByTestId('folder-save').click();
  await expect(folderRow(page, title)).toBeVisible();
}

async function moveFeed(page: Page, feed: string, folderLabel: string): Promise<void> {
  await feedRow(page, feed).getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-move').click();
  await page.getByTestId('feed-settings-folder').selectOption({ label: folderLabel });
  await page.getByTestId('feed-settings-save').click();
}

test('mark all read can be undone with z or the toast', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  await openLibrary(page, host, tidings.openUrl);
  await showAll(page);
  // One already read: undo must leave it read.
  await page.getByTestId('river-item').first().getByRole('button', { name: 'Mark as read' }).click();
  const all = page.getByTestId('feed-all');
  await expect(all).toContainText('8');

  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+A');
  const toast = page.getByTestId('undo-toast');
  await expect(toast).toContainText('Marked 8 items read');
  await expect(all).not.toContainText('8');
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(toast.getByTestId('undo-button')).toBeInViewport();
    await screenshot(page, `undo-${size.name}`);
    expect.soft(await axeViolations(page), `undo ${size.name}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('river').focus();
  await page.keyboard.press('z');
  await expect(toast).toHaveCount(0);
  await expect(all).toContainText('8');
  // Every item unread again but the one read before (counted by state: the river is windowed,
  // not every card is in the page).
  await expect(page.locator('[data-testid="river-item"][data-read="true"]')).toHaveCount(1);

  // Again, undone from the toast's button.
  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+A');
  await expect(toast).toBeVisible();
  await expect(page.locator('[data-testid="river-item"].unread')).toHaveCount(0);
  await toast.getByTestId('undo-button').click();
  await expect(all).toContainText('8');
  await expect(page.locator('[data-testid="river-item"][data-read="true"]')).toHaveCount(1);
});

test('an unsubscribe comes back with its items, their read and starred marks, and its folder', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  await openLibrary(page, host, tidings.openUrl);
  await newFolder(page, 'Reading');
  await moveFeed(page, 'Tech Weekly', 'Reading');
  await expect(feedRow(page, 'Tech Weekly')).toHaveAttribute('aria-level', '2');
  await feedRow(page, 'Tech Weekly').click();
  const items = page.getByTestId('river-item');
  await expect(items).toHaveCount(3);
  await items.nth(0).getByRole('button', { name: 'Mark as read' }).click();
  await items.nth(1).getByRole('button', { name: 'Star' }).click();
  await expect(items.nth(1).getByRole('button', { name: 'Star' })).toHaveAttribute('aria-pressed', 'true');
  await expect(feedRow(page, 'Tech Weekly').locator('.count')).toHaveText('2 unread');

  page.once('dialog', (d) => void d.accept());
  await feedRow(page, 'Tech Weekly').getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-unsubscribe').click();
  await expect(feedRow(page, 'Tech Weekly')).toHaveCount(0);
  await toastAtEverySize(page, 'Unsubscribed from Tech Weekly', 'undo-unsubscribe');

  await page.getByTestId('feed-list').focus();
  await page.keyboard.press('z');
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);
  await expect(feedRow(page, 'Tech Weekly')).toHaveAttribute('aria-level', '2');
  await expect(feedRow(page, 'Tech Weekly').locator('.count')).toHaveText('2 unread');
  await feedRow(page, 'Tech Weekly').click();
  await expect(items).toHaveCount(3);
  await expect(page.locator('[data-testid="river-item"].unread')).toHaveCount(2);
  await expect(
    page.locator('[data-testid="river-item"] [aria-label="Star"][aria-pressed="true"]'),
  ).toHaveCount(1);
});

test('a deleted folder comes back with its subfolder and its feeds in place', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  await openLibrary(page, host, tidings.openUrl);
  await newFolder(page, 'Reading');
  await newFolder(page, 'Tech', 'Reading');
  await moveFeed(page, 'Tech Weekly', '\u00a0\u00a0Tech');
  await moveFeed(page, 'A Personal Blog', 'Reading');
  await expect(feedRow(page, 'Tech Weekly')).toHaveAttribute('aria-level', '3');

  page.once('dialog', (d) => void d.accept());
  await folderRow(page, 'Reading').first().getByTestId('folder-menu-button').click();
  await page.getByTestId('folder-delete').click();
  await expect(folderRow(page, 'Reading')).toHaveCount(0);
  await expect(feedRow(page, 'A Personal Blog')).toHaveAttribute('aria-level', '1');
  await toastAtEverySize(page, 'Deleted the folder “Reading”', 'undo-folder');

  await page.getByTestId('undo-toast').getByTestId('undo-button').click();
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);
  await expect(folderRow(page, 'Reading')).toHaveAttribute('aria-level', '1');
  await expect(folderRow(page, 'Tech')).toHaveAttribute('aria-level', '2');
  await expect(feedRow(page, 'A Personal Blog')).toHaveAttribute('aria-level', '2');
  await expect(feedRow(page, 'Tech Weekly')).toHaveAttribute('aria-level', '3');
});

test('a mute filter is taken back: z right after adding it; the next action ends the chance', async ({
  page,
  host,
  tidings,
}) => {
  // Issue 35: the Undo goes with the next action, so a filter is taken back straight after it is
  // added (work inside the dialog does not count). That it also shows again the items it muted
  // meanwhile is the core's (src/app/undo.test.ts).
  test.setTimeout(120_000);
  const at = (h: number) => new Date(Date.UTC(2026, 10, 20, h));
  const serve = (titles: string[]) =>
    host.set(
      '/mute.xml',
      rssFeed(
        'Mixed Bag',
        titles.map((title, i) => ({ title, guid: title, description: `${title}.`, date: at(1 + i) })),
      ),
    );
  serve(['Gardening in November']);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/mute.xml`, 'Mixed Bag');
  const row = feedRow(page, 'Mixed Bag');
  const addFilter = async () => {
    await row.getByTestId('feed-menu-button').click();
    await page.getByTestId('feed-settings').click();
    const dialog = page.getByTestId('feed-settings-dialog');
    await dialog.getByTestId('mute-pattern').fill('crypto');
    await dialog.getByTestId('mute-add').click();
    await expect(dialog.getByTestId('mute-filter')).toContainText('crypto');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  };
  await addFilter();
  await toastAtEverySize(page, 'Muted “crypto”', 'undo-mute');
  await page.getByTestId('river').focus();
  await page.keyboard.press('z');
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-settings').click();
  await expect(page.getByTestId('feed-settings-dialog').getByTestId('mute-filter')).toHaveCount(0);
  await page.getByTestId('feed-settings-dialog').getByRole('button', { name: 'Cancel' }).click();

  // Added again, then another action (a refresh): the Undo is gone, the filter stays and mutes.
  await addFilter();
  await expect(page.getByTestId('undo-toast')).toContainText('Muted “crypto”');
  serve(['Gardening in November', 'Crypto winter is here', 'Autumn leaves']);
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);
  const river = page.getByTestId('river');
  await expect(river).toContainText('Autumn leaves');
  await expect(river).not.toContainText('Crypto winter');
  await expect(row.locator('.count')).toHaveText('2 unread');
});

test('marking a folder or a feed read from the sidebar can be undone', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  await openLibrary(page, host, tidings.openUrl);
  await newFolder(page, 'Reading');
  await moveFeed(page, 'Tech Weekly', 'Reading');
  await moveFeed(page, 'A Personal Blog', 'Reading');
  await expect(feedRow(page, 'A Personal Blog')).toHaveAttribute('aria-level', '2');
  const all = page.getByTestId('feed-all');
  await expect(all).toContainText('9');

  await folderRow(page, 'Reading').getByTestId('folder-menu-button').click();
  await page.getByTestId('folder-mark-read').click();
  await expect(all).toContainText('3');
  await toastAtEverySize(page, 'Marked 6 items read', 'undo-folder-read');
  await page.getByTestId('feed-list').focus();
  await page.keyboard.press('z');
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);
  await expect(all).toContainText('9');

  await feedRow(page, 'Loopback News').getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-mark-read').click();
  await expect(page.getByTestId('undo-toast')).toContainText('Marked 3 items read');
  await expect(all).toContainText('6');
  await page.getByTestId('undo-toast').getByTestId('undo-button').click();
  await expect(all).toContainText('9');
  await expect(feedRow(page, 'Loopback News').locator('.count')).toHaveText('3 unread');
});
