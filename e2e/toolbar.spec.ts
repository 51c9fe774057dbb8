/**
 * Issue 35, narrow windows: the toolbar is one row at every width, and what has no room goes into
 * a More menu (a menu button: aria-expanded, the arrow keys, Escape). Every view's toolbar (the
 * river, My posts, the activity log, Settings) at 480, 800, 1280 and 1920 px wide, light and dark:
 * one row, every control inside the window and none over another, every action reachable, My
 * posts' own bar under the toolbar, and axe-clean. Screenshots: test-results/screenshots/toolbar-*.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { axeViolations, openLibrary, screenshot } from './support/reading.ts';
import { toolbarAction } from './support/toolbar.ts';

const WIDTHS = [480, 800, 1280, 1920] as const;
const ACTIONS = ['new-post', 'activity-toggle', 'settings-toggle'] as const;

/** What is wrong with the toolbar's row as it stands: more than one row, a control outside it or over another. */
const ROW_PROBLEMS = `(() => {
  const bar = document.querySelector('.toolbar');
  const frame = bar.getBoundingClientRect();
  const problems = [];
  if (frame.height > 62) problems.push('toolbar is ' + Math.round(frame.height) + ' px tall');
  const controls = [...bar.querySelectorAll('button, input, a, select, h1')]
    .filter((el) => el.getClientRects().length > 0 && !el.closest('[role="menu"]'))
    .map((el) => ({ el, box: el.getBoundingClientRect(), name: el.dataset.testid || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 20) }));
  for (const c of controls) {
    if (c.box.left < frame.left - 0.5 || c.box.right > frame.right + 0.5 || c.box.right > window.innerWidth + 0.5)
      problems.push(c.name + ' is outside the toolbar');
    if (c.box.top < frame.top - 0.5 || c.box.bottom > frame.bottom + 0.5) problems.push(c.name + ' is off the row');
  }
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i], b = controls[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (w > 1 && h > 1) problems.push(a.name + ' overlaps ' + b.name);
    }
  return problems;
})()`;

/** The actions shown in the row, and those only in More. */
async function placement(page: Page): Promise<{ row: string[]; more: string[] }> {
  const row: string[] = [];
  for (const id of ACTIONS) if (await page.getByTestId(id).isVisible()) row.push(id);
  const more: string[] = [];
  if (await page.getByTestId('toolbar-more').isVisible()) {
    await page.getByTestId('toolbar-more').click();
    for (const id of ACTIONS) if (await page.getByTestId(`more-${id}`).isVisible()) more.push(id);
    await page.keyboard.press('Escape');
  }
  return { row, more };
}

/** The checks every view gets at every width and scheme. */
async function checkView(page: Page, view: string, width: number, scheme: string): Promise<void> {
  const tag = `${view}-${width}-${scheme}`;
  expect(await page.evaluate(ROW_PROBLEMS), `toolbar row, ${tag}`).toEqual([]);
  // Every action is there, once: in the row or in More.
  const { row, more } = await placement(page);
  expect([...row, ...more].sort(), `actions reachable, ${tag}`).toEqual([...ACTIONS].sort());
  await screenshot(page, `toolbar-${tag}`);
  expect.soft(await axeViolations(page), `axe, ${tag}`).toEqual([]);
}

test('every view keeps its toolbar one row at 480, 800, 1280 and 1920 px, light and dark', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(300_000);
  await openLibrary(page, host, tidings.openUrl);
  await page.getByTestId('feed-all').click();
  const seen = new Map<number, number>();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      // The sidebar follows the width (a drawer below 720 px, a column above: app/use-sidebar.ts)
      // a render later: measure once it has.
      if (width <= 720) await expect(page.locator('.app')).toHaveClass(/\bnarrow\b/);
      else await expect(page.locator('.app')).not.toHaveClass(/\bnarrow\b/);
      // The river.
      await expect(page.getByTestId('river-item').first()).toBeVisible();
      await checkView(page, 'river', width, scheme);
      seen.set(width, (await placement(page)).row.length);
      // My posts: its own bar sits under the toolbar, never over it.
      if (width < 720) await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('my-posts-link').click();
      await expect(page.getByTestId('my-posts')).toBeVisible();
      const bar = await page.locator('.toolbar').boundingBox();
      const head = await page.locator('.my-posts-head').boundingBox();
      expect(head!.y, `My posts' bar under the toolbar at ${width}`).toBeGreaterThanOrEqual(
        bar!.y + bar!.height - 0.5,
      );
      await checkView(page, 'my-posts', width, scheme);
      await page.getByRole('button', { name: 'Back to the river' }).click();
      // The activity log.
      await toolbarAction(page, 'activity-toggle');
      await expect(page.getByTestId('activity-log')).toBeVisible();
      await checkView(page, 'activity', width, scheme);
      await toolbarAction(page, 'activity-toggle');
      await expect(page.getByTestId('activity-log')).toHaveCount(0);
      // Settings.
      await toolbarAction(page, 'settings-toggle');
      await expect(page.getByTestId('settings-panel')).toBeVisible();
      await checkView(page, 'settings', width, scheme);
      await toolbarAction(page, 'settings-toggle');
      await expect(page.getByTestId('settings-panel')).toHaveCount(0);
    }
  }
  // Wide windows keep every button in the row; a phone-sized one keeps none and offers More.
  expect(seen.get(1920)).toBe(3);
  expect(seen.get(1280)).toBe(3);
  expect(seen.get(480)).toBe(0);
});

test('the More menu is a menu button: Enter and the arrow keys open it, arrows move, Escape closes', async ({
  page,
  host,
  tidings,
}) => {
  await openLibrary(page, host, tidings.openUrl, 1);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // At 1280 every action is in the row: no More at all.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByTestId('toolbar-more')).toBeHidden();
    for (const id of ACTIONS) await expect(page.getByTestId(id)).toBeVisible();
    await page.setViewportSize({ width: 480, height: 800 });
    const more = page.getByTestId('toolbar-more');
    await expect(more).toHaveAttribute('aria-haspopup', 'menu');
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'More actions' });
    await expect(menu).toBeVisible();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await expect(more).toHaveAttribute('aria-controls', (await menu.getAttribute('id'))!);
    await expect(page.getByTestId('more-new-post')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('more-activity-toggle')).toBeFocused();
    await page.keyboard.press('End');
    await expect(page.getByTestId('more-settings-toggle')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('more-new-post')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('more-settings-toggle')).toBeFocused();
    await expect(page.getByRole('menuitemcheckbox', { name: 'Settings' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await screenshot(page, `toolbar-more-menu-480-${scheme}`);
    expect.soft(await axeViolations(page), `More menu open, ${scheme}`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(more).toBeFocused();
    // The arrow key opens it too; Enter on an item runs it and gives focus back to More.
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('more-new-post')).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('settings-panel')).toBeVisible();
    await expect(more).toBeFocused();
    await more.click();
    await expect(page.getByRole('menuitemcheckbox', { name: 'Settings' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    // A click outside closes it.
    await page.getByTestId('settings-panel').click({ position: { x: 5, y: 200 } });
    await expect(menu).toHaveCount(0);
    await toolbarAction(page, 'settings-toggle');
    await expect(page.getByTestId('settings-panel')).toHaveCount(0);
  }
});
