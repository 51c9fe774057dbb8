/**
 * Issue 35, what users of other readers take for granted in the feed list: an OPML import shows
 * what it brought in (the folder holding it, or the one feed); a feed with no icon of its own
 * shows the generic feed icon; a failing feed's Retry that fails leaves its next try where it
 * was, and Edit address moves the feed (same row, "moved to", fetched once); a feed brought back
 * by Undo keeps its activity log. At 1280x800 and 480x800, light and dark, axe-clean.
 * Screenshots: test-results/screenshots/feeds-habits-*.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, importOpml, screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';
import { toolbarAction } from './support/toolbar.ts';

const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '480x800', width: 480, height: 800 },
] as const;

const item = (title: string, hoursAgo = 1) => ({
  title,
  guid: title,
  date: new Date(Date.now() - hoursAgo * 3_600_000),
});

/** The sidebar, opened when it is a drawer. */
async function showSidebar(page: Page, width: number): Promise<void> {
  const toggle = page.getByTestId('sidebar-toggle');
  if (width < 720 && (await toggle.getAttribute('aria-expanded')) !== 'true') {
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
}

/** The drawer closed again (a narrow window), by a click beside it. */
async function hideSidebar(page: Page, width: number): Promise<void> {
  if (width < 720 && (await page.getByTestId('sidebar-toggle').getAttribute('aria-expanded')) === 'true') {
    await page.locator('.sidebar-backdrop').click({ position: { x: width - 20, y: 400 } });
    await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'false');
  }
}

