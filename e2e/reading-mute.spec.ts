/**
 * Issue 9, mute filters: a global keyword filter that marks read and a per-feed regex filter
 * that hides, both applied to new items as they arrive; a muted item says why and can be undone.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, screenshot } from './support/reading.ts';
import { type FeedHost, rssFeed } from './support/servers.ts';

const at = (h: number) => new Date(Date.UTC(2026, 10, 20, h));

function serve(host: FeedHost, extra: { title: string; guid: string }[]) {
  host.set(
    '/mute.xml',
    rssFeed('Mixed Bag', [
      { title: 'Gardening in November', guid: 'm1', date: at(1) },
      ...extra.map((e, i) => ({ ...e, description: `${e.title}.`, date: at(2 + i) })),
    ]),
  );
}

test('mute filters apply to new items as they arrive, say why, and can be undone', async ({
  page,
  host,
  tidings,
}) => {
  serve(host, []);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/mute.xml`, 'Mixed Bag');
  const row = page.getByTestId('feed-row').filter({ hasText: 'Mixed Bag' });

  // A global filter from Settings: the word "crypto" marks items read.
  await page.getByTestId('settings-toggle').click();
  const settings = page.getByTestId('settings-panel');
  await settings.getByTestId('mute-pattern').fill('crypto');
  await settings.getByRole('combobox', { name: 'Then' }).selectOption('markRead');
  await settings.getByTestId('mute-add').click();
  await expect(settings.getByTestId('mute-filter')).toContainText('crypto');
  // Like every field in Settings, it waits for Save (issue 35).
  await expect(settings.getByTestId('mute-filter')).toContainText('not saved yet');
  await settings.getByTestId('settings-save').click();
  await expect(settings.getByTestId('settings-result')).toHaveText('Saved.');
  await expect(settings.getByTestId('mute-filter')).not.toContainText('not saved yet');
  await page.getByTestId('settings-toggle').click();

  // A per-feed filter from the feed's settings: the regex ^Sponsored hides items.
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-settings').click();
  const dialog = page.getByTestId('feed-settings-dialog');
  await dialog.getByRole('combobox', { name: 'Match' }).selectOption('regex');
  await dialog.getByTestId('mute-pattern').fill('^sponsored');
  await dialog.getByTestId('mute-add').click();
  await expect(dialog.getByTestId('mute-filter')).toContainText('^sponsored');
  // A bad regex is refused in words and nothing is added.
  await dialog.getByTestId('mute-pattern').fill('([');
  await dialog.getByTestId('mute-add').click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expect(dialog.getByTestId('mute-filter')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // New items arrive.
  serve(host, [
    { title: 'Crypto winter is here', guid: 'm2' },
    { title: 'Sponsored: a better mattress', guid: 'm3' },
    { title: 'Autumn leaves', guid: 'm4' },
  ]);
  await row.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  const river = page.getByTestId('river');
  await expect(river).toContainText('Autumn leaves');
  await expect(river).not.toContainText('a better mattress');
  const crypto = page.getByTestId('river-item').filter({ hasText: 'Crypto winter' });
  await expect(crypto.getByTestId('muted-note')).toContainText('crypto');
  await expect(crypto).not.toHaveClass(/unread/);
  // Gardening + Autumn are unread; the muted one is not counted.
  await expect(row.locator('.count')).toHaveText('2 unread');
  await screenshot(page, 'mute-1280x800');
  expect(await axeViolations(page)).toEqual([]);

  // Undo: unmuted, it is unread again.
  await crypto.getByRole('button', { name: 'Unmute' }).click();
  await expect(crypto.getByTestId('muted-note')).toHaveCount(0);
  await expect(crypto).toHaveClass(/unread/);
  await expect(row.locator('.count')).toHaveText('3 unread');
});
