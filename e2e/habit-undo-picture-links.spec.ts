/**
 * Issue 35: the Undo stays out of the way (docked under the river, never over an item; the next
 * action or Escape dismisses it, and it has no time limit); one picture once (a thumbnail that is
 * also the text's picture, at another size, shows once); copy link from an item's menu; links in
 * item text are 24 px targets; search results newest first.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { everyView } from './support/habits.ts';
import { addFeed, openLibrary, PNG, showAll } from './support/reading.ts';

/** Whether the Undo bar overlaps the river's scrolling area (it must not: it has its own room). */
async function undoCoversRiver(page: Page): Promise<boolean> {
  const bar = await page.getByTestId('undo-toast').boundingBox();
  const river = await page.getByTestId('river').boundingBox();
  if (!bar || !river) throw new Error('no bar or river');
  return bar.y < river.y + river.height - 0.5 && bar.y + bar.height > river.y + 0.5;
}

test('the Undo is docked under the river, never over it; the next action or Escape dismisses it', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(150_000);
  await openLibrary(page, host, tidings.openUrl);
  await showAll(page);
  const undo = page.getByTestId('undo-toast');
  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+A');
  await expect(undo).toContainText('Marked 9 items read');
  await everyView(page, 'undo-docked', async () => {
    await expect(undo.getByTestId('undo-button')).toBeInViewport();
    expect(await undoCoversRiver(page)).toBe(false);
  });
  // No time limit: still there a while later.
  await page.waitForTimeout(1500);
  await expect(undo).toBeVisible();
  // Escape dismisses it; z then has nothing to undo.
  await page.getByTestId('river').focus();
  await page.keyboard.press('Escape');
  await expect(undo).toHaveCount(0);
  await page.keyboard.press('z');
  await expect(page.locator('[data-testid="river-item"][data-read="false"]')).toHaveCount(0);

  // The next action (j) dismisses it too, and a click on another control.
  await page.getByTestId('show-all').click();
  await page.getByTestId('river-item').first().getByRole('button', { name: 'Mark as unread' }).click();
  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+A');
  await expect(undo).toBeVisible();
  await page.keyboard.press('j');
  await expect(undo).toHaveCount(0);
  await page.getByTestId('river-item').first().getByRole('button', { name: 'Mark as unread' }).click();
  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+A');
  await expect(undo).toBeVisible();
  await page.getByTestId('show-unread').click();
  await expect(undo).toHaveCount(0);
});

test('a thumbnail that is also the text’s picture shows once; copy link; content links are 24 px targets', async ({
  page,
  host,
  tidings,
  context,
}) => {
  test.setTimeout(150_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const u = host.url;
  for (const path of ['/img/otter-1024x683.png', '/img/otter-300x200.png', '/img/other.png'])
    host.set(path, { body: new Uint8Array(PNG), type: 'image/png' });
  const body = (pic: string) =>
    `&lt;p&gt;&lt;img src="${u}${pic}" alt="An otter on the bank"&gt;&lt;/p&gt;&lt;p&gt;The otters are back, says &lt;a href="${u}/warden"&gt;the warden&lt;/a&gt;, and &lt;a href="${u}/club"&gt;the boat club&lt;/a&gt; agrees.&lt;/p&gt;`;
  host.set(
    '/pics.xml',
    `<?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Picture News</title>
     <item><title>Same picture</title><guid>same</guid><link>${u}/same</link>
       <media:thumbnail url="${u}/img/otter-300x200.png"/><description>${body('/img/otter-1024x683.png')}</description></item>
     <item><title>Another picture</title><guid>other</guid><link>${u}/other</link>
       <media:thumbnail url="${u}/img/other.png"/><description>${body('/img/otter-1024x683.png')}</description></item>
     </channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/pics.xml`, 'Picture News');
  const same = page.getByTestId('river-item').filter({ hasText: 'Same picture' });
  const other = page.getByTestId('river-item').filter({ hasText: 'Another picture' });
  await expect(same.locator('.item-text img')).toHaveCount(1);
  // The same picture at another size: once, in the text. Another picture: both.
  await expect(same.locator('img.media-thumb')).toHaveCount(0);
  await expect(other.locator('img.media-thumb')).toHaveCount(1);
  await expect(other.locator('.item-text img')).toHaveCount(1);

  // Links in the text: at least 24 px tall, and not overlapping each other.
  const boxes = await same.locator('.item-text a').evaluateAll((links) =>
    links.map((a) => {
      const r = a.getBoundingClientRect();
      return { h: r.height, top: r.top, bottom: r.bottom };
    }),
  );
  expect(boxes.length).toBe(2);
  for (const b of boxes) expect(b.h).toBeGreaterThanOrEqual(24);

  // Copy link, from the item's menu.
  await same.getByTestId('item-actions').click();
  await page.getByTestId('item-copy-link').click();
  await expect(same.getByTestId('item-actions-said')).toHaveText('Link copied');
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${u}/same`);
  // No share sheet in this browser: no Share item (copy is the way).
  await same.getByTestId('item-actions').click();
  const canShare = (await page.evaluate("typeof navigator.share === 'function'")) as boolean;
  await expect(page.getByTestId('item-share')).toHaveCount(canShare ? 1 : 0);
  await everyView(page, 'one-picture', async () => {
    if (!(await page.getByTestId('item-actions-menu').isVisible()))
      await same.getByTestId('item-actions').click();
    await same.scrollIntoViewIfNeeded();
  });
});

test('search results are newest first within each tier', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  // The feed lists its newest item first (as feeds do): one fetch, three title matches.
  const items = [1, 2, 3]
    .map(
      (d) =>
        `<item><title>Heron sighting ${d}</title><guid>h${d}</guid><pubDate>${new Date(Date.now() - d * 86_400_000).toUTCString()}</pubDate><description>Birds.</description></item>`,
    )
    .join('');
  host.set(
    '/birds.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Birds</title>${items}</channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/birds.xml`, 'Birds');
  await page.getByTestId('search-input').fill('heron');
  await page.getByTestId('search-input').press('Enter');
  // The results' own cards: the river behind them (this feed, newest first) lists the same three
  // titles in the same order, and matched them while the results view was still loading.
  const titles = page.getByTestId('search-hit').locator('.search-hit-title');
  await expect(titles).toHaveText(['Heron sighting 1', 'Heron sighting 2', 'Heron sighting 3']);
  await everyView(page, 'search-newest-first');
});
