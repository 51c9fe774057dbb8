/**
 * Issue 9, folders: created, nested, renamed, moved (menu and drag), opened as one river, marked
 * read and deleted, all from the sidebar; the tree is one Tab stop walked with the arrow keys.
 */
import { expect, test } from './support/fixtures.ts';
import { axeViolations, openLibrary, screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

test('folders: create, nest, move, rename, open as a river, mark read, delete', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  await openLibrary(page, host, tidings.openUrl);
  const row = (title: string) => page.getByTestId('feed-row').filter({ hasText: title });
  const folder = (title: string) => page.getByTestId('folder-row').filter({ hasText: title });

  // Create "Reading", then "Tech" inside it (the dialog's "Inside" picker).
  await page.getByTestId('new-folder').click();
  await page.getByTestId('folder-name').fill('Reading');
  await page.getByTestId('folder-save').click();
  await expect(folder('Reading')).toBeVisible();
  await folder('Reading').getByTestId('folder-menu-button').click();
  await page.getByTestId('folder-new-subfolder').click();
  await page.getByTestId('folder-name').fill('Tech');
  await page.getByTestId('folder-save').click();
  await expect(folder('Tech')).toHaveAttribute('aria-level', '2');

  // Move a feed with its menu ("Move to folder…"), another by dragging it onto the folder.
  await row('Tech Weekly').getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-move').click();
  await page.getByTestId('feed-settings-folder').selectOption({ label: '\u00a0\u00a0Tech' });
  await page.getByTestId('feed-settings-save').click();
  await expect(row('Tech Weekly')).toHaveAttribute('aria-level', '3');
  await row('A Personal Blog').dragTo(folder('Reading').locator('.tree-row'));
  await expect(row('A Personal Blog')).toHaveAttribute('aria-level', '2');

  // Unread totals include subfolders: Reading = its blog (3) + Tech's feed (3).
  await expect(folder('Reading').locator('.count')).toHaveText('6 unread');
  await expect(folder('Tech').locator('.count')).toHaveText('3 unread');

  // Rename a folder in place (F2), and a feed through its menu.
  await folder('Tech').click();
  await folder('Tech').press('F2');
  await page.getByTestId('rename-field').fill('Technology');
  await page.getByTestId('rename-field').press('Enter');
  await expect(folder('Technology')).toBeVisible();
  await row('Loopback News').getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-rename').click();
  await page.getByTestId('rename-field').fill('Harbour Gazette');
  await page.getByTestId('rename-field').press('Enter');
  await expect(row('Harbour Gazette')).toBeVisible();

  // A folder opens as one river of its feeds and its subfolders' feeds.
  await folder('Reading').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reading');
  await expect(page.getByTestId('river-item')).toHaveCount(6);
  await expect(page.getByTestId('river')).not.toContainText('about the harbour');
  await screenshot(page, 'folders-1280x800');
  expect(await axeViolations(page)).toEqual([]);

  // Mark the folder read: its total and its feeds' counts go to zero, other feeds keep theirs.
  await folder('Reading').getByTestId('folder-menu-button').click();
  await page.getByTestId('folder-mark-read').click();
  await expect(folder('Reading').locator('.count')).toHaveCount(0);
  await expect(row('Tech Weekly').locator('.count')).toHaveCount(0);
  await expect(row('Harbour Gazette').locator('.count')).toHaveText('3 unread');
  // "Hide read" keeps only feeds with something unread (and the selected one).
  await page.getByTestId('hide-read-feeds').check();
  await expect(row('A Personal Blog')).toHaveCount(0);
  await expect(row('Tech Weekly')).toHaveCount(0);
  await expect(row('Harbour Gazette')).toBeVisible();
  await page.getByTestId('hide-read-feeds').uncheck();
  await expect(row('Tech Weekly')).toBeVisible();

  // Nested folders survive a reload (the core keeps them); collapsing hides the children.
  await page.reload();
  await expect(row('Tech Weekly')).toHaveAttribute('aria-level', '3');
  await folder('Reading').locator('.twisty').click();
  await expect(folder('Reading')).toHaveAttribute('aria-expanded', 'false');
  await expect(row('Tech Weekly')).toHaveCount(0);
  await folder('Reading').locator('.twisty').click();

  // Delete "Technology": its feed moves up into "Reading"; nothing is unsubscribed.
  page.once('dialog', (d) => void d.accept());
  await folder('Technology').getByTestId('folder-menu-button').click();
  await page.getByTestId('folder-delete').click();
  await expect(folder('Technology')).toHaveCount(0);
  await expect(row('Tech Weekly')).toHaveAttribute('aria-level', '2');
});

