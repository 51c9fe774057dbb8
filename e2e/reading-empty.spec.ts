/**
 * Issue 17, point 5: the empty state has its own ways in at every size (on a narrow window the
 * sidebar is a closed drawer, so it must not point "on the left"): Add a feed (opens the drawer on
 * the address field), Import OPML, and the suggested feeds from resources/. Picking My posts in the
 * drawer closes it.
 */
import { expect, test } from './support/fixtures.ts';
import { axeViolations, SIZES, screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

for (const size of SIZES) {
  test(`the empty state has its own Add a feed, Import OPML and suggestions at ${size.name}`, async ({
    page,
    host,
    tidings,
  }) => {
    test.setTimeout(90_000);
    host.set('/first.xml', rssFeed('First Desk', [{ title: 'first item', guid: 'f1', date: new Date() }]));
    host.set('/second.xml', rssFeed('Second Desk', [{ title: 'second item', guid: 's1', date: new Date() }]));
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(tidings.openUrl);
    const empty = page.getByTestId('empty-state');
    await expect(empty).toBeVisible();
    await expect(empty).not.toContainText('on the left');
    await expect(page.getByTestId('welcome-suggested')).toContainText('Scripting News');
    await expect(page.getByTestId('welcome-suggested-add')).toHaveText(/Add these \d+ feeds/);
    await screenshot(page, `empty-${size.name}`);
    expect.soft(await axeViolations(page), `empty ${size.name}`).toEqual([]);

    // Add a feed: the address field, in sight and focused (the drawer opens on a narrow window).
    await page.getByTestId('welcome-add-feed').click();
    const input = page.getByTestId('add-feed-input');
    await expect(input).toBeFocused();
    await expect(input).toBeInViewport();
    await input.fill(`${host.url}/first.xml`);
    await input.press('Enter');
    await expect(page.getByTestId('river-item').filter({ hasText: 'first item' })).toBeVisible();
    if (size.width <= 720) await expect(page.getByRole('tree', { name: 'Feeds' })).toBeHidden();

    // My posts from the drawer closes it.
    if (size.width <= 720) {
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('my-posts-link').click();
      await expect(page.getByTestId('my-posts')).toBeVisible();
      await expect(page.getByRole('tree', { name: 'Feeds' })).toBeHidden();
      await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'false');
    }
  });
}

test('Import OPML from the empty state', async ({ page, host, tidings }) => {
  host.set('/first.xml', rssFeed('First Desk', [{ title: 'first item', guid: 'f1', date: new Date() }]));
  host.set('/second.xml', rssFeed('Second Desk', [{ title: 'second item', guid: 's1', date: new Date() }]));
  await page.setViewportSize({ width: 480, height: 800 });
  await page.goto(tidings.openUrl);
  await page.getByTestId('welcome-import-input').setInputFiles({
    name: 'mine.opml',
    mimeType: 'text/x-opml',
    buffer: Buffer.from(`<?xml version="1.0"?><opml version="2.0"><body>
      <outline type="rss" text="First Desk" xmlUrl="${host.url}/first.xml"/>
      <outline type="rss" text="Second Desk" xmlUrl="${host.url}/second.xml"/></body></opml>`),
  });
  await expect(page.getByTestId('river-item')).toHaveCount(2, { timeout: 20_000 });
});
