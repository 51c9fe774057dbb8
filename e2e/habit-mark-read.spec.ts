/**
 * Issue 35, reading marks read as you go (on by default, as in Reeder and Feedly): items scrolled
 * past the top are read, in a few batched calls however fast the wheel turns; expanding an item
 * reads it; the option turns it off and is kept. Space goes to the next unread item. An item's
 * menu marks everything above it read, and the Mark read menu what is older than a day or a week,
 * each with its Undo.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { everyView } from './support/habits.ts';
import { addFeed } from './support/reading.ts';
import type { FeedHost } from './support/servers.ts';

const LONG = Array.from({ length: 80 }, (_, i) => `<p>Long paragraph ${i} of the long item.</p>`).join('');

/** `n` items an hour apart, newest first; item 3 has a long text (it folds). */
function serveMany(host: FeedHost, n: number): void {
  const items = Array.from(
    { length: n },
    (_, i) =>
      `<item><title>Story ${i}</title><guid>s${i}</guid><link>${host.url}/s/${i}</link>
       <pubDate>${new Date(Date.now() - (i + 1) * 3_600_000).toUTCString()}</pubDate>
       <description>${i === 3 ? LONG.replaceAll('<', '&lt;') : `Story ${i} in two short lines of text, the way a news feed summarises a piece.`}</description></item>`,
  ).join('');
  host.set(
    '/many.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Many Stories</title>${items}</channel></rss>`,
  );
}

const story = (page: Page, i: number) =>
  page.getByTestId('river-item').filter({ has: page.getByText(`Story ${i}`, { exact: true }) });

async function openMany(page: Page, host: FeedHost, url: string, n = 40): Promise<void> {
  serveMany(host, n);
  await page.goto(url);
  await addFeed(page, `${host.url}/many.xml`, 'Many Stories');
  await expect(story(page, 0)).toBeVisible();
}

test('scrolled past the top is read, in batches; expanding reads; the option turns it off and is kept', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(180_000);
  await openMany(page, host, tidings.openUrl);
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/markRead')) calls.push(r.postData() ?? '');
  });
  // Story 3's "Show more" reads it.
  const long = story(page, 3);
  await long.getByRole('button', { name: 'Show more' }).click();
  await expect(long).toHaveAttribute('data-read', 'true');
  await expect(story(page, 4)).toHaveAttribute('data-read', 'false');

  // The wheel, fast: a notch a frame down through the river.
  const river = page.getByTestId('river');
  await river.hover();
  for (let i = 0; i < 50; i++) await page.mouse.wheel(0, 120);
  // The feed's count falls by what was scrolled past (39 left after Story 3 was expanded).
  const count = page.getByTestId('feed-row').filter({ hasText: 'Many Stories' }).locator('.count');
  await expect
    .poll(async () => Number((await count.textContent())?.match(/\d+/)?.[0] ?? 99))
    .toBeLessThan(30);
  // Wholly above the top is read; the first item still in sight is not.
  const edge = () =>
    page.evaluate(`(() => {
      const top = document.querySelector('[data-river-scroll]').getBoundingClientRect().top;
      const items = [...document.querySelectorAll('[data-testid="river-item"]')];
      const at = items.findIndex((el) => el.getBoundingClientRect().bottom > top + 1);
      return { above: items[at - 1]?.dataset.read, inSight: items[at]?.dataset.read };
    })()`);
  await expect.poll(edge).toEqual({ above: 'true', inSight: 'false' });
  // One call for the expanded item, then a few for the whole scroll: never one per item.
  await expect.poll(() => calls.length).toBeGreaterThan(1);
  const sentIds = calls.map((body) => (JSON.parse(body) as { args: [number[]] }).args[0].length);
  const itemsSent = sentIds.reduce((a, b) => a + b, 0);
  expect(itemsSent).toBeGreaterThan(10);
  expect(calls.length).toBeLessThan(itemsSent / 2);

  // The option: off, kept after a reload; scrolling then reads nothing.
  await page.getByTestId('mark-read-menu').click();
  const option = page.getByTestId('mark-read-on-scroll');
  await expect(option).toBeChecked();
  await everyView(page, 'mark-read-menu', async () => {
    if (!(await page.getByTestId('mark-read-popup').isVisible()))
      await page.getByTestId('mark-read-menu').click();
  });
  await option.uncheck();
  await page.reload();
  await expect(story(page, 0)).toBeVisible();
  await page.getByTestId('mark-read-menu').click();
  await expect(page.getByTestId('mark-read-on-scroll')).not.toBeChecked();
  await page.keyboard.press('Escape');
  const left = await count.textContent();
  const sent = calls.length;
  await river.hover();
  for (let i = 0; i < 60; i++) await page.mouse.wheel(0, 120);
  // Past the items read before, into unread ones: none of them is read now.
  await expect(page.locator('[data-testid="river-item"][data-read="false"]').first()).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(count).toHaveText(left ?? '');
  expect(calls.length).toBe(sent);
});

