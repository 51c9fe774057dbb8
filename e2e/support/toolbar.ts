/**
 * The toolbar as a person uses it at any width: a button in the row, or, on a narrow window, the
 * same action in the More menu (app/ToolbarActions.tsx).
 */
import { expect, type Page } from '@playwright/test';

/** Runs a toolbar action (its row button's test id: 'settings-toggle', 'activity-toggle', 'new-post'). */
export async function toolbarAction(page: Page, testId: string): Promise<void> {
  const inRow = page.getByTestId(testId);
  const more = page.getByTestId('toolbar-more');
  // The window may still be painting: wait for the row's button or More, whichever this width shows.
  await expect(inRow.or(more).filter({ visible: true }).first()).toBeVisible();
  if (await inRow.isVisible()) {
    await inRow.click();
    return;
  }
  await more.click();
  const item = page.getByTestId(`more-${testId}`);
  await expect(item).toBeVisible();
  await item.click();
}
