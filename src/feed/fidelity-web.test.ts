/**
 * Feeds as the web serves them (issue 34): what feedparser reads and we refused or garbled, each
 * with a feed of our own shaped like one found on a real server. Each case failed before its fix.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Feed } from './model.ts';
import { parseFeed } from './parse.ts';
import type { ParseNote, ParseOptions, ParseResult } from './parse-types.ts';

function read(body: Uint8Array | string, opts?: ParseOptions): Extract<ParseResult, { kind: 'feed' }> {
  const r = parseFeed(body, opts);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r).slice(0, 400)}`);
  return r;
}
const codes = (notes: ParseNote[]) => notes.map((n) => n.code);
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
<channel>
  <title>Café notes</title>
  <link>https://cafe.example/</link>
  <item><guid>1</guid><title>First</title></item>
  <item><guid>2</guid><title>Second</title></item>
</channel>
</rss>
`;
const ids = (feed: Feed) => feed.items.map((i) => i.id);

describe('junk around the document', () => {
  const PHP_WARNING =
    '<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent by (output started at /var/www/wp-config.php:1) in <b>/var/www/wp-includes/feed-rss2.php</b> on line <b>8</b><br />\n';

  it('a PHP warning before <?xml is ignored and noted, lines still the document’s own', () => {
    const r = read(PHP_WARNING + RSS);
    expect(r.feed.title).toBe('Café notes');
    expect(ids(r.feed)).toEqual(['1', '2']);
    expect(codes(r.notes)).toEqual(['feed.textBeforeRoot']);
    expect(r.notes[0]!.message).toMatch(
      /^Text before the root element ignored \(line 1\): “Warning: Cannot modify/,
    );
    // A problem further down is still reported where it is in the file as served.
    const broken = parseFeed(PHP_WARNING + RSS.replace('</channel>', '</chanel>'));
    expect(broken.kind === 'error' && broken.error.args).toEqual({ line: 10, column: 1 });
    // Still refused: a web page that quotes a feed, and junk with no feed after it.
    const page = `<!DOCTYPE html><html><body><pre>${RSS}</pre></body></html>`;
    expect(parseFeed(page)).toMatchObject({ kind: 'error', error: { code: 'feed.notAFeed' } });
    expect(parseFeed(`${PHP_WARNING}Fatal error: out of memory`)).toMatchObject({
      kind: 'error',
      error: { code: 'feed.notAFeed' },
    });
  });

  it('a PHP notice as plain text, and the encoding the declaration below it names', () => {
    const body = bytes(
      'Notice: Undefined index: page in /srv/feed.php on line 3\n',
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<rss version="2.0"><channel><title>Caf',
      [0xe9],
      '</title></channel></rss>',
    );
    const r = read(body);
    expect(r.feed.title).toBe('Café');
    expect(codes(r.notes)).toEqual(['feed.textBeforeRoot']); // no encoding note: it was declared
    expect(r.notes[0]!.message).toContain('“Notice: Undefined index: page in /srv/feed.php on line 3”');
  });

  it('a byte order mark after blank lines, or twice', () => {
    const afterDeclaration = RSS.replace('?>\n', '?>\n\uFEFF');
    for (const body of [`\n\n\uFEFF${RSS}`, `\uFEFF\uFEFF${RSS}`, afterDeclaration]) {
      const r = read(body);
      expect(ids(r.feed)).toEqual(['1', '2']);
      expect(r.notes.map((n) => n.message)).toEqual([
        expect.stringMatching(/^Text before the root element ignored .*a byte order mark/),
      ]);
    }
    const utf8 = read(bytes([0xef, 0xbb, 0xbf], '\r\n', [0xef, 0xbb, 0xbf], RSS));
    expect(utf8.feed.title).toBe('Café notes');
  });

  it('an analytics <script> after the root is ignored and noted', () => {
    const r = read(
      `${RSS}<script type="text/javascript" src="https://stats.freehost.example/count.js"></script>\n<noscript><img src="https://stats.freehost.example/pixel.gif"></noscript>\n`,
    );
    expect(ids(r.feed)).toEqual(['1', '2']);
    expect(codes(r.notes)).toEqual(['feed.textAfterRoot']);
    expect(r.notes[0]!.message).toBe(
      'Text after the root element ignored (line 10): “<script type="text/javascript" src="https://stats.freehost.…”.',
    );
  });

  it('two documents run together: the first is read, the second noted', () => {
    const second = RSS.replace('Café notes', 'Other').replace(/<guid>(\d)<\/guid>/g, '<guid>x$1</guid>');
    const r = read(RSS + second);
    expect(r.feed.title).toBe('Café notes');
    expect(ids(r.feed)).toEqual(['1', '2']);
    expect(r.notes.map((n) => n.message)).toEqual([
      "A second document after the feed's root element ignored (line 10); only the first was read.",
    ]);
  });

  it('a stray end tag or text after the root is noted; comments and whitespace there are not', () => {
    expect(codes(read(`${RSS}</channel>`).notes)).toEqual(['feed.textAfterRoot']);
    expect(codes(read(`${RSS}PHP Notice: done`).notes)).toEqual(['feed.textAfterRoot']);
    expect(read(`${RSS}<!-- generated in 0.02 s -->\n<?xml-stylesheet href="s.css"?>\n`).notes).toEqual([]);
    // Well-formed feeds carry no note at all.
    for (const file of readdirSync(join(import.meta.dirname, 'testdata'))) {
      if (!/\.(xml|rdf|json)$/.test(file) || file === 'billion-laughs.xml') continue;
      const f = parseFeed(new Uint8Array(readFileSync(join(import.meta.dirname, 'testdata', file))));
      if (f.kind === 'feed') expect([file, f.notes]).toEqual([file, []]);
    }
  });
});

describe('titles that mention a tag', () => {
  const rssTitle = (title: string) =>
    read(`<rss version="2.0"><channel><title>c</title><item><title>${title}</title></item></channel></rss>`)
      .feed.items[0]!.title;

  it.each([
    ['Using the &lt;canvas&gt; element', 'Using the <canvas> element'],
    ["Nice &lt;gorilla&gt; what's he weigh?", "Nice <gorilla> what's he weigh?"],
    ['<![CDATA[Why <blink> died]]>', 'Why <blink> died'],
    ['a &lt;br&gt; b', 'a <br> b'], // a tag but no end tag nor reference: text
    ['&lt;script&gt;x()&lt;/script&gt; explained', '<script>x()</script> explained'], // not HTML we keep
  ])('RSS title %j is the text %j', (title, expected) => {
    expect(rssTitle(title)).toBe(expected);
    // Titles that are HTML (an end tag or a reference, known elements only) still read as HTML.
    expect(rssTitle('&lt;b&gt;Bold&lt;/b&gt; news')).toBe('Bold news');
    expect(rssTitle('<![CDATA[<em>Big</em> day]]>')).toBe('Big day');
    expect(rssTitle('Tom &amp;amp; Jerry')).toBe('Tom & Jerry');
    expect(rssTitle('&lt;p&gt;Caf&amp;eacute;&lt;/p&gt;')).toBe('Café');
  });

  it('holds for the channel, RDF, categories, authors and enclosure titles alike', () => {
    const rss =
      read(`<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
      <channel><title>Nice &lt;gorilla&gt; what's he weigh?</title>
      <item><guid>1</guid><category>&lt;canvas&gt;</category><dc:creator>Ann &lt;the &lt;b&gt; tag&gt;</dc:creator>
      <media:content url="https://cdn.example/a.mp3"><media:title>About &lt;audio&gt;</media:title></media:content></item>
      </channel></rss>`).feed;
    expect(rss.title).toBe("Nice <gorilla> what's he weigh?");
    const item = rss.items[0]!;
    expect(item.categories.map((c) => c.term)).toEqual(['<canvas>']);
    expect(item.authors.map((a) => a.name)).toEqual(['Ann <the <b> tag>']);
    expect(item.media.map((m) => m.title)).toEqual(['About <audio>']);
    const rdf =
      read(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
      <channel rdf:about="https://r.example/"><title>The &lt;time&gt; element</title></channel>
      <item rdf:about="https://r.example/1"><title>Styling &lt;details&gt;</title></item></rdf:RDF>`).feed;
    expect([rdf.title, rdf.items[0]!.title]).toEqual(['The <time> element', 'Styling <details>']);
  });
});

const ENCODING_DIR = join(import.meta.dirname, 'testdata', 'encoding');

/** The same feeds as UTF-8: what every reading of the legacy bytes must give. */
function asUtf8(file: string, encoding: string): string {
  return execFileSync('iconv', ['-f', encoding, '-t', 'UTF-8', join(ENCODING_DIR, file)], {
    encoding: 'utf8',
  });
}

