/**
 * Issue 17, point 10: the heading tells the truth. In My posts it says My posts, without the river's
 * All/Unread/Starred filter (and "My posts" shows once on the page); a feed's title is not cut
 * short at 1280 px while there is room.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, SIZES, screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

const CUT =
  "(() => { const h = document.querySelector('.river-title'); return h.scrollWidth > h.clientWidth; })()";

test('My posts says My posts without the filter; a title is whole at 1280', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(90_000);
  host.set(
    '/notes.xml',
    rssFeed('Notes from a Terminal Window', [{ title: 'a note', guid: 'n1', date: new Date() }]),
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/notes.xml`, 'Notes from a Terminal Window');
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText('Notes from a Terminal Window');
  expect(await page.evaluate(CUT), 'title cut at 1280').toBe(false);

  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    if (size.width <= 720) await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('my-posts-link').click();
    await expect(page.getByTestId('my-posts')).toBeVisible();
    await expect(h1).toHaveText('My posts');
    await expect(page.getByTestId('show-all')).toBeHidden();
    await expect(page.getByTestId('show-unread')).toBeHidden();
    // Once on the page (the sidebar's link aside).
    const shown = await page
      .locator('main')
      .getByText('My posts', { exact: true })
      .evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().width > 2).length);
    expect(shown).toBe(1);
    await screenshot(page, `my-posts-heading-${size.name}`);
    expect.soft(await axeViolations(page), `my posts ${size.name}`).toEqual([]);
    await page.getByRole('button', { name: 'Back to the river' }).click();
    await expect(h1).toHaveText('Notes from a Terminal Window');
    await expect(page.getByTestId('show-unread')).toBeVisible();
  }
});
