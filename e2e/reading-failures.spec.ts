/**
 * Issue 17, points 3 and 8: a failing feed says why in its own river (what happened, when it last
 * worked, the next try) with Retry / Edit address / Unsubscribe; the activity log is the log of
 * every fetch (status, time, bytes, new items) as well as rssCloud calls, filterable by feed, and
 * at 800 px and below it stacks into rows of text that fit the window.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, SIZES, screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

const OVERFLOW = `(() => {
  const panel = document.querySelector('[data-testid="activity-log"]');
  const bad = [];
  for (const cell of panel.querySelectorAll('td')) {
    const box = cell.getBoundingClientRect();
    if (box.width > 0 && box.right > window.innerWidth + 0.5) bad.push(cell.textContent);
  }
  return bad;
})()`;

test('a failing feed shows why with its ways out; the activity log lists every fetch by feed', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(180_000);
  const item = (title: string) => ({ title, guid: title, date: new Date(Date.now() - 3_600_000) });
  host.set('/steady.xml', rssFeed('Steady Desk', [item('steady one')]));
  host.set('/shaky.xml', rssFeed('Shaky Desk', [item('shaky one'), item('shaky two')]));
  host.set('/moved.xml', rssFeed('Moved Desk', [item('moved one')]));
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/steady.xml`, 'Steady Desk');
  await addFeed(page, `${host.url}/shaky.xml`, 'Shaky Desk');

  // It breaks: a refresh gets a 500.
  host.set('/shaky.xml', { status: 500, body: 'Internal trouble' });
  const shaky = page.getByTestId('feed-row').filter({ hasText: 'Shaky Desk' });
  await shaky.click();
  await shaky.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  await expect(shaky).toHaveAttribute('data-status', 'error');
  await shaky.click();
  const trouble = page.getByTestId('feed-trouble');
  await expect(trouble).toBeVisible();
  await expect(trouble.getByRole('heading')).toHaveText('This feed is failing');
  await expect(page.getByTestId('feed-trouble-why')).toContainText('500');
  await expect(page.getByTestId('feed-trouble-last-success')).toHaveText(/min ago|just now/);
  await expect(page.getByTestId('feed-trouble-next')).toHaveText(/^(in \d+ (min|h)|now)$/);
  // Its items are still there under the panel.
  await expect(page.getByTestId('river-item')).toHaveCount(2);
  await expect(page.getByTestId('river-delivery')).toContainText('polled');

  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(page.getByTestId('feed-retry')).toBeInViewport();
    await screenshot(page, `failing-feed-${size.name}`);
    expect.soft(await axeViolations(page), `failing feed ${size.name}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Retry reaches the server again; still failing, the panel stays.
  const hits = host.hits('/shaky.xml');
  await page.getByTestId('feed-retry').click();
  await expect.poll(() => host.hits('/shaky.xml')).toBeGreaterThan(hits);
  await expect(trouble).toBeVisible();

  // The activity log lists every fetch, filterable by feed.
  await page.getByTestId('activity-toggle').click();
  const log = page.getByTestId('activity-log');
  await expect(log.getByTestId('fetch-row').first()).toBeVisible();
  await log.getByTestId('activity-feed').selectOption({ label: 'Shaky Desk' });
  const rows = log.getByTestId('fetch-row');
  await expect(rows).toHaveCount(3); // subscribed, refreshed, retried
  await expect(rows.filter({ hasText: 'Steady Desk' })).toHaveCount(0);
  await expect(rows.first()).toContainText('fetch 500');
  await expect(rows.last()).toContainText('fetch 200');
  await expect(rows.last()).toContainText('2 new items');
  await expect(rows.last()).toContainText(/\d+(\.\d)? (B|kB)/);
  await log.getByTestId('activity-feed').selectOption({ label: 'All feeds' });
  await expect(rows.filter({ hasText: 'Steady Desk' })).toHaveCount(1);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(rows.first()).toBeVisible();
    // Stacked or not, no value is pushed off the side of the window.
    expect(await page.evaluate(OVERFLOW), `cells off screen at ${size.name}`).toEqual([]);
    if (size.width <= 800) {
      // Rows of text: the header row is hidden and an entry is not taller than a few lines.
      await expect(log.locator('thead')).not.toBeInViewport();
      const height = (await rows.first().boundingBox())?.height ?? 0;
      expect(height).toBeLessThan(90);
    }
    await screenshot(page, `activity-fetches-${size.name}`);
    expect.soft(await axeViolations(page), `activity ${size.name}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('activity-toggle').click();

  // Edit address: the feed moves to the new address (issue 35: one move in the core, fetched
  // once), keeping its row, items and selection; the panel goes and a notice says where.
  const movedHits = host.hits('/moved.xml');
  await page.getByTestId('feed-edit-address').click();
  await page.getByTestId('feed-address-input').fill(`${host.url}/moved.xml`);
  await page.getByTestId('feed-address-save').click();
  await expect(trouble).toHaveCount(0);
  await expect(
    page.getByTestId('notice').filter({ hasText: `moved to ${host.url}/moved.xml` }),
  ).toBeVisible();
  await expect(page.getByTestId('notice').filter({ hasText: /unsubscribed/i })).toHaveCount(0);
  await expect(shaky).toHaveAttribute('aria-selected', 'true');
  await expect(shaky).toHaveAttribute('data-status', 'ok');
  await expect(page.getByTestId('feed-row')).toHaveCount(2);
  expect(host.hits('/moved.xml')).toBe(movedHits + 1);
  await expect(page.getByTestId('river-item').filter({ hasText: 'moved one' })).toBeVisible();
  await expect(page.getByTestId('river-item').filter({ hasText: 'shaky one' })).toBeVisible();

  // Unsubscribe from the panel.
  host.set('/moved.xml', { status: 404, body: 'gone missing' });
  const moved = shaky;
  await moved.click();
  await moved.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  await expect(trouble).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('feed-trouble-unsubscribe').click();
  await expect(moved).toHaveCount(0);
});
