/**
 * Issue 35, full text inside the app: `t` (or the Full text button) shows the article, fetched by
 * the core and extracted there, sanitised like any item, inside the card; opening it again after a
 * reload reads the core's cache (the page is not fetched again). A page that is no article says so
 * and offers the browser. A feed set to "always show full text" shows its items' articles by itself.
 */
import { expect, test } from './support/fixtures.ts';
import { everyView } from './support/habits.ts';
import { addFeed } from './support/reading.ts';
import type { FeedHost } from './support/servers.ts';

function serveArticles(host: FeedHost): void {
  const u = host.url;
  const paragraphs = (topic: string, n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<p>Paragraph ${i + 1} about ${topic}: the council met on the river bank, heard from the boat clubs, and agreed to measure the water again in spring, with <a href="/notes/${i}">the notes</a> kept online.</p>`,
    ).join('');
  host.set('/articles/otters', {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><title>Otters return - Loopback Times</title></head><body>
      <nav><a href="/">Home</a><a href="/sport">Sport</a></nav>
      <article><h1>Otters return to the river</h1>${paragraphs('otters', 8)}
      <img src="/pic.png" alt="An otter"><script>document.title='pwned'</script>
      <p onclick="alert(1)">Said the warden, <a href="javascript:alert(1)">quietly</a>.</p></article>
      <footer>Privacy policy</footer></body></html>`,
  });
  host.set('/articles/video', { type: 'text/html', body: '<html><body><p>Watch.</p></body></html>' });
  const item = (slug: string, title: string, h: number) =>
    `<item><title>${title}</title><guid>${slug}</guid><link>${u}/articles/${slug}</link>
     <description>A short summary of ${title.toLowerCase()}.</description>
     <pubDate>${new Date(Date.now() - h * 3_600_000).toUTCString()}</pubDate></item>`;
  host.set(
    '/times.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback Times</title><link>${u}/</link>
     ${item('otters', 'Otters return', 1)}${item('video', 'A video page', 2)}</channel></rss>`,
  );
}

test('t shows the article inside the app, from the cache after a reload; no article says why', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(180_000);
  serveArticles(host);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/times.xml`, 'Loopback Times');
  const otters = page.getByTestId('river-item').filter({ hasText: 'Otters return' });
  await expect(otters).toBeVisible();
  await page.getByTestId('river').focus();
  await page.keyboard.press('j');
  await expect(otters).toHaveClass(/selected/);
  await page.keyboard.press('t');
  const article = otters.getByTestId('article');
  await expect(article).toContainText('Paragraph 8 about otters');
  await expect(article).toContainText('Reader view');
  // Sanitised like any item: no script ran, no handler or javascript: link came through.
  await expect(page).not.toHaveTitle('pwned');
  expect(await article.locator('[onclick], script, a[href^="javascript"]').count()).toBe(0);
  // The menu and footer are not the article; relative links point at the article's site.
  await expect(article).not.toContainText('Privacy policy');
  await expect(article.locator('a', { hasText: 'the notes' }).first()).toHaveAttribute(
    'href',
    `${host.url}/notes/0`,
  );
  // Opening the article is reading it.
  await expect(otters).toHaveAttribute('data-read', 'true');
  await expect(otters.getByTestId('full-text-toggle')).toHaveAttribute('aria-pressed', 'true');
  await everyView(page, 'full-text', async () => {
    await otters.scrollIntoViewIfNeeded();
  });
  expect(host.hits('/articles/otters')).toBe(1);

  // t again: the feed's own text.
  await page.getByTestId('river').focus();
  await page.keyboard.press('t');
  await expect(otters.getByTestId('article')).toHaveCount(0);
  await expect(otters).toContainText('A short summary of otters return');

  // After a reload, from the core's cache: the page is not fetched again.
  await page.reload();
  await expect(otters).toBeVisible();
  await otters.getByTestId('full-text-toggle').click();
  await expect(otters.getByTestId('article')).toContainText('Paragraph 8 about otters');
  expect(host.hits('/articles/otters')).toBe(1);

  // A page with no article: why, and the way to the browser.
  const video = page.getByTestId('river-item').filter({ hasText: 'A video page' });
  await video.getByTestId('full-text-toggle').click();
  const error = video.getByTestId('article-error');
  await expect(error).toContainText('does not look like an article');
  await expect(error.getByRole('link', { name: 'Open it in the browser' })).toHaveAttribute(
    'href',
    `${host.url}/articles/video`,
  );
  await everyView(page, 'full-text-error', async () => {
    await video.scrollIntoViewIfNeeded();
  });
});

test('a feed set to always show full text shows its articles by itself', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  serveArticles(host);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/times.xml`, 'Loopback Times');
  const row = page.getByTestId('feed-row').filter({ hasText: 'Loopback Times' });
  const always = page.getByTestId('feed-settings-full-text');
  // The feed's settings, opened at each size (on a narrow window the feed list is a drawer).
  const dialog = page.getByTestId('feed-settings-dialog');
  const openSettings = async () => {
    if (await always.isVisible()) return;
    // Made narrow with the dialog open, the drawer hid it: close it, open it again from the drawer.
    if ((await dialog.count()) > 0) {
      await dialog.locator('button', { hasText: 'Cancel' }).dispatchEvent('click');
      await expect(dialog).toHaveCount(0);
    }
    if (!(await row.isVisible())) await page.getByTestId('sidebar-toggle').click();
    await row.getByTestId('feed-menu-button').click();
    await page.getByTestId('feed-settings').click();
    await expect(always).toBeVisible();
  };
  await openSettings();
  await expect(always).not.toBeChecked();
  await everyView(page, 'full-text-feed-setting', openSettings);
  await openSettings();
  await always.check();
  await page.getByTestId('feed-settings-save').click();
  const otters = page.getByTestId('river-item').filter({ hasText: 'Otters return' });
  await expect(otters.getByTestId('article')).toContainText('Paragraph 1 about otters');
  // Kept: after a reload, still the article.
  await page.reload();
  await expect(otters.getByTestId('article')).toContainText('Paragraph 1 about otters');
});

test('the help sheet lists the new keys: t, and the player’s', async ({ page, host, tidings }) => {
  test.setTimeout(90_000);
  serveArticles(host);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/times.xml`, 'Loopback Times');
  await page.getByTestId('river').focus();
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help).toBeVisible();
  for (const [key, label] of [
    ['t', 'Full text (reader view) / the feed’s text'],
    ['Shift+P', 'Play / pause'],
    ['←', 'Back 15 seconds'],
    ['→', 'Forward 30 seconds'],
    ['[', 'Slower'],
    [']', 'Faster'],
    ['Space', 'Page down, then the next unread item'],
  ] as const) {
    await expect(help.locator('.shortcut-row').filter({ hasText: label })).toContainText(key);
  }
  await everyView(page, 'help-new-keys', async () => {
    await help.getByRole('heading', { name: 'Player' }).scrollIntoViewIfNeeded();
  });
});