test('the feed tree is one Tab stop: arrows walk it, Right/Left fold, Enter opens', async ({
  page,
  host,
  tidings,
}) => {
  await openLibrary(page, host, tidings.openUrl);
  await page.getByTestId('new-folder').click();
  await page.getByTestId('folder-name').fill('Blogs');
  await page.getByTestId('folder-save').click();
  // The new folder's row takes its place first (the rows below it move down one): a drag begun
  // before that starts on whatever row was under the pointer, which a loaded machine showed.
  await expect(page.getByTestId('folder-name')).toHaveCount(0);
  await expect(page.getByTestId('folder-row').filter({ hasText: 'Blogs' })).toBeVisible();
  await page
    .getByTestId('feed-row')
    .filter({ hasText: 'A Personal Blog' })
    .dragTo(page.getByTestId('folder-row').locator('.tree-row'));
  await expect(page.getByTestId('feed-row').filter({ hasText: 'A Personal Blog' })).toHaveAttribute(
    'aria-level',
    '2',
  );

  // Exactly one row of the tree is in the Tab order.
  const tree = page.getByRole('tree', { name: 'Feeds' });
  await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
  await page.getByTestId('feed-all').focus();
  const focused = () => page.locator(':focus').getAttribute('data-key');
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toMatch(/^folder:/);
  await page.keyboard.press('ArrowLeft'); // collapse
  await expect(page.getByTestId('folder-row')).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight'); // expand
  await page.keyboard.press('ArrowRight'); // into the first child
  await expect(page.getByTestId('feed-row').filter({ hasText: 'A Personal Blog' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('A Personal Blog');
  await page.keyboard.press('ArrowLeft'); // to the parent folder
  expect(await focused()).toMatch(/^folder:/);
  await page.keyboard.press('End');
  await expect(page.getByTestId('feed-row').last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('feed-all')).toBeFocused();
  // Shift+F10 opens the row's menu; Escape gives focus back to the row.
  await page.keyboard.press('ArrowDown');
  await screenshot(page, 'tree-keyboard-focus-1280x800');
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect.poll(focused).toMatch(/^folder:/);
  // From a feed's menu to its settings dialog and back, keys only: focus returns to the row.
  await page.keyboard.press('End');
  const last = page.getByTestId('feed-row').last();
  await page.keyboard.press('ContextMenu');
  await page.getByRole('menuitem', { name: 'Settings and filters…' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('feed-settings-dialog')).toBeVisible();
  await expect(page.getByTestId('feed-settings-title')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('feed-settings-dialog')).toHaveCount(0);
  await expect(last).toBeFocused();
  // Tab leaves the tree in one step.
  await page.keyboard.press('Tab');
  await expect(page.locator('[role="tree"] :focus')).toHaveCount(0);
});

test('OPML import keeps nesting and files existing feeds; folder Move to…; a feed interval', async ({
  page,
  host,
  tidings,
}) => {
  const feeds = await openLibrary(page, host, tidings.openUrl, 1);
  const row = (title: string) => page.getByTestId('feed-row').filter({ hasText: title });
  const folder = (title: string) => page.getByTestId('folder-row').filter({ hasText: title });

  // "Tech/Blogs" nests; the feed already followed moves into the file's folder.
  const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
    <outline text="Tech"><outline text="Blogs">
      <outline type="rss" text="A Personal Blog" xmlUrl="${host.url}${feeds[2]!.path}"/>
    </outline>
      <outline type="rss" text="Tech Weekly" xmlUrl="${host.url}${feeds[1]!.path}"/>
    </outline>
    <outline text="News"><outline type="rss" text="Loopback News" xmlUrl="${host.url}${feeds[0]!.path}"/></outline>
  </body></opml>`;
  await page.getByTestId('import-opml-input').setInputFiles({
    name: 'mine.opml',
    mimeType: 'text/x-opml',
    buffer: Buffer.from(opml),
  });
  await expect(folder('Blogs')).toHaveAttribute('aria-level', '2');
  await expect(row('A Personal Blog')).toHaveAttribute('aria-level', '3');
  await expect(row('Tech Weekly')).toHaveAttribute('aria-level', '2');
  await expect(row('Loopback News')).toHaveAttribute('aria-level', '2');
  await expect(folder('News')).toBeVisible();

  // Move "Blogs" to the top level from its menu.
  await folder('Blogs').getByTestId('folder-menu-button').click();
  await page.getByTestId('folder-move').click();
  await page.getByTestId('folder-parent').selectOption({ label: '(top level)' });
  await page.getByTestId('folder-save').click();
  await expect(folder('Blogs')).toHaveAttribute('aria-level', '1');
  await expect(row('A Personal Blog')).toHaveAttribute('aria-level', '2');

  // Drag a folder onto another: it nests there, with its feeds.
  await folder('News').dragTo(folder('Tech').locator('.tree-row'));
  await expect(folder('News')).toHaveAttribute('aria-level', '2');
  await expect(row('Loopback News')).toHaveAttribute('aria-level', '3');

  // A feed's own interval, from its settings: its row says so.
  await row('Loopback News').getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-settings').click();
  await page.getByTestId('feed-settings-interval').fill('15');
  await page.getByTestId('feed-settings-notify').check();
  await page.getByTestId('feed-settings-save').click();
  await expect(row('Loopback News')).toHaveAttribute('title', /15 min/);
  await row('Loopback News').getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-settings').click();
  await expect(page.getByTestId('feed-settings-interval')).toHaveValue('15');
  await expect(page.getByTestId('feed-settings-notify')).toBeChecked();
});

test('a long feed list is windowed: the wheel, the keys and Tab still reach every row', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  const outlines = Array.from({ length: 150 }, (_, i) => {
    const n = String(i).padStart(3, '0');
    host.set(`/many/${n}.xml`, rssFeed(`Many ${n}`, [{ title: `item ${n}`, guid: `m${n}` }]));
    return `<outline type="rss" text="Many ${n}" xmlUrl="${host.url}/many/${n}.xml"/>`;
  });
  await page.goto(tidings.openUrl);
  await page.getByTestId('import-opml-input').setInputFiles({
    name: 'many.opml',
    mimeType: 'text/x-opml',
    buffer: Buffer.from(`<?xml version="1.0"?><opml version="2.0"><body>${outlines.join('')}</body></opml>`),
  });
  const row = (n: number) =>
    page.getByTestId('feed-row').filter({ hasText: `Many ${String(n).padStart(3, '0')}` });
  const list = page.getByTestId('feed-list');
  // All 150 are in the tree ("All" and 150 feeds are its top level), but only those near sight are
  // in the page.
  await expect(page.getByTestId('feed-all')).toHaveAttribute('aria-setsize', '151', { timeout: 60_000 });
  await expect(row(0)).toBeVisible();
  expect(await page.getByTestId('feed-row').count()).toBeLessThan(100);
  await expect(row(149)).toHaveCount(0);

  // The rows in the page sit one under another wherever the list is scrolled: no gap, no overlap.
  async function rowsInSightAreContiguous() {
    // (A string: the e2e sources are type-checked without the DOM's types.)
    const tops = await page.evaluate<{ n: number; top: number; height: number }[]>(`(() => {
      const box = document.querySelector('[data-testid="feed-list"]').getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid="feed-row"]')]
        .map((el) => ({ n: Number(el.textContent.match(/Many (\\d+)/)[1]), rect: el.getBoundingClientRect() }))
        .filter(({ rect }) => rect.bottom > box.top && rect.top < box.bottom)
        .map(({ n, rect }) => ({ n, top: rect.top, height: rect.height }));
    })()`);
    expect(tops.length).toBeGreaterThan(10);
    for (let i = 1; i < tops.length; i++) {
      expect(tops[i]!.n).toBe(tops[i - 1]!.n + 1);
      expect(Math.abs(tops[i]!.top - (tops[i - 1]!.top + tops[i - 1]!.height))).toBeLessThan(1);
    }
    return tops;
  }
  await rowsInSightAreContiguous();

  // The wheel: rows come in as the list scrolls, in order, and a row in sight opens on a click.
  await list.hover();
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 240);
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(1500);
  const middle = await rowsInSightAreContiguous();
  expect(middle[0]!.n).toBeGreaterThan(40);
  await screenshot(page, 'folders-long-list-scrolled-1280x800');
  // The spacers standing for the rows left out are invisible to assistive technology.
  expect(await axeViolations(page)).toEqual([]);
  const target = middle[Math.floor(middle.length / 2)]!.n;
  await row(target).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(
    `Many ${String(target).padStart(3, '0')}`,
  );

  // End and Home reach the last and the first row, each scrolled into sight.
  await page.getByTestId('feed-all').focus();
  await page.keyboard.press('End');
  await expect(row(149)).toBeFocused();
  await expect(row(149)).toBeInViewport();
  await rowsInSightAreContiguous();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('feed-all')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(row(0)).toBeFocused();

  // The focused row stays in the page while the wheel takes the list far away, and the keys go on
  // from it: the next row is focused and scrolled back into sight.
  await list.hover();
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 480);
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(3000);
  await expect(row(140)).toBeInViewport();
  await expect(row(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(row(1)).toBeFocused();
  await expect(row(1)).toBeInViewport();

  // Tab leaves the tree and Shift+Tab comes back to its one stop, though the list was scrolled away.
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 480);
  await expect(row(1)).not.toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(row(1)).not.toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(row(1)).toBeFocused();

  // p from the first feed goes round to the last one, far out of the window, and the list scrolls
  // to show it selected.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  await expect(row(149)).toHaveCount(0);
  await page.evaluate('document.activeElement.blur()');
  await page.keyboard.press('p');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Many 149');
  await expect(row(149)).toHaveAttribute('aria-selected', 'true');
  await expect(row(149)).toBeInViewport();
});
