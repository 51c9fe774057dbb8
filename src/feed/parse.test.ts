import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Feed } from './model.ts';
import { parseFeed } from './parse.ts';
import type { ParseOptions, ParseResult } from './parse-types.ts';

const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url));

function feedOf(body: Uint8Array | string, opts?: ParseOptions): Feed {
  const r = parseFeed(body, opts);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r)}`);
  return r.feed;
}

function errorOf(r: ParseResult) {
  if (r.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.error;
}

const FEED_KEYS = [
  'format',
  'title',
  'link',
  'description',
  'language',
  'generator',
  'generatorDetail',
  'published',
  'updated',
  'image',
  'ttl',
  'skipHours',
  'skipDays',
  'sy',
  'cloud',
  'hubs',
  'self',
  'items',
];
const ITEM_KEYS = [
  'id',
  'podcast',
  'title',
  'link',
  'summary',
  'content',
  'published',
  'updated',
  'authors',
  'categories',
  'enclosures',
  'comments',
  'media',
  'children',
];
const SHAPES: Record<string, string[]> = {
  image: ['url', 'title', 'link'],
  sy: ['updatePeriod', 'updateFrequency', 'updateBase'],
  cloud: ['domain', 'port', 'path', 'registerProcedure', 'protocol'],
  authors: ['name', 'email', 'uri'],
  categories: ['term', 'scheme', 'label'],
  enclosures: ['url', 'type', 'length'],
  media: ['url', 'type', 'medium', 'width', 'height', 'title', 'thumbnail'],
};

/** Every key of the public contract present, no undefined anywhere, nested objects complete. */
function expectFullShape(feed: Feed): void {
  expect(Object.keys(feed).sort()).toEqual([...FEED_KEYS].sort());
  for (const k of ['image', 'sy', 'cloud'] as const) {
    if (feed[k] !== null) expect(Object.keys(feed[k]!).sort()).toEqual([...SHAPES[k]!].sort());
  }
  const checkItem = (item: Feed['items'][number]) => {
    expect(Object.keys(item).sort()).toEqual([...ITEM_KEYS].sort());
    expect(typeof item.id).toBe('string');
    expect(item.id).not.toBe('');
    for (const k of ['authors', 'categories', 'enclosures', 'media'] as const) {
      expect(Array.isArray(item[k])).toBe(true);
      for (const entry of item[k]) expect(Object.keys(entry).sort()).toEqual([...SHAPES[k]!].sort());
    }
    item.children.forEach(checkItem);
  };
  feed.items.forEach(checkItem);
  // No undefined values hiding anywhere: a JSON round trip changes nothing.
  expect(JSON.parse(JSON.stringify(feed))).toEqual(feed);
}

describe('the public JSON shape', () => {
  it.each(['rss20-namespaces.xml', 'atom10.xml', 'jsonfeed10.json', 'rss10.rdf', 'rss091.xml'])(
    '%s has every key of Feed and Item',
    (file) => {
      const feed = feedOf(fixture(file));
      expect(feed.items.length).toBeGreaterThan(0);
      expectFullShape(feed);
    },
  );

  it('an empty channel still has every key, with null and []', () => {
    const feed = feedOf('<rss version="2.0"><channel/></rss>');
    expectFullShape(feed);
    expect(feed).toEqual({
      format: 'rss2.0',
      title: null,
      link: null,
      description: null,
      language: null,
      generator: null,
      generatorDetail: null,
      published: null,
      updated: null,
      image: null,
      ttl: null,
      skipHours: [],
      skipDays: [],
      sy: null,
      cloud: null,
      hubs: [],
      self: null,
      items: [],
    });
  });
});

describe('item identity', () => {
  const rss = (items: string) => `<rss version="2.0"><channel><title>t</title>${items}</channel></rss>`;
  const noGuid =
    '<item><title>Hello</title><link>https://x.example/1</link><pubDate>Mon, 06 May 2024 08:00:00 GMT</pubDate></item>';

  it('uses guid, Atom id, JSON id and rdf:about as given', () => {
    expect(feedOf(rss('<item><guid> abc-1 </guid></item>')).items[0]!.id).toBe('abc-1');
    expect(feedOf(fixture('atom10.xml')).items[0]!.id).toBe('tag:atom.example.org,2024:1');
    expect(feedOf(fixture('jsonfeed11.json')).items[0]!.id).toBe('a');
    expect(feedOf(fixture('rss10.rdf')).items[0]!.id).toBe('http://c.moreover.com/click/here.pl?r123');
  });

  it('hashes link + title + date when there is no id: stable across parses and formatting', () => {
    const a = feedOf(rss(noGuid)).items[0]!.id;
    const b = feedOf(rss(noGuid)).items[0]!.id;
    const reindented = feedOf(rss(noGuid.replace('<title>Hello</title>', '<title>\n   Hello   \n</title>')))
      .items[0]!.id;
    expect(a).toMatch(/^hash:[0-9a-f]{40}$/);
    expect(b).toBe(a);
    expect(reindented).toBe(a);
  });

  it.each([
    ['title', noGuid.replace('Hello', 'Goodbye')],
    ['link', noGuid.replace('/1<', '/2<')],
    ['date', noGuid.replace('08:00:00', '09:00:00')],
  ])('a different %s gives a different id', (_what, changed) => {
    expect(feedOf(rss(changed)).items[0]!.id).not.toBe(feedOf(rss(noGuid)).items[0]!.id);
  });

  it('untitled, unlinked items are told apart by their content; an empty guid counts as none', () => {
    const ids = feedOf(
      rss(
        '<item><description>one</description></item><item><guid></guid><description>two</description></item>',
      ),
    ).items.map((i) => i.id);
    expect(ids[0]).toMatch(/^hash:/);
    expect(ids[1]).toMatch(/^hash:/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('children with the same title under different parents get different ids', () => {
    const child = '<rssCloud:item><title>Same</title></rssCloud:item>';
    const feed = feedOf(
      rss(`<item><guid>p1</guid>${child}</item><item><guid>p2</guid>${child}</item>`).replace(
        '<rss version="2.0">',
        '<rss version="2.0" xmlns:rssCloud="http://rsscloud.org/">',
      ),
    );
    expect(feed.items[0]!.children[0]!.id).not.toBe(feed.items[1]!.children[0]!.id);
  });
});

describe('security', () => {
  it('billion laughs: nested internal entities expand to nothing, quickly', () => {
    const r = parseFeed(fixture('billion-laughs.xml'));
    const feed = r.kind === 'feed' ? r.feed : null;
    expect(feed).not.toBeNull();
    const json = JSON.stringify(feed);
    expect(json).not.toContain('lollol');
    expect(json.length).toBeLessThan(5000);
  });

  describe('external entities', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidings-xxe-'));
    const secretFile = join(dir, 'secret.txt');
    const secret = 'TOP-SECRET-7f3a9c';
    writeFileSync(secretFile, secret);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each([
      ['general entity', `<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file://${secretFile}">]>`, '&xxe;'],
      ['parameter entity', `<!DOCTYPE rss [<!ENTITY % p SYSTEM "file://${secretFile}"> %p;]>`, 'x'],
      ['external DTD', `<!DOCTYPE rss SYSTEM "file://${secretFile}">`, 'x'],
    ])('%s: the file is never read into the feed', (_kind, doctype, ref) => {
      const xml = `<?xml version="1.0"?>\n${doctype}\n<rss version="2.0"><channel><title>${ref}</title><item><description>${ref}</description></item></channel></rss>`;
      const r = parseFeed(xml);
      expect(JSON.stringify(r)).not.toContain(secret);
      expect(r.kind).toBe('feed');
    });
  });

  it('a harmless DOCTYPE with comments and quoted ">" in the subset is read past (its plain entity expanded)', () => {
    const xml =
      '<!DOCTYPE rss [ <!-- a ] comment <!ENTITY a "evil"> --> <!ENTITY a "b > c"> ]><rss><channel><title>ok &a;</title></channel></rss>';
    expect(feedOf(xml).title).toBe('ok b > c');
  });
});