for (const size of SIZES) {
  test(`an OPML import shows what came in; feeds with no icon show the feed icon, at ${size.name}`, async ({
    page,
    host,
    tidings,
  }) => {
    host.set('/alpha.xml', rssFeed('Alpha Notes', [item('alpha one')]));
    host.set('/beta.xml', rssFeed('Beta Notes', [item('beta one')]));
    host.set('/gamma.xml', rssFeed('Gamma Notes', [item('gamma one')]));
    host.set('/solo.xml', rssFeed('Solo Notes', [item('solo one')]));
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(tidings.openUrl);
    const heading = page.getByRole('heading', { level: 1 });
    // Nested folders under one: the import shows that one folder's river, every feed in it.
    await importOpml(
      page,
      `<?xml version="1.0"?><opml version="2.0"><body><outline text="Imported">
        <outline text="Tech"><outline type="rss" text="Alpha" xmlUrl="${host.url}/alpha.xml"/>
          <outline type="rss" text="Beta" xmlUrl="${host.url}/beta.xml"/></outline>
        <outline text="News"><outline type="rss" text="Gamma" xmlUrl="${host.url}/gamma.xml"/></outline>
      </outline></body></opml>`,
    );
    await expect(heading).toHaveText('Imported');
    await expect(page.getByTestId('river-item')).toHaveCount(3);
    // One feed: its own river.
    await importOpml(
      page,
      `<?xml version="1.0"?><opml version="2.0"><body><outline type="rss" text="Solo" xmlUrl="${host.url}/solo.xml"/></body></opml>`,
    );
    // The list's own name for it is kept (as an import always has).
    await expect(heading).toHaveText('Solo');
    await expect(page.getByTestId('river-item')).toHaveText([/solo one/]);

    // No favicon anywhere on loopback: every row shows the generic feed icon, no dot.
    await showSidebar(page, size.width);
    const rows = page.getByTestId('feed-row');
    await expect(rows).toHaveCount(4);
    await expect(page.getByTestId('feed-icon')).toHaveCount(4);
    await expect(page.locator('#sidebar .dot')).toHaveCount(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const icon = await rows.first().getByTestId('feed-icon').boundingBox();
      expect(icon).toMatchObject({ width: 16, height: 16 });
      await screenshot(page, `feeds-habits-icons-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `feed icons ${size.name} ${scheme}`).toEqual([]);
    }
  });

  test(`a failing feed: Retry keeps the next try, Edit address moves it, at ${size.name}`, async ({
    page,
    host,
    tidings,
  }) => {
    host.set('/desk.xml', rssFeed('Desk Notes', [item('desk one')]));
    await page.goto(tidings.openUrl);
    await addFeed(page, `${host.url}/desk.xml`, 'Desk Notes');
    await page.setViewportSize({ width: size.width, height: size.height });
    // A narrow window starts with the drawer closed (app/use-sidebar.ts).
    if (size.width < 720)
      await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'false');
    // It breaks: a refresh gets a 503, and the feed backs off.
    host.set('/desk.xml', { status: 503, body: 'Down for maintenance' });
    await showSidebar(page, size.width);
    const row = page.getByTestId('feed-row').filter({ hasText: 'Desk Notes' });
    await row.getByTestId('feed-menu-button').click();
    await page.getByTestId('feed-refresh').click();
    await expect(row).toHaveAttribute('data-status', 'error');
    await hideSidebar(page, size.width);
    const next = page.getByTestId('feed-trouble-next').locator('time');
    await expect(next).toBeVisible();
    const planned = await next.getAttribute('datetime');
    // Retry fails again: the next try stays where it was (the back-off does not double).
    const hits = host.hits('/desk.xml');
    await page.getByTestId('feed-retry').click();
    await expect.poll(() => host.hits('/desk.xml')).toBe(hits + 1);
    await expect(page.getByTestId('feed-retry')).toHaveText('Retry now');
    await expect(next).toHaveAttribute('datetime', planned!);

    // Edit address: moved, the same row, fetched once, and said so.
    host.set('/desk-new.xml', rssFeed('Desk Notes', [item('desk one'), item('desk two', 0.5)]));
    await page.getByTestId('feed-edit-address').click();
    await page.getByTestId('feed-address-input').fill(`${host.url}/desk-new.xml`);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `feeds-habits-edit-address-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `edit address ${size.name} ${scheme}`).toEqual([]);
    }
    await page.getByTestId('feed-address-save').click();
    await expect(page.getByTestId('feed-trouble')).toHaveCount(0);
    const notice = page
      .getByTestId('notice')
      .filter({ hasText: `Desk Notes moved to ${host.url}/desk-new.xml.` });
    await expect(notice).toBeVisible();
    expect(host.hits('/desk-new.xml')).toBe(1);
    await expect(page.getByTestId('river-item')).toHaveCount(2);
    await showSidebar(page, size.width);
    await expect(page.getByTestId('feed-row')).toHaveCount(1);
    await expect(row).toHaveAttribute('data-status', 'ok');
    await expect(row).toHaveAttribute('title', new RegExp(`^${host.url}/desk-new.xml`));
    await hideSidebar(page, size.width);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `feeds-habits-moved-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `moved ${size.name} ${scheme}`).toEqual([]);
    }
  });
}

test('a feed brought back by Undo keeps its activity log', async ({ page, host, tidings }) => {
  host.set('/kept.xml', rssFeed('Kept Notes', [item('kept one')]));
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/kept.xml`, 'Kept Notes');
  const row = page.getByTestId('feed-row').filter({ hasText: 'Kept Notes' });
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  // Subscribing reads the feed once (its discovery's read is the first fetch), the refresh again.
  await expect.poll(() => host.hits('/kept.xml')).toBeGreaterThanOrEqual(2);

  const fetchesOf = async () => {
    await toolbarAction(page, 'activity-toggle');
    const log = page.getByTestId('activity-log');
    await log.getByTestId('activity-feed').selectOption({ label: 'Kept Notes' });
    // Read once the log has its answers (on a busy machine they came after the rows were read).
    await expect(log).toHaveAttribute('aria-busy', 'false');
    const rows = await log.getByTestId('fetch-row').allTextContents();
    await toolbarAction(page, 'activity-toggle');
    return rows;
  };
  const before = await fetchesOf();
  expect(before.length).toBeGreaterThanOrEqual(2);

  page.once('dialog', (d) => void d.accept());
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-unsubscribe').click();
  await expect(row).toHaveCount(0);
  await page.getByTestId('undo-button').click();
  await expect(row).toBeVisible();
  expect(await fetchesOf()).toEqual(before);
});