describe('legacy encodings that nothing declares', () => {
  // Our own feeds in feedparser's encoding/ shapes: an XML declaration without encoding, a
  // channel and two items in the language the encoding is for. iconv gives the expected text.
  const cases = [
    ['undeclared-shift_jis.xml', 'SHIFT_JIS', 'Shift_JIS'],
    ['undeclared-euc-jp.xml', 'EUC-JP', 'EUC-JP'],
    ['undeclared-big5.xml', 'BIG5', 'Big5'],
    ['undeclared-gb2312.xml', 'GB2312', 'GB18030'],
    ['undeclared-koi8-r.xml', 'KOI8-R', 'KOI8-R'],
    ['undeclared-windows-1251.xml', 'CP1251', 'windows-1251'],
    ['undeclared-iso-8859-1.xml', 'ISO-8859-1', 'ISO-8859-1'],
    ['undeclared-iso-8859-7.xml', 'ISO-8859-7', 'ISO-8859-7'],
  ] as const;

  it.each(cases)('%s is read as %s, and the note says it was guessed', (file, iconvName, guess) => {
    expect(readdirSync(ENCODING_DIR).sort()).toEqual(cases.map((c) => c[0]).sort()); // all covered
    const expected = read(asUtf8(file, iconvName)).feed;
    const body = new Uint8Array(readFileSync(join(ENCODING_DIR, file)));
    const r = read(body, { contentType: 'text/xml' });
    expect(r.feed.title).toBe(expected.title);
    expect(r.feed.items.map((i) => [i.title, i.summary])).toEqual(
      expected.items.map((i) => [i.title, i.summary]),
    );
    expect(r.notes).toEqual([
      {
        code: 'feed.encodingGuessed',
        message: `Encoding guessed: ${guess}. The feed does not say its encoding, and it is not UTF-8.`,
        args: { guess },
      },
    ]);
    // What the server names is never second-guessed.
    const named = read(body, { contentType: `application/rss+xml; charset=${guess}` });
    expect([named.feed.title, named.notes]).toEqual([expected.title, []]);
  });
});

