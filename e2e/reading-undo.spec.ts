/**
 * Issue 17, point 9 (mark read): Shift+A marks everything in view read and offers an Undo toast;
 * `z` (or the toast's button) brings back exactly the items that were unread, the ones not yet
 * loaded included.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, SIZES, screenshot, serveLibrary, showAll } from './support/reading.ts';

test('mark all read can be undone with z or the toast', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  const feeds = serveLibrary(host);
  await page.goto(tidings.openUrl);
  for (const feed of feeds) await addFeed(page, `${host.url}${feed.path}`, feed.title);
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
  await expect(page.locator('[data-testid="river-item"].unread')).toHaveCount(8);

  // Again, undone from the toast's button.
  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+A');
  await expect(toast).toBeVisible();
  await expect(page.locator('[data-testid="river-item"].unread')).toHaveCount(0);
  await toast.getByTestId('undo-button').click();
  await expect(page.locator('[data-testid="river-item"].unread')).toHaveCount(8);
});
