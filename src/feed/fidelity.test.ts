/**
 * Parser fidelity (issue 10): behaviours feedparser has where the specs are silent. Each case
 * failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import type { Feed, Item } from './model.ts';
import { parseFeed } from './parse.ts';
import type { ParseOptions, ParseResult } from './parse-types.ts';

function read(body: Uint8Array | string, opts?: ParseOptions): Extract<ParseResult, { kind: 'feed' }> {
  const r = parseFeed(body, opts);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r).slice(0, 400)}`);
  return r;
}
const feedOf = (body: Uint8Array | string, opts?: ParseOptions): Feed => read(body, opts).feed;
const rssItem = (inner: string, ns = ''): Item =>
  feedOf(`<rss version="2.0" ${ns}><channel><title>c</title><item>${inner}</item></channel></rss>`).items[0]!;
const atomEntry = (inner: string): Item =>
  feedOf(`<feed xmlns="http://www.w3.org/2005/Atom"><title>f</title><entry><id>e</id>${inner}</entry></feed>`)
    .items[0]!;

describe('titles are plain text', () => {
  it('an HTML title drops <script> and <style> bodies; an RSS title holding them is text (feedparser)', () => {
    // RSS titles are text unless they look like HTML by feedparser's rule, and script is not HTML
    // a sanitiser keeps: the title is shown as written, never run (issue 34).
    expect(
      rssItem('<title>&lt;script&gt;alert(1)&lt;/script&gt;Hello&lt;style&gt;b{}&lt;/style&gt; world</title>')
        .title,
    ).toBe('<script>alert(1)</script>Hello<style>b{}</style> world');
    expect(rssItem('<title><![CDATA[<script type="x">var a = "<b>";</script>Hi]]></title>').title).toBe(
      '<script type="x">var a = "<b>";</script>Hi',
    );
    expect(atomEntry('<title type="html">&lt;style&gt;p{color:red}&lt;/style&gt;Styled</title>').title).toBe(
      'Styled',
    );
  });

  it('does not break on ">" inside a quoted attribute', () => {
    expect(rssItem('<title>&lt;a title="a &gt; b" href="/x"&gt;Link&lt;/a&gt; text</title>').title).toBe(
      'Link text',
    );
    expect(atomEntry(`<title type="html">&lt;span data-x='1>2'&gt;Quoted&lt;/span&gt;</title>`).title).toBe(
      'Quoted',
    );
  });
});

describe('RSS item content and Dublin Core fallbacks', () => {
  it('reads xhtml:body as content, prefixes dropped', () => {
    const item = rssItem(
      '<xhtml:body><xhtml:p>Hello <xhtml:b>there</xhtml:b></xhtml:p></xhtml:body>',
      'xmlns:xhtml="http://www.w3.org/1999/xhtml"',
    );
    expect(item.content).toBe('<p>Hello <b>there</b></p>');
  });

  it('reads a bare <body> and <fullitem> as content', () => {
    expect(rssItem('<body xmlns="http://www.w3.org/1999/xhtml"><p>Body</p></body>').content).toBe(
      '<p>Body</p>',
    );
    expect(rssItem('<fullitem>&lt;p&gt;Full&lt;/p&gt;</fullitem>').content).toBe('<p>Full</p>');
  });

  it('uses dc:title and dc:description when title and description are missing', () => {
    const item = rssItem(
      '<dc:title>DC title</dc:title><dc:description>&lt;p&gt;DC text&lt;/p&gt;</dc:description>',
      'xmlns:dc="http://purl.org/dc/elements/1.1/"',
    );
    expect(item.title).toBe('DC title');
    expect(item.summary).toBe('<p>DC text</p>');
    const both = rssItem(
      '<title>Own</title><dc:title>DC</dc:title><description>own</description><dc:description>dc</dc:description>',
      'xmlns:dc="http://purl.org/dc/elements/1.1/"',
    );
    expect([both.title, both.summary]).toEqual(['Own', 'own']);
  });

  it('reads channel dcterms:issued and dcterms:modified', () => {
    const feed =
      feedOf(`<rss version="2.0" xmlns:dcterms="http://purl.org/dc/terms/"><channel><title>c</title>
      <dcterms:issued>2024-03-01T10:00:00Z</dcterms:issued><dcterms:modified>2024-03-02T11:00:00Z</dcterms:modified>
      </channel></rss>`);
    expect(feed.published).toBe('2024-03-01T10:00:00.000Z');
    expect(feed.updated).toBe('2024-03-02T11:00:00.000Z');
  });
});

describe('Atom base64 content and RSS authors', () => {
  it('decodes content whose media type is neither text nor XML (base64 by RFC 4287)', () => {
    const b64 = Buffer.from('Example <b>Atom</b>').toString('base64');
    expect(atomEntry(`<content type="application/octet-stream">${b64}</content>`).content).toBe(
      'Example <b>Atom</b>',
    );
    // Binary that is not text gives no content rather than mojibake.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]).toString('base64');
    expect(atomEntry(`<content type="image/png">${png}</content>`).content).toBeNull();
  });

  it('splits "Name (email)" and "email (Name)" in author and dc:creator', () => {
    const ns = 'xmlns:dc="http://purl.org/dc/elements/1.1/"';
    expect(rssItem('<author>Jane Doe (jane@example.com)</author>').authors).toEqual([
      { name: 'Jane Doe', email: 'jane@example.com', uri: null },
    ]);
    expect(rssItem('<author>jane@example.com (Jane Doe)</author>').authors[0]).toMatchObject({
      name: 'Jane Doe',
      email: 'jane@example.com',
    });
    expect(rssItem('<dc:creator>Joe Bloggs (joe@example.org)</dc:creator>', ns).authors[0]).toMatchObject({
      name: 'Joe Bloggs',
      email: 'joe@example.org',
    });
    expect(rssItem('<dc:creator>joe@example.org (Joe Bloggs)</dc:creator>', ns).authors[0]).toMatchObject({
      name: 'Joe Bloggs',
      email: 'joe@example.org',
    });
    expect(rssItem('<dc:creator>Plain Name</dc:creator>', ns).authors[0]).toMatchObject({
      name: 'Plain Name',
      email: null,
    });
  });
});

describe('a document truncated at its very end', () => {
  const full =
    '<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>' +
    '<item><guid>a</guid><title>A</title></item><item><guid>b</guid><title>B</title></item>' +
    '</channel></rss>';

  it('recovers a missing ">" on the last end tag, and says it was repaired', () => {
    const r = read(full.slice(0, -1));
    expect(r.feed.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(r.notes.map((n) => n.code)).toEqual(['feed.repaired']);
  });

  it('recovers missing final close tags', () => {
    expect(read(full.slice(0, -'</rss>'.length)).feed.items).toHaveLength(2);
    expect(read(full.slice(0, -'</channel></rss>'.length)).feed.items).toHaveLength(2);
    const atom = '<feed xmlns="http://www.w3.org/2005/Atom"><title>f</title><entry><id>1</id></entry>';
    expect(read(atom).feed.items).toHaveLength(1);
  });

  it('keeps the items before a cut inside an item, and leaves out the partial one', () => {
    const cut = full.indexOf('<title>B');
    for (const end of [cut, cut + 4, cut + 9, full.indexOf('</item>', cut) + 3]) {
      const r = read(full.slice(0, end));
      expect(r.feed.items.map((i) => i.id)).toEqual(['a']);
      expect(r.notes[0]!.code).toBe('feed.repaired');
    }
    const cdata =
      '<rss version="2.0"><channel><item><guid>a</guid></item><item><description><![CDATA[<p>half';
    expect(read(cdata).feed.items.map((i) => i.id)).toEqual(['a']);
  });

  it('stays strict where the meaning is ambiguous', () => {
    // A misspelt close of a text-only element is forgiven (issue 19, fidelity-gofeed.test.ts); of
    // an element with children it is not.
    const mismatched = full.replace('</title></item><item><guid>b', '</titel></item><item><guid>b');
    expect(read(mismatched).notes.map((n) => n.code)).toEqual(['feed.repaired']);
    expect(parseFeed(full.replace('</channel>', '</chanel>')).kind).toBe('error');
    expect(parseFeed('<rss version="2.0"').kind).toBe('error');
    // A broken element name is a mistake, not a cut, wherever it is.
    const badName = parseFeed(full.replace('<guid>b', `<gu'id>b`));
    expect(badName.kind === 'error' && badName.error.message).toMatch(/element name "gu'" has a character/);
    expect(read(full).notes).toEqual([]);
  });
});

describe('encodings', () => {
  const rssBody = (title: string) => `<rss version="2.0"><channel><title>${title}</title></channel></rss>`;

  function utf32(s: string, le: boolean, bom: boolean): Uint8Array {
    const cps = [...((bom ? '\uFEFF' : '') + s)].map((c) => c.codePointAt(0)!);
    const out = new Uint8Array(cps.length * 4);
    const view = new DataView(out.buffer);
    cps.forEach((cp, i) => {
      view.setUint32(i * 4, cp, le);
    });
    return out;
  }

  it('reads UTF-32 with a BOM, and by its declaration, both byte orders', () => {
    const title = 'Zürich 😀 “quoted”';
    for (const le of [true, false]) {
      expect(feedOf(utf32(rssBody(title), le, true)).title).toBe(title);
      const declared = `<?xml version="1.0" encoding="UTF-32"?>${rssBody(title)}`;
      expect(feedOf(utf32(declared, le, false)).title).toBe(title);
    }
  });

  it('maps windows-1252 bytes in a document declared ISO-8859-1 as browsers do', () => {
    const bytes = Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${rssBody('\x93Smart\x94 it\x92s \x80 caf\xe9')}`,
      'latin1',
    );
    expect(feedOf(bytes).title).toBe('\u201cSmart\u201d it\u2019s \u20ac café');
    expect(feedOf(bytes, { contentType: 'text/xml; charset=iso-8859-1' }).title).toBe(
      '\u201cSmart\u201d it\u2019s \u20ac café',
    );
  });

  it('falls back from a charset=utf-8 that does not decode cleanly: XML declaration, then windows-1252', () => {
    const latin = (decl: string, title = 'caf\xe9 \x93x\x94') =>
      Buffer.from(`${decl}${rssBody(title)}`, 'latin1');
    const declared = read(latin('<?xml version="1.0" encoding="iso-8859-15"?>', 'caf\xe9 \xa4 5'), {
      contentType: 'application/rss+xml; charset=utf-8',
    });
    expect(declared.feed.title).toBe('café € 5'); // 0xA4 is the euro sign in ISO-8859-15 only
    expect(declared.notes[0]).toMatchObject({
      code: 'feed.encodingFallback',
      args: { declared: 'utf-8', used: 'iso-8859-15' },
    });
    const undeclared = read(latin(''), { contentType: 'application/rss+xml; charset=utf-8' });
    expect(undeclared.feed.title).toBe('café \u201cx\u201d');
    expect(undeclared.notes[0]).toMatchObject({ args: { declared: 'utf-8', used: 'windows-1252' } });
    // Clean UTF-8 stays UTF-8 with no note.
    const clean = read(Buffer.from(rssBody('café'), 'utf8'), { contentType: 'text/xml; charset=utf-8' });
    expect([clean.feed.title, clean.notes]).toEqual(['café', []]);
  });
});

describe('inline SVG and MathML in XHTML content', () => {
  it('become their HTML-embedded forms (prefixes dropped)', () => {
    const item = atomEntry(`<content type="xhtml"><x:div xmlns:x="http://www.w3.org/1999/xhtml"
      xmlns:s="http://www.w3.org/2000/svg" xmlns:m="http://www.w3.org/1998/Math/MathML"><x:p>Shape</x:p><s:svg width="10" height="10"><s:circle cx="5" cy="5" r="4"/></s:svg><m:math><m:mi>x</m:mi></m:math></x:div></content>`);
    expect(item.content).toBe(
      '<p>Shape</p><svg width="10" height="10"><circle cx="5" cy="5" r="4"/></svg><math><mi>x</mi></math>',
    );
  });

  it('keeps default-namespaced SVG as written', () => {
    const item = atomEntry(
      '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg></div></content>',
    );
    expect(item.content).toBe('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>');
  });
});

describe('relative URLs in a document read from a file', () => {
  it('resolve against the channel link, not file:///', () => {
    const feed = feedOf(
      `<rss version="2.0"><channel><title>c</title><link>https://blog.example.com/</link>
      <image><url>/logo.png</url></image>
      <item><link>/posts/1</link><enclosure url="media/a.mp3" type="audio/mpeg" length="1"/></item></channel></rss>`,
      { url: 'file:///home/me/feed.xml' },
    );
    expect(feed.image?.url).toBe('https://blog.example.com/logo.png');
    expect(feed.items[0]!.link).toBe('https://blog.example.com/posts/1');
    expect(feed.items[0]!.enclosures[0]!.url).toBe('https://blog.example.com/media/a.mp3');
  });

  it('Atom and JSON Feed too; an http(s) document URL still wins', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://a.example.org/"/><entry><id>1</id><link href="e/1"/></entry></feed>`;
    expect(feedOf(atom, { url: 'file:///tmp/a.xml' }).items[0]!.link).toBe('https://a.example.org/e/1');
    expect(feedOf(atom, { url: 'https://other.example/feed' }).items[0]!.link).toBe(
      'https://other.example/e/1',
    );
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      home_page_url: 'https://j.example.net/',
      items: [{ id: '1', url: 'p/1' }],
    });
    expect(feedOf(json, { url: 'file:///tmp/j.json' }).items[0]!.link).toBe('https://j.example.net/p/1');
  });
});

describe('JSON Feed leniency', () => {
  it('numeric ids become strings, empty strings are null', () => {
    const feed = feedOf(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: '',
        items: [{ id: 42, title: '', content_html: '', summary: ' ', url: '' }],
      }),
    );
    expect(feed.title).toBeNull();
    expect(feed.items[0]).toMatchObject({ id: '42', title: null, content: null, summary: null, link: null });
  });

  it('reads a JSON Feed shape without version, with a note', () => {
    const r = read(JSON.stringify({ title: 'T', items: [{ id: '1', content_text: 'x' }] }));
    expect(r.feed.items).toHaveLength(1);
    expect(r.notes.map((n) => n.code)).toEqual(['feed.noVersion']);
  });

  it('refuses NaN and Infinity with a clear reason', () => {
    for (const bad of ['NaN', 'Infinity', '-Infinity']) {
      const r = parseFeed(`{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","x":${bad}}]}`);
      if (r.kind !== 'error') throw new Error('expected an error');
      expect(r.error.code).toBe('feed.malformed');
      expect(r.error.message).toMatch(/NaN or Infinity/);
    }
  });
});

describe('CDATA in leaf elements (read in the structure pass)', () => {
  it.each([
    ['  <![CDATA[<p>a &amp; b</p>]]>  ', '<p>a &amp; b</p>'],
    ['<![CDATA[<p>a]]><![CDATA[b</p>]]>', '<p>ab</p>'],
    ['<![CDATA[<b>x</b>]]> &amp; more', '<b>x</b> & more'],
    ['<![CDATA[x]]><!-- note -->', 'x<!-- note -->'],
    ['<![CDATA[]]>', null],
  ])('description %j reads as %j', (inner, expected) => {
    expect(rssItem(`<description>${inner}</description>`).summary).toBe(expected);
  });
});

describe('limits the tree builder keeps', () => {
  it('refuses nesting deeper than 256 levels with a readable reason', () => {
    const deep = `<rss version="2.0"><channel>${'<x>'.repeat(300)}${'</x>'.repeat(300)}</channel></rss>`;
    const r = parseFeed(deep);
    if (r.kind !== 'error') throw new Error('expected an error');
    expect(r.error.code).toBe('feed.malformed');
    expect(r.error.message).toMatch(/nested more than 256 levels/);
  });
});

describe('authors and tags in shapes seen in the wild', () => {
  it('RSS <author> holding Atom-style name and email', () => {
    expect(rssItem('<author><name>Ann</name><email>ann@example.com</email></author>').authors).toEqual([
      { name: 'Ann', email: 'ann@example.com', uri: null },
    ]);
  });

  it('JSON Feed author as a plain string, tags as one string', () => {
    const feed = feedOf(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1',
        author: 'Feed Author',
        items: [
          { id: '1', tags: 'solo' },
          { id: '2', authors: ['Item Author', { name: 'Obj' }] },
        ],
      }),
    );
    expect(feed.items[0]!.authors.map((a) => a.name)).toEqual(['Feed Author']);
    expect(feed.items[0]!.categories.map((c) => c.term)).toEqual(['solo']);
    expect(feed.items[1]!.authors.map((a) => a.name)).toEqual(['Item Author', 'Obj']);
  });
});
