/**
 * Issue 9, search: each operator (AND, OR, -NOT, "phrases", prefix*), scope (this feed, this
 * folder, everything), matches highlighted, saved searches in the sidebar.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, screenshot } from './support/reading.ts';
import { rssFeed } from './support/servers.ts';

test('search: operators, scope, highlights and saved searches', async ({ page, host, tidings }) => {
  test.setTimeout(120_000);
  const at = (h: number) => new Date(Date.UTC(2026, 10, 20, h));
  host.set(
    '/harbour.xml',
    rssFeed('Harbour Times', [
      {
        title: 'Ferry strike at the harbour',
        guid: 'h1',
        description: 'The ferry crews stopped work.',
        date: at(1),
      },
      {
        title: 'New lighthouse keeper',
        guid: 'h2',
        description: 'A keeper for the old lighthouse.',
        date: at(2),
      },
      {
        title: 'Harbour regatta results',
        guid: 'h3',
        description: 'Sailing boats raced the bay.',
        date: at(3),
      },
    ]),
  );
  host.set(
    '/code.xml',
    rssFeed('Compiler Notes', [
      {
        title: 'Compiling faster',
        guid: 'c1',
        description: 'An incremental compiler for the harbour project.',
        date: at(4),
      },
      {
        title: 'Ferry routes as graphs',
        guid: 'c2',
        description: 'Shortest paths between ports.',
        date: at(5),
      },
    ]),
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/harbour.xml`, 'Harbour Times');
  await addFeed(page, `${host.url}/code.xml`, 'Compiler Notes');
  await page.getByTestId('feed-all').click();

  const input = page.getByTestId('search-input');
  const hits = page.getByTestId('search-hit');
  const titles = async () => (await hits.locator('.search-hit-title').allInnerTexts()).sort();
  async function search(query: string, expected: string[]) {
    await input.fill(query);
    await input.press('Enter');
    await expect.poll(titles, { message: query }).toEqual([...expected].sort());
  }

  await search('harbour', ['Ferry strike at the harbour', 'Harbour regatta results', 'Compiling faster']);
  // Matches are marked, in titles and in snippets.
  await expect(hits.locator('mark').first()).toHaveText(/harbour/i);
  await expect(
    page
      .getByTestId('search-hit')
      .filter({ hasText: 'Compiling faster' })
      .locator('.search-hit-snippet mark'),
  ).toHaveText('harbour');
  await search('ferry harbour', ['Ferry strike at the harbour']);
  await search('lighthouse OR regatta', ['New lighthouse keeper', 'Harbour regatta results']);
  await search('harbour -ferry', ['Harbour regatta results', 'Compiling faster']);
  await search('"old lighthouse"', ['New lighthouse keeper']);
  await search('"lighthouse old"', []);
  await search('compil*', ['Compiling faster']);
  await expect(page.getByTestId('search-results')).toContainText('1 result');
  await screenshot(page, 'search-operators-1280x800');
  expect(await axeViolations(page)).toEqual([]);

  // The syntax is explained one click away.
  await page.getByTestId('search-help').locator('summary').click();
  await expect(page.getByTestId('search-help')).toContainText('either word');

  // Scope: with a feed selected, search looks in that feed; the picker widens it.
  await input.press('Escape');
  await page.getByTestId('feed-row').filter({ hasText: 'Harbour Times' }).click();
  await search('ferry', ['Ferry strike at the harbour']);
  await expect(page.getByTestId('search-scope')).toHaveValue(/^feed:/);
  await page.getByTestId('search-scope').selectOption('all');
  await expect.poll(titles).toEqual(['Ferry routes as graphs', 'Ferry strike at the harbour']);

  // The reading keys walk the results: j selects (and reads), s stars, m marks unread again.
  await page.getByTestId('search-results').focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  const second = hits.nth(1);
  await expect(second).toHaveClass(/selected/);
  await expect(second).toBeFocused();
  await expect(second).not.toHaveClass(/unread/);
  await page.keyboard.press('s');
  await expect(second.getByRole('button', { name: /^Star / })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('m');
  await expect(second).toHaveClass(/unread/);

  // Save it: it appears in the sidebar and runs again from there, with its scope.
  await page.getByTestId('save-search').click();
  await page.getByTestId('saved-search-name').fill('Ferries everywhere');
  await page.getByTestId('saved-search-confirm').click();
  const saved = page.getByTestId('saved-search').filter({ hasText: 'Ferries everywhere' });
  await expect(saved).toBeVisible();
  await input.press('Escape');
  await expect(page.getByTestId('search-results')).toHaveCount(0);
  await saved.click();
  await expect(input).toHaveValue('ferry');
  await expect.poll(titles).toEqual(['Ferry routes as graphs', 'Ferry strike at the harbour']);
  await page.reload();
  await expect(page.getByTestId('saved-search').filter({ hasText: 'Ferries everywhere' })).toBeVisible();
  await screenshot(page, 'saved-searches-1280x800');

  // Renamed and its query changed from the sidebar: the same saved search, not a second one.
  await page.getByRole('button', { name: 'Edit the saved search Ferries everywhere' }).click();
  const editor = page.getByTestId('saved-search-editor');
  await expect(editor.getByTestId('saved-search-edit-name')).toBeFocused();
  await editor.getByTestId('saved-search-edit-name').fill('');
  await editor.getByTestId('saved-search-edit-save').click();
  await expect(editor.getByTestId('saved-search-edit-error')).toContainText('needs a name');
  await editor.getByTestId('saved-search-edit-name').fill('Strikes');
  await editor.getByTestId('saved-search-edit-query').fill('strike');
  await screenshot(page, 'saved-search-editing-1280x800');
  await editor.getByTestId('saved-search-edit-save').click();
  await expect(editor).toHaveCount(0);
  await expect(page.getByTestId('saved-search')).toHaveText(['Strikes']);
  await page.getByTestId('saved-search').click();
  await expect(input).toHaveValue('strike');
  await expect.poll(titles).toEqual(['Ferry strike at the harbour']);
  // Escape leaves it as it was.
  await page.getByRole('button', { name: 'Edit the saved search Strikes' }).click();
  await editor.getByTestId('saved-search-edit-name').fill('Never saved');
  await editor.getByTestId('saved-search-edit-name').press('Escape');
  await page.reload();
  await expect(page.getByTestId('saved-search')).toHaveText(['Strikes']);
});
