/**
 * Issue 17 (the feed list under the wheel): while the list scrolls, the row under a still pointer
 * is not re-highlighted on every notch (that restyle and repaint cost about half of each frame in
 * bench:river); the hover look comes back once the list rests, and a click while it scrolls still
 * opens the row.
 */
import { expect, test } from './support/fixtures.ts';
import { importOpml, serveManyFeeds } from './support/reading.ts';

/**
 * The feed row under a point (its tree key), whether it wears the hover background, and whether
 * the list says it is scrolling. With `duringScroll`, first waits (frame by frame) for the scroll a
 * wheel notch started, so the look is taken in the frame the scroll is seen, whatever the load.
 * (A string: the e2e sources are type-checked without the DOM's types.)
 */
const underPointer = ([x, y]: [number, number], duringScroll: boolean) => `(async () => {
  const list = document.querySelector('#sidebar .feed-list');
  while (${duringScroll} && list.dataset.scrolling === undefined) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const row = document.elementFromPoint(${x}, ${y})?.closest('.tree-row');
  const probe = document.createElement('div');
  probe.style.background = 'var(--bg-hover)';
  list.append(probe);
  const hover = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return {
    key: row?.closest('[role="treeitem"]')?.dataset.key ?? null,
    hovered: row ? getComputedStyle(row).backgroundColor === hover : false,
    scrolling: list.dataset.scrolling !== undefined,
  };
})()`;

type UnderPointer = { key: string | null; hovered: boolean; scrolling: boolean };

test('no hover restyle while the feed list scrolls; hover returns at rest; a click still opens the row', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(tidings.openUrl);
  await importOpml(page, serveManyFeeds(host, 60, 6));
  // Every feed is in once All counts their 60 items (the list is windowed: not every row is in the page).
  await expect(page.getByTestId('feed-all')).toContainText('60 unread', { timeout: 60_000 });

  const point: [number, number] = [120, 400];
  const atRest = underPointer(point, false);
  const scrolling = underPointer(point, true);
  await page.mouse.move(...point);
  await expect
    .poll(() => page.evaluate<UnderPointer>(atRest))
    .toMatchObject({ hovered: true, scrolling: false });
  const before = await page.evaluate<UnderPointer>(atRest);

  // A few wheel notches: the list moves under the pointer, and the row now under it is not restyled.
  await page.mouse.wheel(0, 120);
  await page.mouse.wheel(0, 120);
  const during = await page.evaluate<UnderPointer>(scrolling);
  expect(during.scrolling).toBe(true);
  expect(during.key).not.toBe(before.key);
  expect(during.hovered).toBe(false);

  // At rest the row under the pointer is highlighted again.
  await expect
    .poll(() => page.evaluate<UnderPointer>(atRest))
    .toMatchObject({ hovered: true, scrolling: false });

  // A click right after a notch still lands on the row and opens it as the river.
  await page.mouse.wheel(0, 120);
  const target = await page.evaluate<UnderPointer>(scrolling);
  expect(target.scrolling).toBe(true);
  await page.mouse.click(...point);
  expect(target.key).not.toBeNull();
  await expect(page.locator(`#sidebar [role="treeitem"][data-key="${target.key}"]`)).toHaveAttribute(
    'aria-selected',
    'true',
  );
});
