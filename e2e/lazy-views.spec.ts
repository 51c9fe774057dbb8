/**
 * Start-up order (components/lazy-view.tsx, components/use-first-paint.ts): the river's first page
 * comes before the views a reader opens later (composer, settings, activity, search results,
 * My posts, dialogs), which load in the background right after it; and a view whose code cannot be
 * loaded says so in place while the rest of the page works on.
 */
import { expect, test } from './support/fixtures.ts';
import { rssFeed } from './support/servers.ts';

/** The chunks of the views that are not needed for the first river paint. */
const LAZY_CHUNK =
  /\/assets\/(ComposerDialog|SettingsPanel|ActivityLog|SearchResults|MyPosts|PublishSettings|ShortcutsHelp|FeedSettingsDialog|FolderDialog)-[^/]+\.js$/;

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    title: `Story ${i + 1}`,
    guid: `lazy-${i + 1}`,
    date: new Date(Date.UTC(2026, 10, 20, 9, i)),
  }));

test('the river paints before the later views load; once loaded they open without the server', async ({
  page,
  host,
  tidings,
}) => {
  host.set('/feed.xml', rssFeed('Early Feed', items(12)));
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/feed.xml`);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('river-item').first()).toBeVisible();

  // A fresh load, watched from the start: which chunks were asked for before the first item showed.
  const asked: string[] = [];
  let askedBeforeRiver: string[] | null = null;
  page.on('request', (request) => {
    if (LAZY_CHUNK.test(request.url())) asked.push(new URL(request.url()).pathname);
  });
  page.on('console', (message) => {
    if (message.text() === 'e2e:first-item' && askedBeforeRiver === null) askedBeforeRiver = [...asked];
  });
  await page.addInitScript({
    content: `new MutationObserver((_, obs) => {
      if (document.querySelector('[data-testid="river-item"]')) { obs.disconnect(); console.debug('e2e:first-item'); }
    }).observe(document, { childList: true, subtree: true });`,
  });
  // A slow start (a loaded machine, a slow disk): the river's first page takes 3 s to come. The
  // views that can wait still wait for it, however long it takes (they raced a timer before).
  let slowed = false;
  await page.route('**/api/river', async (route) => {
    if (!slowed) {
      slowed = true;
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    await route.continue();
  });
  await page.reload();
  await expect(page.getByTestId('river-item').first()).toBeVisible();
  expect(slowed).toBe(true);
  await expect.poll(() => askedBeforeRiver).not.toBeNull();
  expect(askedBeforeRiver).toEqual([]);
  await page.unroute('**/api/river');
  // Then all of them, in the background, without anything being opened.
  await expect.poll(() => new Set(asked.map((path) => path.split('/').pop()?.split('-')[0])).size).toBe(9);

  // Loaded means loaded: with the assets unreachable, the views still open.
  await page.route('**/assets/**', (route) => route.abort());
  await page.getByTestId('settings-toggle').click();
  await expect(page.getByTestId('settings-panel')).toBeVisible();
  await page.getByTestId('settings-toggle').click();
  await page.getByTestId('river').focus();
  await page.keyboard.press('c');
  await expect(page.getByTestId('composer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('composer')).toBeHidden();
});

test('a view whose code cannot be loaded says so, and the river goes on working', async ({
  page,
  host,
  tidings,
}) => {
  host.set('/feed.xml', rssFeed('Steady Feed', items(5)));
  await page.route(/\/assets\/SettingsPanel-[^/]+\.js$/, (route) => route.abort());
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/feed.xml`);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('river-item')).toHaveCount(5);

  await page.getByTestId('settings-toggle').click();
  await expect(page.getByRole('alert').filter({ hasText: 'Settings could not be loaded' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/view-load-failed.png' });

  // Settings is a page in the river's place (issue 17): leaving it, the river is back and works,
  // the keys still read it, other views still open.
  await page.getByTestId('settings-toggle').click();
  await page.getByTestId('river').focus();
  await page.keyboard.press('j');
  await expect(page.locator('[data-testid="river-item"].selected')).toContainText('Story 5');
  await page.getByTestId('activity-toggle').click();
  await expect(page.getByTestId('activity-log')).toBeVisible();
});
