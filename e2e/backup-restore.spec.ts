/**
 * Issue 32 in Settings, browser mode: Back up… makes a file the browser downloads (its secrets
 * sealed with a passphrase typed in the dialog), Restore… takes that file back as an upload, says
 * what it holds and what it replaces, refuses a wrong passphrase and a file that is not a backup,
 * and after confirming puts the backed-up river back: the page reloads on the restored data.
 * Screenshots at 1280x800 and 480x800, light and dark, and axe on every dialog.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import {
  addFeed,
  axeViolations,
  screenshot,
  serveLibrary,
  showAll,
  smallToggles,
} from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

const PASSPHRASE = 'a passphrase for the e2e';
const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '480x800', width: 480, height: 800 },
] as const;

/** The dialog in both schemes and both sizes: a screenshot each, and axe clean each. */
async function lookAt(page: Page, testId: string, name: string): Promise<void> {
  const dialog = page.getByTestId(testId);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await expect(dialog).toBeVisible();
      await screenshot(page, `backup-${name}-${scheme}-${size.name}`);
      expect.soft(await axeViolations(page), `${name} ${scheme} ${size.name}`).toEqual([]);
      expect.soft(await smallToggles(dialog), `${name} ${scheme} ${size.name}`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const titles = (page: Page) => page.getByTestId('feed-row').allTextContents();

test('back up from Settings, then restore that file over changed data', async ({
  page,
  host,
  tidings,
}, info) => {
  test.setTimeout(180_000);
  const library = serveLibrary(host);
  host.set('/members.xml', {
    body: rssFeed('Members Only', [
      { title: 'For members', guid: 'm1', date: new Date('2026-11-21T08:00:00Z') },
    ]),
    basicAuth: { username: 'member', password: 'e2e-feed-password' },
  });
  await page.goto(tidings.openUrl);
  for (const feed of library) await addFeed(page, `${host.url}${feed.path}`, feed.title);
  await page.getByTestId('add-feed-input').fill(`${host.url}/members.xml`);
  await page.getByTestId('add-feed-login').locator('summary').click();
  await page.getByTestId('add-feed-username').fill('member');
  await page.getByTestId('add-feed-password').fill('e2e-feed-password');
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('feed-row').filter({ hasText: 'Members Only' })).toBeVisible();
  await showAll(page);
  const starred = page.getByTestId('river-item').filter({ hasText: 'about the compiler' });
  await starred.getByTestId('star-toggle').click();
  await expect(starred.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'true');

  // Back up…: what goes in, and the secret (the members feed's login) sealed with a passphrase.
  await page.getByTestId('settings-toggle').click();
  const panel = page.getByTestId('settings-panel');
  await panel.getByRole('link', { name: 'Backup' }).click();
  await panel.getByTestId('backup-open').click();
  const backup = page.getByTestId('backup-dialog');
  await expect(backup.getByTestId('backup-holds')).toContainText(
    'The file will hold 4 feeds, 10 items (1 starred)',
  );
  await expect(backup).toContainText('Secrets: feed logins: 1');
  await backup.getByTestId('backup-passphrase').fill(PASSPHRASE);
  await backup.getByTestId('backup-passphrase-again').fill('not the same');
  await lookAt(page, 'backup-dialog', 'make');
  await backup.getByTestId('backup-make').click();
  await expect(backup.getByRole('alert')).toHaveText('The two passphrases differ.');
  await backup.getByTestId('backup-passphrase-again').fill(PASSPHRASE);
  const downloading = page.waitForEvent('download');
  await backup.getByTestId('backup-make').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tidings-\d{4}-\d\d-\d\d\.tidings-backup$/);
  const file = info.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  await expect(backup.getByTestId('backup-done')).toContainText(`Saved as ${download.suggestedFilename()}`);
  await expect(backup.getByTestId('backup-done')).toContainText('sealed with your passphrase');
  await lookAt(page, 'backup-dialog', 'done');
  await backup.getByTestId('backup-close').click();
  // What the backup holds: the feeds as they are now. (Reading marks the items scrolled past read
  // a moment later, so the counts are read after the backup, while Settings hides the river.)
  const feedsBefore = await titles(page);

  // A file that is not a backup: refused, nothing changed.
  const notBackup = info.outputPath('notes.tidings-backup');
  writeFileSync(notBackup, 'just some notes');
  await panel.getByTestId('restore-input').setInputFiles(notBackup);
  const restore = page.getByTestId('restore-dialog');
  await expect(restore.getByTestId('restore-refused')).toContainText('not a Tidings backup');
  await expect(restore).toContainText('Nothing was changed.');
  await screenshot(page, 'backup-restore-refused-light-1280x800');
  await restore.getByTestId('restore-close').click();

  // What happens after the backup, to be undone by the restore: a new feed, the star taken off.
  await page.getByTestId('settings-toggle').click();
  host.set('/later.xml', rssFeed('Added Later', [{ title: 'later item', guid: 'l1' }]));
  await addFeed(page, `${host.url}/later.xml`, 'Added Later');
  await showAll(page);
  await starred.getByTestId('star-toggle').click();
  await expect(starred.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'false');

  // Restore…: the upload is checked and described; a wrong passphrase is refused in the dialog.
  await page.getByTestId('settings-toggle').click();
  await panel.getByTestId('restore-input').setInputFiles(file);
  await expect(restore.getByTestId('restore-holds')).toContainText('it holds 4 feeds, 10 items (1 starred)');
  await expect(restore.getByTestId('restore-replaces')).toContainText(
    'Restoring replaces what Tidings holds now: 5 feeds, 11 items',
  );
  await expect(restore.getByTestId('restore-replaces')).toContainText(join(tidings.dataDir, 'replaced'));
  await expect(restore.getByTestId('restore-confirm')).toHaveText('Replace my data');
  await lookAt(page, 'restore-dialog', 'restore');
  await restore.getByTestId('restore-passphrase').fill('the wrong passphrase');
  await restore.getByTestId('restore-confirm').click();
  await expect(restore.getByRole('alert')).toContainText('passphrase does not open');
  await restore.getByTestId('restore-passphrase').fill(PASSPHRASE);
  await restore.getByTestId('restore-confirm').click();
  await expect(restore.getByTestId('restore-done')).toContainText('Restored 4 feeds, 10 items (1 starred)');

  // The page loads again on the restored data: the backed-up feeds, the star back, and a word on what happened.
  await expect(page.getByTestId('toasts').or(page.locator('.toasts'))).toContainText(
    'Restored from a backup',
    {
      timeout: 15_000,
    },
  );
  await expect.poll(() => titles(page)).toEqual(feedsBefore);
  await showAll(page);
  await expect(starred.getByTestId('star-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('feed-row').filter({ hasText: 'Members Only' })).not.toContainText('!');
  await screenshot(page, 'backup-restored-river-light-1280x800');
  expect.soft(await axeViolations(page), 'restored river').toEqual([]);
});
