/**
 * Issue 9, adding a feed: the new feed is selected; adding it again says "already subscribed" and
 * selects it; a slow add shows progress and can be cancelled; broken XML says the feed is broken
 * with the parser's reason (not "no feed found"); no message repeats the address.
 */
import { expect, test } from './support/fixtures.ts';
import { screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

test('adding: selected when new, selected again when already followed, broken named, slow cancellable', async ({
  page,
  host,
  tidings,
}) => {
  host.set(
    '/one.xml',
    rssFeed('Only One', [{ title: 'hello', guid: 'o1', date: new Date('2026-11-20T09:00:00Z') }]),
  );
  host.set(
    '/broken.xml',
    // `</titl>` alone is repaired now (issue 19); a misspelt close of an element with children is not.
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Half</title><item><title>x</title></itme>',
  );
  host.set('/slow', {
    body: '<html><head><title>Slow</title></head></html>',
    type: 'text/html',
    delayMs: 30_000,
  });
  await page.goto(tidings.openUrl);
  const input = page.getByTestId('add-feed-input');
  const row = page.getByTestId('feed-row').filter({ hasText: 'Only One' });

  // New: selected, and the river shows it.
  await input.fill(`${host.url}/one.xml`);
  await page.getByTestId('add-feed-submit').click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Only One');

  // Again (from All): not an error; it says so and selects the feed.
  await page.getByTestId('feed-all').click();
  await expect(row).toHaveAttribute('aria-selected', 'false');
  await input.fill(`${host.url}/one.xml`);
  await page.getByTestId('add-feed-submit').click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.toast')).toContainText(/already/i);
  await expect(page.getByTestId('add-feed-error')).toHaveCount(0);
  await expect(page.getByTestId('feed-row')).toHaveCount(1);

  // Broken XML: the parser's reason, the address at most once.
  const brokenUrl = `${host.url}/broken.xml`;
  await input.fill(brokenUrl);
  await page.getByTestId('add-feed-submit').click();
  const error = page.getByTestId('add-feed-error');
  await expect(error).toBeVisible();
  const text = (await error.textContent()) ?? '';
  expect(text).toMatch(/broken|malformed|not well-formed|invalid/i);
  expect(text).not.toMatch(/no feed (was )?found/i);
  expect(text.split(brokenUrl).length - 1).toBeLessThanOrEqual(1);
  await screenshot(page, 'add-feed-broken-1280x800');

  // Slow: progress while it looks, Cancel stops it, the address stays to edit.
  await input.fill(`${host.url}/slow`);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('add-feed-progress')).toBeVisible();
  await screenshot(page, 'add-feed-progress-1280x800');
  await page.getByTestId('add-feed-cancel').click();
  await expect(page.getByTestId('add-feed-progress')).toHaveCount(0, { timeout: 5000 });
  await expect(page.getByTestId('add-feed-note')).toBeVisible();
  await expect(input).toHaveValue(`${host.url}/slow`);
  await expect(page.getByTestId('add-feed-submit')).toBeEnabled();
});
