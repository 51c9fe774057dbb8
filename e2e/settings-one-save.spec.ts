/**
 * Issue 35, Settings behaves one way: every field waits for Save (the theme and the mute filters
 * too); leaving with edits not saved asks first, in the window (Close, the toolbar, picking a
 * feed) and before a reload or a close (beforeunload); the Real time box says what is in use, as
 * the core reports it; and a wide window's Settings uses its width. At 1280x800 and 480x800,
 * light and dark, axe-clean. Screenshots: test-results/screenshots/settings-one-save-*.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startTunnelServer } from '../src/testing/tunnel-server.ts';
import { expect, test } from './support/fixtures.ts';
import { axeViolations, openLibrary, screenshot } from './support/reading.ts';
import { spawnTidingsOn } from './support/servers.ts';
import { toolbarAction } from './support/toolbar.ts';

const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '480x800', width: 480, height: 800 },
] as const;

async function openSettings(page: Page) {
  await toolbarAction(page, 'settings-toggle');
  const settings = page.getByTestId('settings-panel');
  await expect(settings.getByTestId('settings-interval')).toBeVisible();
  return settings;
}

for (const size of SIZES) {
  test(`every field waits for Save, and leaving unsaved asks first, at ${size.name} (light and dark)`, async ({
    page,
    host,
    tidings,
  }) => {
    test.setTimeout(240_000);
    await openLibrary(page, host, tidings.openUrl, 2);
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const tag = `${size.name}-${scheme}`;
      const settings = await openSettings(page);
      const html = page.locator('html');
      const themeBefore = await html.getAttribute('data-theme');
      const other = themeBefore === 'dark' ? 'light' : 'dark';

      // Edits wait: the theme, a mute filter and the interval change nothing until Save.
      await settings.getByTestId(`settings-theme-${other}`).check();
      await settings.getByTestId('mute-pattern').fill(`word${scheme}`);
      await settings.getByTestId('mute-add').click();
      await settings.getByTestId('settings-interval').fill('45');
      await expect(html).toHaveAttribute('data-theme', themeBefore!);
      await expect(settings.getByTestId('mute-filter').filter({ hasText: `word${scheme}` })).toContainText(
        'not saved yet',
      );
      await expect(settings.getByTestId('settings-unsaved')).toHaveText(
        'Not saved yet: Reading, Mute filters',
      );
      await screenshot(page, `settings-one-save-unsaved-${tag}`);
      expect.soft(await axeViolations(page), `unsaved ${tag}`).toEqual([]);

      // Leaving asks first; "Keep editing" keeps the page and the edits.
      await settings.getByRole('button', { name: 'Close settings' }).click();
      const leave = page.getByTestId('settings-leave');
      await expect(leave).toBeVisible();
      await expect(leave).toContainText('Your changes to Reading and Mute filters are not saved yet.');
      await expect(leave.getByTestId('leave-save')).toBeFocused();
      await screenshot(page, `settings-one-save-leave-${tag}`);
      expect.soft(await axeViolations(page), `leave question ${tag}`).toEqual([]);
      await leave.getByTestId('leave-stay').click();
      await expect(leave).toHaveCount(0);
      await expect(settings.getByTestId('settings-interval')).toHaveValue('45');

      // The toolbar's Settings asks too; "Leave without saving" forgets the edits.
      await toolbarAction(page, 'settings-toggle');
      await leave.getByTestId('leave-discard').click();
      await expect(settings).toHaveCount(0);
      await expect(html).toHaveAttribute('data-theme', themeBefore!);
      const again = await openSettings(page);
      await expect(again.getByTestId('settings-interval')).toHaveValue('60');
      await expect(again.getByTestId('mute-filter')).toHaveCount(0);
      await expect(again.getByTestId(`settings-theme-${other}`)).not.toBeChecked();

      // Picking a feed asks too; "Save and leave" saves every section, then shows the feed.
      await again.getByTestId(`settings-theme-${other}`).check();
      await again.getByTestId('mute-pattern').fill(`word${scheme}`);
      await again.getByTestId('mute-add').click();
      if (size.width < 720) await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('feed-row').first().click();
      await leave.getByTestId('leave-save').click();
      await expect(settings).toHaveCount(0);
      await expect(page.getByTestId('river')).toBeVisible();
      await expect(html).toHaveAttribute('data-theme', other);
      const saved = await openSettings(page);
      await expect(saved.getByTestId('mute-filter')).toHaveText(/word.*: hide/);
      await expect(saved.getByTestId('mute-filter')).not.toContainText('not saved yet');
      // Nothing unsaved: leaving does not ask.
      await toolbarAction(page, 'settings-toggle');
      await expect(saved).toHaveCount(0);
      await expect(leave).toHaveCount(0);

      // Back as it was for the next scheme: the theme of the system, no filter.
      const reset = await openSettings(page);
      await reset.getByTestId('settings-theme-system').check();
      await reset.getByRole('button', { name: /^Delete the filter/ }).click();
      await reset.getByTestId('settings-save').click();
      await expect(reset.getByTestId('settings-result')).toHaveText('Saved.');
      await toolbarAction(page, 'settings-toggle');
    }
  });
}

test('a reload or a close with edits not saved asks first (beforeunload); saved, it does not', async ({
  page,
  tidings,
}) => {
  await page.goto(tidings.openUrl);
  const settings = await openSettings(page);
  await settings.getByTestId('settings-retention').fill('12');
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  // Dismissed: the page stays, edits and all.
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);
  await expect(settings.getByTestId('settings-retention')).toHaveValue('12');
  await settings.getByTestId('settings-save').click();
  await expect(settings.getByTestId('settings-result')).toHaveText('Saved.');
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(asked).toEqual(['beforeunload']);
});

test('the Real time box says what is in use: off for this run, or the tunnel and its server', async ({
  page,
  tidings,
}) => {
  await page.goto(tidings.openUrl);
  let settings = await openSettings(page);
  const line = settings.getByTestId('settings-realtime');
  // The fixture starts `tidings serve --no-tunnel`: the box says so, not just "off".
  await expect(line).toHaveText(/^Off for this run \(started with --no-tunnel\)/);
  await expect(line).toHaveAttribute('data-off', 'thisRun');

  // Another run on a loopback tunnel server: the tunnel in use, through that server.
  const tunnel = await startTunnelServer();
  const data = mkdtempSync(join(tmpdir(), 'tidings-e2e-realtime-box-'));
  const run = await spawnTidingsOn(
    data,
    'serve',
    ['--port', '0', '--tunnel-host', tunnel.url],
    /Open (http:\/\/\S+)/,
  );
  try {
    await page.goto(run.ready);
    settings = await openSettings(page);
    await expect(line).toHaveText(
      new RegExp(
        `^In use: a tunnel through 127\\.0\\.0\\.1:${tunnel.port}\\. Clouds call http://[a-z0-9-]+\\.localhost:\\d+\\.$`,
      ),
    );
    await expect(line).toHaveAttribute('data-mode', 'tunnel');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await line.scrollIntoViewIfNeeded();
        await screenshot(page, `settings-one-save-realtime-${size.name}-${scheme}`);
        expect.soft(await axeViolations(page), `real time ${size.name} ${scheme}`).toEqual([]);
      }
    }
  } finally {
    await run.stop();
    await tunnel.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

test('a wide window (1920 px) lays Settings out in two columns; 1280 keeps one', async ({
  page,
  tidings,
}) => {
  await page.goto(tidings.openUrl);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1920, height: 1080 });
    const settings = await openSettings(page);
    const reading = await settings.locator('#settings-reading').boundingBox();
    const realtime = await settings.locator('#settings-realtime').boundingBox();
    // Side by side: the second column starts right of the first, and the page is wider than 760.
    expect(realtime!.x).toBeGreaterThan(reading!.x + reading!.width);
    expect((await settings.locator('.settings-page').boundingBox())!.width).toBeGreaterThan(1100);
    await expect(settings.getByTestId('settings-save')).toBeInViewport();
    await screenshot(page, `settings-one-save-1920-${scheme}`);
    expect.soft(await axeViolations(page), `1920 ${scheme}`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    const narrow = await settings.locator('#settings-realtime').boundingBox();
    expect(Math.abs(narrow!.x - (await settings.locator('#settings-reading').boundingBox())!.x)).toBeLessThan(
      2,
    );
    await toolbarAction(page, 'settings-toggle');
  }
});