describe('one bad byte in a UTF-8 feed', () => {
  const feed = (...middle: (string | number[])[]) =>
    bytes(
      '<rss version="2.0"><channel><title>Grüße aus Köln</title>\n<item><title>',
      ...middle,
      '</title></item></channel></rss>',
    );

  it('stays UTF-8: a lone windows-1252 byte becomes its character, and the note says where', () => {
    const r = read(feed('It', [0x92], 's “fine” — über'));
    expect(r.feed.title).toBe('Grüße aus Köln');
    expect(r.feed.items[0]!.title).toBe('It’s “fine” — über');
    expect(r.notes).toEqual([
      {
        code: 'feed.badBytes',
        message:
          'One byte that is not UTF-8 was replaced (the first on line 2, column 16); the rest of the feed was read as UTF-8.',
        args: { bad: 1, line: 2, column: 16 },
      },
    ]);
  });

  it('a broken multi-byte sequence is U+FFFD; so is a byte windows-1252 leaves undefined', () => {
    // C3 alone is a lone byte (Ã); E2 80 is the start of a three-byte character, cut short.
    const r = read(feed('Caf', [0xc3], ' ', [0xe2, 0x80], ' x', [0x81], ' ñ'));
    expect(r.feed.items[0]!.title).toBe('CafÃ \uFFFD x\uFFFD ñ');
    expect(r.notes[0]).toMatchObject({ code: 'feed.badBytes', args: { bad: 3 } });
  });

  it('says so when the feed declared UTF-8, and keeps a Latin-1 feed declared UTF-8 readable', () => {
    const declared = read(feed('It', [0x92], 's ok'), { contentType: 'text/xml; charset=utf-8' });
    expect(declared.feed.items[0]!.title).toBe('It’s ok');
    expect(codes(declared.notes)).toEqual(['feed.badBytes']);
    // All of its non-ASCII bytes bad: not UTF-8 at all, so its encoding is guessed.
    const latin = read(
      Buffer.from(
        '<rss><channel><title>Caf\xe9 cr\xe8me, na\xefve \xe9l\xe8ve</title></channel></rss>',
        'latin1',
      ),
      { contentType: 'text/xml; charset=utf-8' },
    );
    expect(latin.feed.title).toBe('Café crème, naïve élève');
    // chardet takes so short a text for Latin-1 or its Turkish sibling: the same letters here.
    expect(latin.notes[0]!.message).toMatch(
      /^The feed says it is utf-8, but .*; encoding guessed: ISO-8859-(1|9)\.$/,
    );
  });
});

