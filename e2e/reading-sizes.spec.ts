/**
 * Every main view at 1280x800, 800x600 and 480x800, light and dark: screenshots saved (and looked
 * at), everything reachable (no control covered, nothing clipped to 0 px), and axe-core clean.
 */
import { expect, test } from './support/fixtures.ts';
import { axeViolations, openLibrary, SIZES, screenshot } from './support/reading.ts';
import { toolbarAction } from './support/toolbar.ts';

// One test per size (a loaded machine slows each by a third of the whole instead of pushing one
// long test past its time); each sets up its library once and goes through every view in the
// light scheme, then again in the dark one (the same views, other colours).
// The three sizes are independent (each its own app and library): they may run side by side.
test.describe.configure({ mode: 'parallel' });

for (const size of SIZES) {
  test(`every main view works and is axe-clean at ${size.name} (light and dark)`, async ({
    page,
    host,
    tidings,
  }) => {
    test.setTimeout(300_000);
    const feeds = await openLibrary(page, host, tidings.openUrl);
    // A new feed is selected as it is added; All shows every one.
    await expect(page.getByTestId('feed-row').filter({ hasText: feeds[2]!.title })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByTestId('feed-all').click();
    await expect(page.getByTestId('river-item')).toHaveCount(9);
    // A folder with a feed in it, so the tree shows nesting at every size.
    await page.getByTestId('new-folder').click();
    await page.getByTestId('folder-name').fill('Technology');
    await page.getByTestId('folder-save').click();
    await expect(page.getByTestId('folder-row')).toContainText('Technology');
    const tech = page.getByTestId('feed-row').filter({ hasText: 'Tech Weekly' });
    await tech.getByTestId('feed-menu-button').click();
    await page.getByTestId('feed-move').click();
    await page.getByTestId('feed-settings-folder').selectOption({ label: 'Technology' });
    await page.getByTestId('feed-settings-save').click();
    await expect(tech).toHaveAttribute('aria-level', '2');
    await page.getByTestId('feed-all').click();
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const tag = `${size.name}-${scheme}`;

      // The river: its title is readable and the Unread filter can be clicked (not covered).
      await expect(page.locator('.river-title')).toBeVisible();
      expect((await page.locator('.river-title').boundingBox())?.width ?? 0).toBeGreaterThan(40);
      await page.getByTestId('show-unread').click({ trial: true });
      await screenshot(page, `river-${tag}`);
      expect.soft(await axeViolations(page), `river ${tag}`).toEqual([]);

      // The other river views (titles only, reading pane) and the shortcuts sheet.
      for (const view of ['compact', 'pane'] as const) {
        await page.getByTestId('river-view').selectOption(view);
        await expect(page.getByTestId('river-item').first()).toBeVisible();
        if (view === 'pane') await page.getByTestId('river-item').first().click();
        await screenshot(page, `view-${view}-${tag}`);
        expect.soft(await axeViolations(page), `view ${view} ${tag}`).toEqual([]);
      }
      await page.getByTestId('river-view').selectOption('river');
      await page.locator('body').press('?');
      await expect(page.getByTestId('shortcuts-help')).toBeVisible();
      await screenshot(page, `shortcuts-${tag}`);
      expect.soft(await axeViolations(page), `shortcuts ${tag}`).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('shortcuts-help')).toHaveCount(0);

      // Search results.
      await page.getByTestId('search-input').fill('compiler');
      await expect(page.getByTestId('search-results')).toContainText('1 result');
      await screenshot(page, `search-${tag}`);
      expect.soft(await axeViolations(page), `search ${tag}`).toEqual([]);
      await page.getByTestId('search-input').press('Escape');

      // Settings: Save reachable (scrolls into view inside its panel and can be clicked). The
      // toolbar's buttons are in its More menu on narrow windows (e2e/toolbar.spec.ts).
      await toolbarAction(page, 'settings-toggle');
      await page.getByTestId('settings-save').click({ trial: true });
      await screenshot(page, `settings-${tag}`);
      expect.soft(await axeViolations(page), `settings ${tag}`).toEqual([]);
      await toolbarAction(page, 'settings-toggle');

      // Activity log.
      await toolbarAction(page, 'activity-toggle');
      await screenshot(page, `activity-${tag}`);
      expect.soft(await axeViolations(page), `activity ${tag}`).toEqual([]);
      await toolbarAction(page, 'activity-toggle');

      // The composer, over the river.
      await toolbarAction(page, 'new-post');
      await expect(page.getByTestId('composer')).toBeVisible();
      await screenshot(page, `composer-${tag}`);
      expect.soft(await axeViolations(page), `composer ${tag}`).toEqual([]);
      await page.getByTestId('composer-text').press('Escape');
      await expect(page.getByTestId('composer')).toHaveCount(0);

      // The sidebar: a column on wide windows, a drawer on narrow ones; the toggle shows and hides it.
      const toggle = page.getByTestId('sidebar-toggle');
      const tree = page.getByRole('tree', { name: 'Feeds' });
      if (size.width <= 720) {
        await expect(tree).toBeHidden();
        // Opened by key, the drawer takes focus; Escape closes it and focus returns to the button.
        await toggle.focus();
        await page.keyboard.press('Enter');
        await expect(tree.locator('[tabindex="0"]')).toBeFocused();
        // While it is open the page behind is inert: not reachable by Tab, nor by a screen reader.
        await expect(page.locator('main')).toHaveAttribute('inert', '');
        for (let i = 0; i < 12; i++) {
          await page.keyboard.press('Tab');
          expect(await page.evaluate("!!document.activeElement?.closest('main')")).toBe(false);
        }
        // Nor do the reading keys reach it: j in the drawer leaves the river's selection alone.
        const selection =
          'document.querySelector(\'[data-testid="river-item"][aria-current="true"]\')?.getAttribute(\'data-item-id\') ?? null';
        const selectedBefore = await page.evaluate(selection);
        await page.keyboard.press('j');
        expect(await page.evaluate(selection)).toBe(selectedBefore);
        await tree.locator('[tabindex="0"]').focus();
        await page.keyboard.press('Escape');
        await expect(tree).toBeHidden();
        await expect(toggle).toBeFocused();
        await expect(page.locator('main')).not.toHaveAttribute('inert');
        await toggle.click();
      }
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(tree).toBeVisible();
      await page.getByTestId('folder-row').getByTestId('folder-menu-button').click();
      await expect(page.getByRole('menu')).toBeVisible();
      await screenshot(page, `sidebar-${tag}`);
      expect.soft(await axeViolations(page), `sidebar ${tag}`).toEqual([]);
      await page.keyboard.press('Escape');

      // A feed's settings dialog fits and scrolls.
      await page
        .getByTestId('feed-row')
        .filter({ hasText: 'Loopback News' })
        .getByTestId('feed-menu-button')
        .click();
      await page.getByTestId('feed-settings').click();
      const dialog = page.getByTestId('feed-settings-dialog');
      await expect(dialog).toBeVisible();
      await dialog.getByTestId('feed-settings-save').scrollIntoViewIfNeeded();
      await dialog.getByTestId('feed-settings-save').click({ trial: true });
      await screenshot(page, `feed-settings-${tag}`);
      expect.soft(await axeViolations(page), `feed settings ${tag}`).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);

      // Picking a feed in the drawer closes it; on a wide window the toggle collapses the column.
      if (size.width <= 720) {
        await page.getByTestId('feed-all').click();
        await expect(tree).toBeHidden();
      } else {
        await toggle.click();
        await expect(tree).toBeHidden();
        await screenshot(page, `collapsed-${tag}`);
        await toggle.click();
        await expect(tree).toBeVisible();
      }
    }
  });
}
