import { expect, it } from 'vitest';
import { summarizeOpml } from './opml-summary';

it('counts the feeds an OPML file names and previews their titles', () => {
  const text = `<?xml version="1.0"?><opml version="2.0"><body>
    <outline text="Tech">
      <outline text="Scripting News" type="rss" xmlUrl="http://scripting.com/rss.xml"/>
      <outline type="rss" title='Daring &amp; Fireball' xmlUrl='https://daringfireball.net/feeds/main'/>
    </outline>
    <outline type="rss" xmlUrl="https://example.com/untitled.xml"/>
    <outline text="Not a feed" type="link" url="https://example.com/"/>
  </body></opml>`;
  expect(summarizeOpml(text)).toEqual({
    count: 3,
    titles: ['Scripting News', 'Daring & Fireball', 'https://example.com/untitled.xml'],
  });
  expect(summarizeOpml(text, 1).titles).toEqual(['Scripting News']);
  expect(summarizeOpml('<html>no</html>')).toEqual({ count: 0, titles: [] });
});