test('Space goes to the next unread item, skipping read ones', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  await openMany(page, host, tidings.openUrl, 8);
  await story(page, 1).getByRole('button', { name: 'Mark as read' }).click();
  await story(page, 2).getByRole('button', { name: 'Mark as read' }).click();
  // Clicking the dots selected story 2: back up to story 0 with k.
  await expect(story(page, 2)).toHaveClass(/selected/);
  await page.getByTestId('river').focus();
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(story(page, 0)).toHaveClass(/selected/);
  await page.keyboard.press(' ');
  await expect(story(page, 3)).toHaveClass(/selected/);
});

test('mark all above as read, and older than a day or a week, each with its Undo', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(180_000);
  // Items 1 h, 2 h ... 200 h old.
  const ages = [1, 2, 5, 30, 50, 200];
  const items = ages
    .map(
      (h) =>
        `<item><title>Aged ${h} h</title><guid>a${h}</guid><pubDate>${new Date(Date.now() - h * 3_600_000).toUTCString()}</pubDate><description>An item ${h} hours old.</description></item>`,
    )
    .join('');
  host.set(
    '/aged.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Aged</title>${items}</channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/aged.xml`, 'Aged');
  const aged = (h: number) => page.getByTestId('river-item').filter({ hasText: `Aged ${h} h` });
  const unread = page.locator('[data-testid="river-item"][data-read="false"]');
  await expect(unread).toHaveCount(6);

  // Everything above "Aged 30 h" (three items).
  await aged(30).getByTestId('item-actions').click();
  await everyView(page, 'item-menu', async () => {
    if (!(await page.getByTestId('item-actions-menu').isVisible()))
      await aged(30).getByTestId('item-actions').click();
    await aged(30).scrollIntoViewIfNeeded();
  });
  await page.getByTestId('item-mark-above').click();
  const undo = page.getByTestId('undo-toast');
  await expect(undo).toContainText('Marked 3 items read');
  await expect(unread).toHaveCount(3);
  await undo.getByTestId('undo-button').click();
  await expect(unread).toHaveCount(6);

  // Older than a day: 30, 50 and 200 h.
  await page.getByTestId('mark-read-menu').click();
  await page.getByTestId('mark-older-day').click();
  await expect(undo).toContainText('Marked 3 items older than a day read');
  for (const h of [30, 50, 200]) await expect(aged(h)).toHaveAttribute('data-read', 'true');
  for (const h of [1, 2, 5]) await expect(aged(h)).toHaveAttribute('data-read', 'false');
  await expect(page.getByTestId('feed-all')).toContainText('3');
  await page.getByTestId('river').focus();
  await page.keyboard.press('z');
  await expect(unread).toHaveCount(6);

  // Older than a week: 200 h only.
  await page.getByTestId('mark-read-menu').click();
  await page.getByTestId('mark-older-week').click();
  await expect(undo).toContainText('Marked 1 item older than a week read');
  await expect(aged(200)).toHaveAttribute('data-read', 'true');
  await expect(unread).toHaveCount(5);
});
