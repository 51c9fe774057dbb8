/**
 * Helpers for issue 35's specs (e2e/habit-*.spec.ts): every view is looked at, and scanned by
 * axe, at the two sizes and in both themes the issue names.
 */
import { expect, type Page } from '@playwright/test';
import { axeViolations, screenshot } from './reading.ts';

export const HABIT_SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '480x800', width: 480, height: 800 },
] as const;

export const SCHEMES = ['light', 'dark'] as const;

/**
 * For each size and theme: `arrange` (bring the view back into sight: the narrow window may hide
 * it), a screenshot named `<name>-<size>-<scheme>` under test-results/screenshots, and axe clean.
 * Leaves the page at 1280x800, light.
 */
export async function everyView(
  page: Page,
  name: string,
  arrange: (size: (typeof HABIT_SIZES)[number]) => Promise<void> = async () => {},
): Promise<void> {
  for (const size of HABIT_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await arrange(size);
      await screenshot(page, `${name}-${size.name}-${scheme}`);
      expect.soft(await axeViolations(page), `${name} ${size.name} ${scheme}`).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}
