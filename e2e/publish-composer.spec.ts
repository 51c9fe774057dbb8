/**
 * The composer in browser mode against a real `tidings serve`: `c` opens it, the counter counts
 * graphemes and turns red past the limit, Post is refused with the reason, a dropped file is
 * attached, a draft survives a reload, and a post goes out (My posts shows its saves and pings,
 * then it arrives in the writer's own river). Edit and delete from My posts.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort } from '../src/net/test-server.ts';
import { expect, test } from './support/fixtures.ts';
import {
  blur,
  editPublishSettings,
  postFromComposer,
  serveFolder,
  serveOn,
  startHostingWriter,
} from './support/publish.ts';
import { axeViolations } from './support/reading.ts';
import { startFeedHost, startTidings } from './support/servers.ts';
import { emit, openWithBridge } from './support/shell-bridge.ts';

const SHOTS = 'test-results/screenshots';
const DOT_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const FAMILY = '👨‍👩‍👧‍👦';

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

test('the counter, the refusal, a dropped file and a kept draft', async ({ page, tidings }) => {
  await page.goto(tidings.openUrl);
  await expect(page.getByTestId('feed-list').or(page.getByTestId('add-feed-input')).first()).toBeVisible();

  // Loaded (the app may move the focus on its own when it knows its feeds): then, in a text
  // field, `c` is typing, not the shortcut.
  await page.waitForLoadState('networkidle');
  await page.getByTestId('add-feed-input').click();
  await page.keyboard.press('c');
  await expect(page.getByTestId('composer')).toBeHidden();
  await expect(page.getByTestId('add-feed-input')).toHaveValue('c');
  await page.getByTestId('add-feed-input').fill('');
  await blur(page);
  await page.keyboard.press('c');
  const composer = page.getByTestId('composer');
  await expect(composer).toBeVisible();
  const text = page.getByTestId('composer-text');
  await expect(text).toBeFocused();
  // This app has no public address (no tunnel): the composer says the post will wait.
  await expect(page.getByTestId('composer-nowhere')).toContainText('Not public yet');

  // 141 ZWJ families: 141 characters as people count them (781 UTF-16 units).
  await text.fill(FAMILY.repeat(141));
  const count = page.getByTestId('composer-count');
  await expect(count).toHaveText('1 over');
  await expect(count).toHaveClass(/over/);
  await page.getByTestId('composer-post').click();
  await expect(page.getByTestId('composer-error')).toContainText('141 characters; the limit is 140 (1 over)');
  await expect(composer).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/publish-composer-over-limit.png` });

  await text.fill(`${FAMILY.repeat(139)}é`);
  await expect(count).toHaveText('0 left');
  await expect(count).not.toHaveClass(/over/);

  // A file too large for browser mode's command channel is refused here, with the way out.
  const huge = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(8 * 1024 * 1024)], 'film.mov', { type: 'video/quicktime' }));
    return dt;
  })()`);
  await composer.dispatchEvent('drop', { dataTransfer: huge });
  await expect(page.getByTestId('composer-error')).toContainText(
    'film.mov is 8 MB; files up to 7 MB can be attached here. Put it online and give its address',
  );
  await expect(page.getByTestId('composer-file')).toHaveCount(0);

  // Drag-and-drop a local file onto the composer: it is read and attached by name and size.
  // (A string script: this file is type-checked without the DOM library.)
  const dataTransfer = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    const png = Uint8Array.from(atob('${DOT_PNG}'), (c) => c.charCodeAt(0));
    dt.items.add(new File([png], 'dot.png', { type: 'image/png' }));
    return dt;
  })()`);
  await composer.dispatchEvent('dragover', { dataTransfer });
  await composer.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByTestId('composer-file')).toContainText('dot.png (70 B)');
  await expect(page.getByTestId('composer-file').locator('img')).toBeVisible(); // a preview of the image

  // A draft survives closing and a reload (it is kept by the core, not the page).
  await text.fill('An unfinished thought');
  await page.getByTestId('composer-tags').fill('drafts, e2e');
  // Closing flushes the draft to the core at once (no waiting for the autosave pause).
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/saveDraft') && r.ok());
  await page.keyboard.press('Escape');
  await expect(composer).toBeHidden();
  await saved;
  await page.reload();
  await page.waitForLoadState('networkidle');
  await blur(page);
  await page.keyboard.press('c');
  await expect(page.getByTestId('composer-text')).toHaveValue('An unfinished thought');
  await expect(page.getByTestId('composer-tags')).toHaveValue('drafts, e2e');
  await expect(page.getByTestId('composer-file')).toContainText('dot.png');

  // Tab stays inside the dialog: back from the text, past the close button, comes Post.
  await page.getByTestId('composer-text').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('composer-post')).toBeFocused();

  // A file dropped anywhere on the window, composer closed, opens it with the file attached,
  // added to the kept draft.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('composer')).toBeHidden();
  const another = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(2048)], 'notes.mp3', { type: 'audio/mpeg' }));
    return dt;
  })()`);
  await page.locator('main').dispatchEvent('dragover', { dataTransfer: another });
  await page.locator('main').dispatchEvent('drop', { dataTransfer: another });
  await expect(page.getByTestId('composer-file')).toContainText('notes.mp3 (2.0 KB)');
  await expect(page.getByTestId('composer-text')).toHaveValue('An unfinished thought');
});

test('a post is published, shown in My posts with its saves and pings, edited and deleted', async ({
  page,
}) => {
  const tidings = await startHostingWriter();
  // An enclosure by URL: the core asks the host for its type and length.
  const media = await startFeedHost();
  media.set('/episode.mp3', {
    body: new Uint8Array(1234),
    type: 'audio/mpeg',
    headers: { 'content-length': '1234' },
  });
  try {
    await publishEditDelete(page, tidings.openUrl, `${media.url}/episode.mp3`);
  } finally {
    await tidings.stop();
    await media.close();
  }
});

async function publishEditDelete(page: Page, openUrl: string, enclosureUrl: string): Promise<void> {
  await page.goto(openUrl);
  await page.getByTestId('new-post').click();
  await page.getByTestId('composer-text').fill('Hello from the composer 👋 <b>not bold</b> & co');
  await page.getByTestId('composer-link').fill('https://example.org/hello');
  await page.getByTestId('composer-tags').fill('hello, tidings');
  await page.getByTestId('composer-enclosure-url').fill(enclosureUrl);
  await expect(page.getByTestId('composer-nowhere')).toBeHidden();
  await page.getByTestId('composer-add-child').click();
  await page.getByTestId('composer-child-input').fill('A sub-item');
  await page.screenshot({ path: `${SHOTS}/publish-composer.png` });
  // An impatient double Ctrl+Enter posts once.
  await page.getByTestId('composer-text').focus();
  await page.keyboard.press('Control+Enter');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('composer')).toBeHidden();

  await page.getByTestId('my-posts-link').click();
  const card = page.getByTestId('post-card').first();
  await expect(card.getByTestId('post-text')).toHaveText('Hello from the composer 👋 <b>not bold</b> & co');
  await expect(page.getByTestId('post-card')).toHaveCount(1);
  await expect(card.getByTestId('post-state')).toHaveText('Published', { timeout: 15_000 });
  await expect(card).toContainText('A sub-item');
  await expect(card).toContainText(`${enclosureUrl} (audio/mpeg, 1234 bytes)`);
  await expect(card).toContainText('hello');
  await expect(card.getByTestId('post-save').first()).toContainText('ok');
  await page.screenshot({ path: `${SHOTS}/publish-my-posts.png`, fullPage: true });
  // My posts is axe-clean in light and dark (its skip link lands on the page, not a missing river).
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `my posts ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Your own posts arrive in your river like anyone's, the markup shown as the text it was.
  await page.getByTestId('my-posts-link').click();
  await expect(page.getByTestId('river')).toContainText('Hello from the composer 👋 <b>not bold</b> & co');
  await page.screenshot({ path: `${SHOTS}/publish-own-river.png` });
  await page.getByTestId('my-posts-link').click();

  // The draft was cleared by posting.
  await blur(page);
  await page.keyboard.press('c');
  await expect(page.getByTestId('composer-text')).toHaveValue('');
  await page.keyboard.press('Escape');

  // Edit: the post is rebuilt and published again.
  await card.getByTestId('post-edit').click();
  await expect(page.getByTestId('composer-text')).toHaveValue(
    'Hello from the composer 👋 <b>not bold</b> & co',
  );
  await page.getByTestId('composer-text').fill('Hello again, edited');
  await page.keyboard.press('Control+Enter');
  await expect(card.getByTestId('post-text')).toHaveText('Hello again, edited');
  await expect(card.getByTestId('post-state')).toHaveText('Published', { timeout: 15_000 });

  // Delete asks once, then the post is gone.
  await card.getByTestId('post-delete').click();
  await card.getByTestId('post-delete-confirm').click();
  await expect(page.getByTestId('post-card')).toHaveCount(0);
}

test('a draft survives a restart of the app', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-e2e-draft-'));
  try {
    const first = await serveOn(dataDir);
    await page.goto(first.openUrl);
    await page.getByTestId('new-post').click();
    await page.getByTestId('composer-text').fill('Written before the restart ✍️');
    await page.getByTestId('composer-link').fill('https://example.org/later');
    // The autosave pause passes while the composer stays open: the draft is kept as it is typed.
    await page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/saveDraft') && r.ok() && (r.request().postData() ?? '').includes('/later'),
    );
    await first.stop();

    const second = await serveOn(dataDir);
    try {
      await page.goto(second.openUrl);
      await page.getByTestId('new-post').click();
      await expect(page.getByTestId('composer-text')).toHaveValue('Written before the restart ✍️');
      await expect(page.getByTestId('composer-link')).toHaveValue('https://example.org/later');
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the desktop shell's New post (tray, menu) opens the composer", async ({ page, tidings }) => {
  // Electron's preload stood in for: main's 'shell.command' event reaches the page as in the app.
  await openWithBridge(page, tidings.openUrl);
  await expect(page.getByTestId('composer')).toBeHidden();
  await emit(page, 'shell.command', { command: 'composer.open' });
  await expect(page.getByTestId('composer')).toBeVisible();
  await expect(page.getByTestId('composer-text')).toBeFocused();
});

test('a ping sink that is down: the post is published where it can be and the ping is retried', async ({
  page,
}) => {
  const deadSink = `http://127.0.0.1:${await freePort()}/ping`; // nothing listens there
  const tidings = await startHostingWriter();
  try {
    await page.goto(tidings.openUrl);
    await editPublishSettings(page, async () => {
      await page.getByText('+ Another service to tell').click();
      await page.getByLabel('Ping 1 kind').selectOption('httpGet');
      await page.getByLabel('Ping 1 address').fill(deadSink);
    });

    await postFromComposer(page, 'Posted while the ping sink is down');
    await page.getByTestId('my-posts-link').click();
    const card = page.getByTestId('post-card').first();
    await expect(card.getByTestId('post-state')).toHaveText('Retrying', { timeout: 15_000 });
    // Saved, the cloud answered; only the sink failed, and it says when it tries again.
    await expect(card.getByTestId('post-save').first()).toContainText('ok');
    const sink = card.getByTestId('post-ping').filter({ hasText: deadSink });
    await expect(sink).toContainText(/failed · .+ · retries in \d+ s/);
    await expect(card.getByTestId('post-ping').filter({ hasText: 'rssCloud ping' })).toContainText('ok');
    await page.screenshot({ path: `${SHOTS}/publish-sink-down.png` });
  } finally {
    await tidings.stop();
  }
});

test('a folder target that cannot be written: a clear error, retried, published once it is fixed', async ({
  page,
}) => {
  const root = mkdtempSync(join(tmpdir(), 'tidings-e2e-folder-'));
  const notAFolder = join(root, 'a-file');
  writeFileSync(notAFolder, 'this is a file, not a folder');
  const site = join(root, 'site');
  mkdirSync(site);
  const web = await serveFolder(site);
  const tidings = await startTidings(['--no-tunnel', '--allow-loopback']);
  const setFolder = (path: string, first: boolean) =>
    editPublishSettings(page, async () => {
      if (first) {
        await page.getByTestId('publish-hosting').uncheck();
        await page.getByTestId('publish-folder').check();
        await page.getByLabel("The folder's public URL").fill(`${web.url}/`);
      }
      await page.getByLabel('Folder path').fill(path);
    });
  try {
    await page.goto(tidings.openUrl);
    await setFolder(notAFolder, true);
    await postFromComposer(page, 'Saved to a folder, eventually');
    await page.getByTestId('my-posts-link').click();
    const card = page.getByTestId('post-card').first();
    await expect(card.getByTestId('post-state')).toHaveText('Retrying', { timeout: 15_000 });
    await expect(card.getByTestId('post-save').first()).toContainText(
      `failed · ${notAFolder} is not a folder.`,
    );
    await expect(card.getByTestId('post-save').first()).toContainText(/retries in \d+ s/);
    await page.screenshot({ path: `${SHOTS}/publish-folder-failed.png` });

    // Once the setting is fixed the next try writes it: saved, pinged, published; nothing was lost.
    await setFolder(site, false);
    await expect(card.getByTestId('post-state')).toHaveText('Published', { timeout: 15_000 });
    await expect(card.getByTestId('post-save').first()).toContainText(`ok · Written to ${site}.`);
    expect(existsSync(join(site, 'feed.xml'))).toBe(true);
    await expect(card.getByTestId('post-text')).toHaveText('Saved to a folder, eventually');
  } finally {
    await tidings.stop();
    await web.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a dropped photo is copied into the data folder, hosted, and shown in My posts', async ({ page }) => {
  const tidings = await startHostingWriter();
  try {
    await page.goto(tidings.openUrl);
    await page.getByTestId('new-post').click();
    await page.getByTestId('composer-text').fill('A photo post');
    // A real 300x160 PNG drawn in the page (a string script: no DOM types in this project).
    const photo = await page.evaluateHandle(`(async () => {
      const c = document.createElement('canvas');
      c.width = 300;
      c.height = 160;
      const g = c.getContext('2d');
      g.fillStyle = '#2563eb';
      g.fillRect(0, 0, 300, 160);
      const blob = await new Promise((r) => c.toBlob(r, 'image/png'));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], 'banner.png', { type: 'image/png' }));
      return dt;
    })()`);
    await page.getByTestId('composer').dispatchEvent('drop', { dataTransfer: photo });
    await expect(page.getByTestId('composer-file')).toContainText('banner.png');
    await page.getByTestId('composer-post').click();

    await page.getByTestId('my-posts-link').click();
    const card = page.getByTestId('post-card').first();
    await expect(card.getByTestId('post-state')).toHaveText('Published', { timeout: 15_000 });
    await expect(card).toContainText(`${tidings.publicUrl}/site/media/`);
    await expect(card).toContainText('(image/png,');
    // The image loads from the built-in hosting: the bytes made the whole trip.
    const image = card.locator('img.post-image');
    await expect
      .poll(() => image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(300);
    await page.screenshot({ path: `${SHOTS}/publish-photo-post.png` });

    // Editing the text keeps the hosted photo (the composer sends back the URL it was shown).
    const before = await card.locator('img.post-image').getAttribute('src');
    await card.getByTestId('post-edit').click();
    await page.getByTestId('composer-text').fill('A photo post, captioned again');
    await page.keyboard.press('Control+Enter');
    await expect(card.getByTestId('post-text')).toHaveText('A photo post, captioned again');
    await expect(card.getByTestId('post-state')).toHaveText('Published', { timeout: 15_000 });
    expect(await card.locator('img.post-image').getAttribute('src')).toBe(before);
  } finally {
    await tidings.stop();
  }
});