describe('one bad byte in a feed in a declared legacy encoding', () => {
  it('stays in that encoding, the byte replaced, and the note says so', () => {
    const sjis = readFileSync(join(ENCODING_DIR, 'undeclared-shift_jis.xml'));
    const at = sjis.indexOf('<item>');
    const bad = Buffer.concat([sjis.subarray(0, at), Buffer.from([0x82]), sjis.subarray(at)]);
    const r = read(bad, { contentType: 'text/xml; charset=Shift_JIS' });
    expect(r.feed.title).toBe('日本語のニュース');
    expect(r.feed.items.map((i) => i.title)).toEqual([
      '東京で新しい駅が開業しました',
      '大阪の天気は晴れの見込みです',
    ]);
    expect(r.notes.map((n) => n.message)).toEqual([
      'The feed is shift_jis, as it says, but has bytes that are not shift_jis; they were replaced.',
    ]);
  });
});

describe('C1 control characters in a UTF-8 feed', () => {
  it('are the windows-1252 punctuation they stand for, in text and HTML alike', () => {
    // U+0092, U+0093, U+0094, U+0096, U+0085, U+0080 written as UTF-8 (C2 92 ...)
    const c1 = (s: string) => Buffer.from(s, 'utf8');
    const r = read(
      c1(
        '<rss version="2.0"><channel><title>don\u0092t</title><item><title>\u0093quoted\u0094 \u0096 wait\u0085</title><description>&lt;p&gt;\u0080 5&lt;/p&gt;</description></item></channel></rss>',
      ),
    );
    expect(r.feed.title).toBe('don’t');
    expect(r.feed.items[0]!.title).toBe('“quoted” – wait…');
    expect(r.feed.items[0]!.summary).toBe('<p>€ 5</p>');
    expect(r.notes).toEqual([]); // as feedparser: a correction, not a fault worth a warning
  });
});

describe('mismatched end tags outside items', () => {
  it('an RSS channel title closed by </subtitle> is repaired, and the note names it', () => {
    const r = read(`<rss version="2.0"><channel>
<title>Channel</subtitle>
<link>https://c.example/</link>
<item><guid>1</guid><title>One</title></item><item><guid>2</guid><title>Two</title></item>
</channel></rss>`);
    expect(r.feed.title).toBe('Channel');
    expect(r.feed.link).toBe('https://c.example/');
    expect(r.feed.items.map((i) => i.title)).toEqual(['One', 'Two']);
    expect(r.notes.map((n) => n.message)).toEqual([
      'End tag </subtitle> repaired: read as the end of <title> (line 2, column 15).',
    ]);
  });

  it('an Atom title of inline XHTML, and an entry source’s logo closed by </link>', () => {
    const feed = read(`<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Feed <b>Title</b></p></div></subtitle>
  <entry><id>e</id><title>E</title><source><logo>https://s.example/logo.png</link><title>Source</title></source></entry>
</feed>`);
    expect(feed.feed.title).toBe('Feed Title');
    expect(feed.feed.items.map((i) => i.title)).toEqual(['E']);
    expect(feed.notes).toEqual([
      expect.objectContaining({ code: 'feed.repaired', args: { mended: 2, line: 2, column: 95 } }),
    ]);
    expect(feed.notes[0]!.message).toMatch(/, and 1 more like it\.$/);
  });

  it('a typo repeated at channel level stays linear, and ambiguity is still refused with line and column', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `<title>t${i}</subtitle>`).join('');
    const t0 = performance.now();
    const r = read(`<rss version="2.0"><channel>${many}<item><guid>1</guid></item></channel></rss>`);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(r.feed.title).toBe('t0');
    // Leaves left open so that no search for their close stops early: refused, not read 20,000
    // times over (quadratic).
    const open = Array.from({ length: 20_000 }, () => '<link><b>x</div>').join('');
    const t1 = performance.now();
    const crafted = parseFeed(`<rss version="2.0"><channel>${open}</link></channel></rss>`);
    expect(performance.now() - t1).toBeLessThan(3000);
    expect(crafted.kind === 'error' && crafted.error.message).toMatch(/Too many elements are never closed/);
    const missing = parseFeed('<rss>\n<channel>\n<title>x</item>\n</channel></rss>');
    expect(missing.kind === 'error' && missing.error.message).toMatch(
      /<title> is never closed \(line 3, column 1\)/,
    );
  });
});

