/**
 * Issue 17, point 1: newest first means newest first after subscribing. A new subscription's
 * backlog goes where its own dates put it (the last feed added holds the oldest items, the first
 * the newest); what arrives later tops the river (River5); a group's time never contradicts its
 * items'; consecutive updates of one feed read under one heading.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, SIZES, screenshot, showAll } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

test('a backlog goes by its dates, live news on top, group times agree with item times', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  const feeds = [
    { path: '/fresh.xml', title: 'Fresh Desk', hours: [0.2, 6] },
    { path: '/middle.xml', title: 'Middle Desk', hours: [2, 7] },
    { path: '/stale.xml', title: 'Stale Desk', hours: [13, 14] },
  ];
  for (const f of feeds)
    host.set(
      f.path,
      rssFeed(
        f.title,
        f.hours.map((h) => ({ title: `${f.title} ${h} h`, guid: `${f.path}${h}`, date: hoursAgo(h) })),
      ),
    );
  await page.goto(tidings.openUrl);
  // The oldest feed is added last: River5's arrival order would put it on top.
  for (const f of feeds) await addFeed(page, `${host.url}${f.path}`, f.title);
  await showAll(page);
  const titles = page.getByTestId('river-item').locator('.item-title');
  await expect(titles).toHaveText([
    'Fresh Desk 0.2 h',
    'Middle Desk 2 h',
    'Fresh Desk 6 h',
    'Middle Desk 7 h',
    'Stale Desk 13 h',
    'Stale Desk 14 h',
  ]);
  // Each heading's time is its first item's: "12 min ago" above "12 min ago", never "just now".
  const groups = page.getByTestId('river-group');
  for (let i = 0; i < (await groups.count()); i++) {
    const group = groups.nth(i);
    await expect(group.locator('.group-time')).toHaveText(
      (await group.locator('.item-time').first().textContent()) ?? '',
    );
  }
  // The stale feed's two items are one update placed by date: one heading over both.
  await expect(groups.filter({ hasText: 'Stale Desk' })).toHaveCount(1);

  // A live arrival, even of an older post, tops the river.
  host.set(
    '/stale.xml',
    rssFeed('Stale Desk', [
      { title: 'Stale Desk late', guid: 'late', date: hoursAgo(3) },
      { title: 'Stale Desk 13 h', guid: '/stale.xml13', date: hoursAgo(13) },
    ]),
  );
  const stale = page.getByTestId('feed-row').filter({ hasText: 'Stale Desk' });
  await stale.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  await showAll(page);
  await expect(titles.first()).toHaveText('Stale Desk late');
  // Its heading says when the news is from, not "just now" above "3 h ago".
  await expect(groups.first().locator('.group-time')).not.toHaveText('just now');
  await expect(groups.first().locator('.group-time')).toHaveText(
    (await groups.first().locator('.item-time').first().textContent()) ?? '',
  );

  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(titles.first()).toBeVisible();
    await screenshot(page, `order-${size.name}`);
    expect.soft(await axeViolations(page), `order ${size.name}`).toEqual([]);
  }
});
