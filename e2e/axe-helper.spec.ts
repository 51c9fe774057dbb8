/**
 * The accessibility checks every view relies on (axeViolations) must find what they are meant to
 * find: a page with known faults reports each of them, and a second scan of the same document
 * (axe already in the page) reports the same.
 */
import { expect, test } from '@playwright/test';
import { axeViolations } from './support/reading.ts';

test('axeViolations reports known faults, on the first scan of a page and on later ones', async ({
  page,
}) => {
  await page.setContent(
    '<html><body><img src="x.png"><input type="radio"><p style="color:#777;background:#888">faint</p></body></html>',
  );
  const found = await axeViolations(page);
  const rules = new Set(found.map((line) => line.split(':')[0]));
  for (const rule of ['image-alt', 'label', 'color-contrast', 'html-has-lang', 'document-title']) {
    expect(rules, rule).toContain(rule);
  }
  expect(await axeViolations(page)).toEqual(found);
});
