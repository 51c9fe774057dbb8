/**
 * Issue 17, point 4: one 200-character word in a title, a body, a link and a table cell wraps
 * instead of running under the star button or off the window, at every size, in every view.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, SIZES, screenshot } from './support/reading.ts';

const WORD = `Donaudampfschifffahrts${'gesellschaftskapitaen'.repeat(9)}`.slice(0, 200);

const OVERRUNS = `(() => {
  const bad = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) bad.push('page scrolls sideways');
  for (const item of document.querySelectorAll('[data-testid="river-item"]')) {
    const star = item.querySelector('[data-testid="star-toggle"]').getBoundingClientRect();
    for (const el of item.querySelectorAll('.item-title, .item-text p, .item-text a, .item-text td')) {
      // Where the text itself ends up, not the box around it.
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      if (text.right > star.left + 0.5) bad.push(el.className || el.tagName);
      // A short word beside the long one keeps its line (not a letter per line).
      if (el.textContent === 'short' && text.height > 30) bad.push('short squeezed');
    }
  }
  return bad;
})()`;

test('a 200-character word wraps in titles, bodies, links and tables at every size', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(120_000);
  const body = `<p>Before ${WORD} after.</p><p><a href="http://example.com/${WORD}">http://example.com/${WORD}</a></p>
    <table><tr><th>Name</th><th>Value</th></tr><tr><td>${WORD}</td><td>short</td></tr></table>`;
  host.set(
    '/long.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Long Words</title><link>http://example.com/</link>
    <item><title>${WORD}</title><guid>w1</guid><link>http://example.com/w1</link>
    <description><![CDATA[${body}]]></description><pubDate>${new Date().toUTCString()}</pubDate></item>
    </channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/long.xml`, 'Long Words');
  await expect(page.getByTestId('river-item')).toHaveCount(1);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expect(page.getByTestId('river-item').locator('.item-title')).toBeVisible();
    expect(await page.evaluate(OVERRUNS), `long words at ${size.name}`).toEqual([]);
    await screenshot(page, `long-words-${size.name}`);
    expect.soft(await axeViolations(page), `long words ${size.name}`).toEqual([]);
  }
});