describe('errors', () => {
  it.each([
    ['mismatched end tag', '<rss><channel><title>x</item></channel></rss>', 1],
    // A cut after the root opened is repaired (fidelity.test.ts); inside the root's own tag it is not.
    ['root start tag left open', '<?xml version="1.0"?>\n<rss version="2.0"\n<channel></channel></rss>', 2],
    ['unclosed CDATA', '<rss><channel><description><![CDATA[oops</description></channel></rss>', 1],
    ['bare "<" in text', '<rss><channel>a < b\n</channel></rss>', 1],
    ['unclosed start tag', '<rss><channel><title x="1"</channel></rss>', 1],
  ])('malformed XML (%s) is feed.malformed with line and column', (_what, xml, line) => {
    const error = errorOf(parseFeed(xml));
    expect(error.code).toBe('feed.malformed');
    expect(error.args?.line).toBe(line);
    expect(error.message).toMatch(/not well-formed XML: .+ \(line \d+, column \d+\)\.$/);
  });

  it('names the element that was expected', () => {
    const error = errorOf(parseFeed('<rss>\n  <channel>\n    <item>\n  </channel>\n</rss>'));
    expect(error.message).toContain('</channel> found where </item> (opened on line 3) was expected');
    expect(error.args).toEqual({ line: 4, column: 3 });
  });

  it('a leaf element (title, description) left open is reported where it opened', () => {
    const error = errorOf(parseFeed('<rss>\n<channel>\n<title>x</item>\n</channel></rss>'));
    expect(error.message).toContain('<title> is never closed');
    expect(error.args).toEqual({ line: 3, column: 1 });
  });

  it.each([
    ['an empty body', ''],
    ['whitespace', '  \n '],
    ['an HTML page', fixture('html-page.html')],
    ['plain text', 'Hello, world'],
    ['an unknown root', '<?xml version="1.0"?><opml version="2.0"><body/></opml>'],
    ['a JSON array', '[1, 2]'],
  ])('%s is feed.notAFeed', (_what, body) => {
    expect(errorOf(parseFeed(body)).code).toBe('feed.notAFeed');
  });

  it('says what an HTML page is', () => {
    expect(errorOf(parseFeed(fixture('html-page.html'))).message).toBe(
      'The document is an HTML page, not a feed.',
    );
  });

  it('gives up with feed.tooSlow past maxParseMs (0 = at once), and Infinity disables the cap', () => {
    const error = errorOf(parseFeed(fixture('rss20-namespaces.xml'), { maxParseMs: 0 }));
    expect(error.code).toBe('feed.tooSlow');
    expect(error.args).toEqual({ limitMs: 0 });
    expect(parseFeed(fixture('rss20-namespaces.xml'), { maxParseMs: Number.POSITIVE_INFINITY }).kind).toBe(
      'feed',
    );
  });

  it('never throws, whatever it is given', () => {
    const odd: Array<Uint8Array | string> = [
      '<',
      '<rss',
      '<rss><channel><item><![CDATA[',
      '<rss><!-- never closed',
      '<!DOCTYPE rss [',
      '<rss><constructor>x</constructor><__proto__/><channel><title>t</title></channel></rss>',
      '{',
      '{"version":"https://jsonfeed.org/version/1","items":[{"id":null,"date_published":12}]}',
      new Uint8Array([0xff, 0xfe, 0x00]),
      new Uint8Array([0xc3, 0x28, 0xa0, 0xa1]),
      `<rss>${'<x>'.repeat(300)}${'</x>'.repeat(300)}</rss>`,
    ];
    for (const body of odd) {
      const r = parseFeed(body);
      expect(['feed', 'error', 'redirect']).toContain(r.kind);
    }
  });
});

describe('XML redirect', () => {
  it('gives the new location', () => {
    expect(parseFeed(fixture('redirect.xml'))).toEqual({
      kind: 'redirect',
      newLocation: 'http://new.example.com/feed.xml',
    });
  });

  it('an empty or missing newLocation means gone (null); a relative one is resolved', () => {
    expect(parseFeed('<redirect><newLocation> </newLocation></redirect>')).toEqual({
      kind: 'redirect',
      newLocation: null,
    });
    expect(parseFeed('<redirect/>')).toEqual({ kind: 'redirect', newLocation: null });
    expect(
      parseFeed('<redirect><newLocation>/moved.xml</newLocation></redirect>', { url: 'https://a.example/f' }),
    ).toEqual({
      kind: 'redirect',
      newLocation: 'https://a.example/moved.xml',
    });
  });
});