describe('smaller shapes', () => {
  it('an Atom entry whose only address is an http(s) id gets it as its link', () => {
    const feed = read(`<feed xmlns="http://www.w3.org/2005/Atom"><title>f</title>
      <entry><id>https://blog.example/2024/post</id><title>a</title></entry>
      <entry><id>tag:blog.example,2024:2</id><title>b</title></entry>
      <entry><id>https://blog.example/3</id><link href="https://blog.example/three"/></entry></feed>`).feed;
    expect(feed.items.map((i) => i.link)).toEqual([
      'https://blog.example/2024/post',
      null,
      'https://blog.example/three',
    ]);
  });

  it('items in a second <channel> are read; the first channel describes the feed', () => {
    const feed = read(`<rss version="2.0">
      <channel><title>First</title><link>https://one.example/</link><item><guid>1</guid></item></channel>
      <channel xml:base="https://two.example/"><title>Second</title><item><guid>2</guid><link>p2</link></item></channel>
    </rss>`).feed;
    expect(feed.title).toBe('First');
    expect(ids(feed)).toEqual(['1', '2']);
    expect(feed.items[1]!.link).toBe('https://two.example/p2');
  });

  it('a date named twice keeps the first: JSON Feed as Atom and RSS do', () => {
    const json = read(`{"version": "https://jsonfeed.org/version/1.1", "title": "j", "items": [
      {"id": "1", "content_text": "x", "date_published": "2024-01-01T00:00:00Z", "date_modified": "2024-02-01T00:00:00Z",
       "date_published": "1999-01-01T00:00:00Z", "date_modified": "1999-02-01T00:00:00Z",
       "_ext": {"date_published": "nested objects keep their own"}},
      {"id": "2", "content_text": "y", "date_published": "2024-03-01T00:00:00Z"}]}`).feed;
    expect(json.items.map((i) => [i.published, i.updated])).toEqual([
      ['2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z'],
      ['2024-03-01T00:00:00.000Z', null],
    ]);
    const atom = read(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id>
      <updated>2024-01-01T00:00:00Z</updated><updated>1999-01-01T00:00:00Z</updated>
      <published>2023-01-01T00:00:00Z</published><published>1998-01-01T00:00:00Z</published></entry></feed>`).feed;
    expect([atom.items[0]!.updated, atom.items[0]!.published]).toEqual([
      '2024-01-01T00:00:00.000Z',
      '2023-01-01T00:00:00.000Z',
    ]);
  });

  it('an Atom 0.3 Base64 title is decoded and read as its type says (text: tags as written)', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const feed = read(`<feed version="0.3" xmlns="http://purl.org/atom/ns#">
      <title mode="base64">${b64('Example <b>Atom</b>')}</title>
      <entry><title mode="base64" type="text/html">${b64('&lt;p&gt;HTML &amp;amp; more')}</title>
      <summary mode="base64">${b64('a < b')}</summary></entry>
      <entry><title mode="base64">not*base64</title></entry></feed>`).feed;
    expect(feed.title).toBe('Example <b>Atom</b>');
    expect(feed.items[0]!.title).toBe('<p>HTML &amp; more');
    expect(feed.items[0]!.summary).toBe('a &lt; b');
    expect(feed.items[1]!.title).toBe('not*base64');
  });
});
