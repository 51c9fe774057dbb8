/**
 * Issue 9, privacy and safety from the Settings panel: the image policy is saved and kept;
 * private-network feeds are refused until "Allow local network feeds" is on, and the refusal says
 * how to allow them; link-local and cloud-metadata addresses are refused whatever the setting.
 */
import { expect, test } from './support/fixtures.ts';
import { axeViolations, screenshot, smallToggles } from './support/reading.ts';

test('privacy settings: image policy kept, local network refused until allowed, metadata always', async ({
  page,
  tidings,
}) => {
  await page.goto(tidings.openUrl);
  const input = page.getByTestId('add-feed-input');
  const error = page.getByTestId('add-feed-error');

  // Off by default: a private address is refused, and the sentence names the setting.
  await input.fill('http://192.168.77.1/feed.xml');
  await page.getByTestId('add-feed-submit').click();
  await expect(error).toContainText('Allow local network feeds');

  await page.getByTestId('settings-toggle').click();
  const panel = page.getByTestId('settings-panel');
  await expect(panel.getByTestId('settings-images-blockTrackers')).toBeChecked();
  await expect(panel.getByTestId('settings-local-network')).not.toBeChecked();
  await panel.getByTestId('settings-images-clickToLoad').check();
  await panel.getByTestId('settings-local-network').check();
  await panel.getByTestId('settings-save').click();
  await expect(panel.getByTestId('settings-result')).toHaveText('Saved.');
  await screenshot(page, 'settings-privacy-1280x800');
  expect(await axeViolations(page)).toEqual([]);
  expect(await smallToggles(panel)).toEqual([]);

  // Kept by the core: a reload shows the same choices.
  await page.reload();
  await page.getByTestId('settings-toggle').click();
  await expect(page.getByTestId('settings-images-clickToLoad')).toBeChecked();
  await expect(page.getByTestId('settings-local-network')).toBeChecked();
  await page.getByTestId('settings-toggle').click();

  // Cloud metadata stays refused with the setting on, and the error tells nothing of what answered.
  await input.fill('http://169.254.169.254/latest/meta-data/');
  await page.getByTestId('add-feed-submit').click();
  await expect(error).toContainText('never connects');
  await expect(error).not.toContainText('Allow local network feeds');
});
