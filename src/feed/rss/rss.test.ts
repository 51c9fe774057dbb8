import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Feed, Item } from '../model.ts';
import { parseFeed } from '../parse.ts';
import type { ParseOptions } from '../parse-types.ts';

const fixture = (name: string) => readFileSync(new URL(`../testdata/${name}`, import.meta.url));

function feedOf(body: Uint8Array | string, opts?: ParseOptions): Feed {
  const r = parseFeed(body, opts);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r)}`);
  return r.feed;
}

describe('RSS versions', () => {
  it.each([
    ['rss091.xml', 'rss0.91'],
    ['rss092.xml', 'rss0.92'],
    ['rss093.xml', 'rss0.93'],
    ['rss094.xml', 'rss0.94'],
    ['rss20-namespaces.xml', 'rss2.0'],
  ])('%s is %s', (file, format) => {
    expect(feedOf(fixture(file)).format).toBe(format);
  });

  it.each([
    ['<rss><channel><title>x</title></channel></rss>', 'rss2.0'],
    ['<rss version="2.0.1"><channel/></rss>', 'rss2.0'],
    ['<rss version="3.7"><channel/></rss>', 'rss2.0'],
    ['<rss version="0.90"><channel/></rss>', 'rss0.90'],
  ])('version attribute of %s -> %s', (xml, format) => {
    expect(feedOf(xml).format).toBe(format);
  });
});

describe('RSS 0.91 (Netscape DTD, HTML entities)', () => {
  const feed = feedOf(fixture('rss091.xml'));

  it('parses despite the DOCTYPE and decodes HTML entities', () => {
    expect(feed.title).toBe('WriteTheWeb');
    expect(feed.items[0]!.title).toBe('Giving the world a pluggable\u00a0Gnutella');
    expect(feed.items[0]!.summary).toContain('Gnutella\u2014allowing');
    expect(feed.items[0]!.summary).toContain('routing \u00e9t\u00e9.');
  });

  it('reads image, skipHours (24 is midnight, deduped) and skipDays (capitalised, unknown dropped)', () => {
    expect(feed.image).toEqual({
      url: 'http://writetheweb.com/images/mynetscape88.gif',
      title: 'WriteTheWeb',
      link: 'http://writetheweb.com',
    });
    expect(feed.skipHours).toEqual([0, 5]);
    expect(feed.skipDays).toEqual(['Saturday', 'Sunday']);
  });
});

describe('RSS 0.92 cloud and enclosures', () => {
  const feed = feedOf(fixture('rss092.xml'));

  it('reads <cloud> with a numeric port', () => {
    expect(feed.cloud).toEqual({
      domain: 'data.ourfavoritesongs.com',
      port: 80,
      path: '/RPC2',
      registerProcedure: 'ourFavoriteSongs.rssPleaseNotify',
      protocol: 'xml-rpc',
    });
  });

  it('reads title-less items with enclosures and entity-escaped HTML descriptions', () => {
    expect(feed.items[0]!.title).toBeNull();
    expect(feed.items[0]!.enclosures).toEqual([
      {
        url: 'http://www.scripting.com/mp3s/weatherReportDicksPicsVol7.mp3',
        type: 'audio/mpeg',
        length: 6182912,
      },
    ]);
    expect(feed.items[1]!.summary).toBe(
      'Kevin Drennan started a <a href="http://deadend.editthispage.com/">Grateful Dead Weblog</a>.',
    );
  });
});

describe('RSS 2.0 with namespaces', () => {
  const feed = feedOf(fixture('rss20-namespaces.xml'));
  const [full, fallbacks, outlined, podcast] = feed.items as [Item, Item, Item, Item];

  it('reads channel elements, ttl and dates', () => {
    expect(feed).toMatchObject({
      title: 'Namespaces & More',
      link: 'https://example.com/',
      language: 'en',
      generator: 'Hand-written',
      published: '2024-05-06T08:00:00.000Z',
      updated: '2024-05-06T09:30:00.000Z',
      ttl: 30,
    });
  });

  it('matches namespaces by URI whatever the prefix (a: for Atom, m: for Media RSS)', () => {
    expect(feed.self).toBe('https://example.com/feed.xml');
    expect(feed.hubs).toEqual(['https://hub.example.net/', 'https://websub.example.org/hub']);
    expect(full.media[0]!.url).toBe('https://example.com/video/1.mp4');
  });

  it('reads sy:update* into feed.sy', () => {
    expect(feed.sy).toEqual({
      updatePeriod: 'hourly',
      updateFrequency: 2,
      updateBase: '2000-01-01T12:00:00.000Z',
    });
  });

  it('turns source:cloud into feed.cloud when there is no <cloud>', () => {
    expect(feed.cloud).toEqual({
      domain: 'rpc.rsscloud.io',
      port: 443,
      path: '/pleaseNotify',
      registerProcedure: '',
      protocol: 'https-post',
    });
  });

  it('uses itunes:image as the feed image when there is no <image>', () => {
    expect(feed.image).toEqual({ url: 'https://example.com/cover.jpg', title: null, link: null });
  });

  it('keeps description as summary and content:encoded as content, both as HTML', () => {
    expect(full.summary).toBe('<p>Short <b>summary</b> &amp; more</p>');
    expect(full.content).toBe('<p>The <em>whole</em> story.</p>');
  });

  it('reads dc:creator, categories (with domain), dc:subject and media:category', () => {
    expect(full.authors).toEqual([{ name: 'Jane Doe', email: null, uri: null }]);
    expect(full.categories).toEqual([
      { term: 'feeds', scheme: 'https://example.com/tags', label: null },
      { term: 'Testing', scheme: null, label: null },
      { term: 'Video', scheme: 'urn:media', label: null },
    ]);
  });

  it('reads media:content, its thumbnail and media:group (group title and thumbnail inherited)', () => {
    expect(full.media).toEqual([
      {
        url: 'https://example.com/video/1.mp4',
        type: 'video/mp4',
        medium: 'video',
        width: 1280,
        height: 720,
        title: 'Clip one',
        thumbnail: 'https://example.com/video/1.jpg',
      },
      {
        url: 'https://example.com/video/1-low.mp4',
        type: 'video/mp4',
        medium: null,
        width: null,
        height: null,
        title: 'Group title',
        thumbnail: 'https://example.com/group.jpg',
      },
      {
        url: 'https://example.com/video/1-high.mp4',
        type: 'video/mp4',
        medium: null,
        width: null,
        height: null,
        title: 'Group title',
        thumbnail: 'https://example.com/group.jpg',
      },
    ]);
    expect(full.enclosures).toEqual([
      { url: 'https://example.com/audio/1.mp3', type: 'audio/mpeg', length: 12345 },
    ]);
    expect(full.comments).toBe('https://example.com/posts/1#comments');
    expect(full.published).toBe('2024-05-06T06:00:00.000Z');
    expect(full.id).toBe('item-1');
  });

  it('falls back to atom:link, dc:date, itunes:summary and a lone media:thumbnail', () => {
    expect(fallbacks.link).toBe('https://example.com/posts/2');
    expect(fallbacks.published).toBe('2024-05-05T10:00:00.000Z');
    expect(fallbacks.summary).toBe('Only an iTunes summary.');
    expect(fallbacks.media).toEqual([
      {
        url: null,
        type: null,
        medium: 'image',
        width: null,
        height: null,
        title: 'Thumb only',
        thumbnail: 'https://example.com/thumb2.jpg',
      },
    ]);
  });

  it('parses "email (Name)" authors and uses a permalink guid as the link', () => {
    expect(outlined.authors).toEqual([{ name: 'Eddie Editor', email: 'editor@example.com', uri: null }]);
    expect(outlined.link).toBe('https://example.com/posts/3');
    expect(outlined.id).toBe('https://example.com/posts/3');
  });

  it('gives items without authors the channel itunes:author', () => {
    expect(podcast.authors).toEqual([{ name: 'Channel Host', email: null, uri: null }]);
  });

  it('turns source:outline into nested children (text -> title, url/htmlUrl -> link)', () => {
    const [top] = outlined.children;
    expect(top).toMatchObject({ title: 'Top', link: 'https://example.com/top' });
    const [middle] = top!.children;
    expect(middle).toMatchObject({
      title: 'Middle bold',
      summary: 'Middle <b>bold</b>',
      link: 'https://example.com/middle',
      published: '2024-05-07T10:00:00.000Z',
    });
    expect(middle!.children.map((c) => c.title)).toEqual(['Bottom']);
    for (const c of [top!, middle!, middle!.children[0]!]) expect(c.id).toMatch(/^hash:[0-9a-f]{40}$/);
  });

  it('does not turn source:markdown into anything', () => {
    expect(JSON.stringify(outlined)).not.toContain('markdown');
  });
});

describe('rssCloud:item nesting', () => {
  const feed = feedOf(fixture('rss20-rsscloud-nested.xml'));

  it('keeps items inside items to depth 3 and beyond, with ids at every level', () => {
    const [l1] = feed.items;
    expect(l1!.title).toBe('Level 1');
    expect(l1!.children.map((c) => c.title)).toEqual(['Level 2a', 'Level 2b']);
    const l3 = l1!.children[0]!.children[0]!;
    expect(l3).toMatchObject({ title: 'Level 3', link: 'http://threads.example.com/3' });
    expect(l3.children.map((c) => c.title)).toEqual(['Level 4']);
    expect(l1!.children[0]!.id).toBe('l2a');
    expect(l3.id).toMatch(/^hash:/);
    expect(l3.children[0]!.id).toMatch(/^hash:/);
  });

  it('reads an undeclared rsscloud: prefix as well', () => {
    const xml =
      '<rss version="2.0"><channel><title>t</title><item><title>p</title>' +
      '<rsscloud:item><title>c</title></rsscloud:item></item></channel></rss>';
    expect(feedOf(xml).items[0]!.children.map((c) => c.title)).toEqual(['c']);
  });
});

describe('RSS odds and ends', () => {
  it.each([
    ['Tom &amp; Jerry', 'Tom & Jerry'],
    ['AT&amp;amp;T &amp;#8217;s', 'AT&T \u2019s'], // escaped twice
    ['<![CDATA[<b>Bold</b> move]]>', 'Bold move'],
    ['<![CDATA[Rock &amp; Roll]]>', 'Rock & Roll'],
    ['  Two\n   lines  ', 'Two lines'],
    ['&lt;script&gt; is a tag', '<script> is a tag'], // text about a tag (issue 34)
  ])('an RSS title %j reads as %j', (title, expected) => {
    expect(feedOf(`<rss><channel><item><title>${title}</title></item></channel></rss>`).items[0]!.title).toBe(
      expected,
    );
  });

  it('reads item-level itunes:image, itunes:category and media:credit as fallbacks', () => {
    const xml = `<rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/">
      <channel><item><guid>e1</guid>
        <itunes:image href="https://pod.example/e1.jpg"/>
        <itunes:category text="Arts"><itunes:category text="Design"/></itunes:category>
        <media:credit role="author">Credited Person</media:credit>
      </item></channel></rss>`;
    const item = feedOf(xml).items[0]!;
    expect(item.media).toEqual([
      {
        url: 'https://pod.example/e1.jpg',
        type: null,
        medium: 'image',
        width: null,
        height: null,
        title: null,
        thumbnail: 'https://pod.example/e1.jpg',
      },
    ]);
    expect(item.categories.map((c) => c.term)).toEqual(['Arts', 'Design']);
    expect(item.categories[0]!.scheme).toBe('http://www.itunes.com/dtds/podcast-1.0.dtd');
    expect(item.authors).toEqual([{ name: 'Credited Person', email: null, uri: null }]);
  });

  it.each([
    ['editor@example.com (Eddie Editor)', { name: 'Eddie Editor', email: 'editor@example.com', uri: null }],
    ['Eddie Editor <editor@example.com>', { name: 'Eddie Editor', email: 'editor@example.com', uri: null }],
    ['editor@example.com', { name: null, email: 'editor@example.com', uri: null }],
    ['Eddie Editor', { name: 'Eddie Editor', email: null, uri: null }],
  ])('an RSS <author> %j', (author, person) => {
    expect(
      feedOf(
        `<rss><channel><item><author>${author.replace('<', '&lt;').replace('>', '&gt;')}</author></item></channel></rss>`,
      ).items[0]!.authors,
    ).toEqual([person]);
  });

  it('reads a default-namespace Atom <link href> in the channel as an atom link', () => {
    const xml =
      '<rss version="2.0"><channel><title>t</title><link>https://site.example/</link>' +
      '<link xmlns="http://www.w3.org/2005/Atom" rel="self" href="https://site.example/rss"/></channel></rss>';
    const feed = feedOf(xml);
    expect(feed.link).toBe('https://site.example/');
    expect(feed.self).toBe('https://site.example/rss');
  });

  it('a source:cloud on http gives port 80 and http-post, explicit ports win; <cloud> wins over it', () => {
    const ns = 'xmlns:source="https://source.scripting.com/"';
    const a = feedOf(
      `<rss ${ns}><channel><source:cloud>http://c.example:5337/ping?x=1</source:cloud></channel></rss>`,
    );
    expect(a.cloud).toEqual({
      domain: 'c.example',
      port: 5337,
      path: '/ping?x=1',
      registerProcedure: '',
      protocol: 'http-post',
    });
    const b = feedOf(
      `<rss ${ns}><channel><source:cloud>http://c.example/ping</source:cloud></channel></rss>`,
    );
    expect(b.cloud?.port).toBe(80);
    const c = feedOf(
      `<rss ${ns}><channel><source:cloud>https://c.example/x</source:cloud>` +
        '<cloud domain="d.example" port="8080" path="/RPC2" registerProcedure="r" protocol="xml-rpc"/></channel></rss>',
    );
    expect(c.cloud?.domain).toBe('d.example');
    expect(c.cloud?.port).toBe(8080);
  });

  it('a non-permalink guid is never used as the link', () => {
    const xml =
      '<rss><channel><item><guid isPermaLink="false">https://x.example/1</guid></item></channel></rss>';
    expect(feedOf(xml).items[0]!.link).toBeNull();
  });

  it('resolves relative links against xml:base, nested on the item, then the fetch URL', () => {
    const xml =
      '<rss xml:base="https://base.example/a/"><channel><link>home</link>' +
      '<item xml:base="posts/"><link>one.html</link><enclosure url="/m.mp3" type="audio/mpeg" length="x"/></item>' +
      '</channel></rss>';
    const feed = feedOf(xml, { url: 'https://fetched.example/feed' });
    expect(feed.link).toBe('https://base.example/a/home');
    expect(feed.items[0]!.link).toBe('https://base.example/a/posts/one.html');
    expect(feed.items[0]!.enclosures).toEqual([
      { url: 'https://base.example/m.mp3', type: 'audio/mpeg', length: null },
    ]);
    const noBase = feedOf('<rss><channel><link>/home</link></channel></rss>', {
      url: 'https://fetched.example/f',
    });
    expect(noBase.link).toBe('https://fetched.example/home');
    const invalid = feedOf(
      '<rss><channel><link>http://[bad</link><item><link>rel</link></item></channel></rss>',
    );
    expect(invalid.link).toBe('http://[bad');
    expect(invalid.items[0]!.link).toBe('rel');
  });
});
