import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { charsetOf, chooseEncoding, decodeHtmlPage, decodeWindows1252 } from './encoding.ts';
import { parseFeed } from './parse.ts';

/** A one-item RSS feed as bytes, one byte per char of `title` (latin1), with an optional declaration. */
function rssBytes(title: string, declaredEncoding?: string): Uint8Array {
  const decl = declaredEncoding ? `<?xml version="1.0" encoding="${declaredEncoding}"?>\n` : '';
  return Buffer.from(`${decl}<rss version="2.0"><channel><title>${title}</title></channel></rss>`, 'latin1');
}

function titleOf(body: Uint8Array | string, contentType?: string): string | null {
  const r = parseFeed(body, { contentType });
  if (r.kind !== 'feed') throw new Error(JSON.stringify(r));
  return r.feed.title;
}

// windows-1252: 0x93/0x94 are curly double quotes, 0x92 a right single quote, 0x80 the euro sign.
const SMART = '\x93Smart\x94 quotes, it\x92s \x80 5';
const SMART_DECODED = '\u201cSmart\u201d quotes, it\u2019s \u20ac 5';

describe('encodings', () => {
  it('windows-1252 named by the HTTP charset', () => {
    expect(titleOf(rssBytes(SMART), 'application/rss+xml; charset=windows-1252')).toBe(SMART_DECODED);
  });

  it('windows-1252 named by the XML declaration', () => {
    expect(titleOf(rssBytes(SMART, 'windows-1252'))).toBe(SMART_DECODED);
  });

  it('the HTTP charset wins over the XML declaration', () => {
    expect(titleOf(rssBytes(SMART, 'UTF-8'), 'text/xml; charset="Windows-1252"')).toBe(SMART_DECODED);
  });

  it('iso-8859-1 named by the XML declaration', () => {
    expect(titleOf(rssBytes('Caf\xe9 na\xefve', 'ISO-8859-1'))).toBe('Café naïve');
  });

  it('UTF-16LE and UTF-16BE with a byte order mark (the BOM wins over a wrong HTTP charset)', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-16"?><rss><channel><title>Ünïcödé ✓ 😀</title></channel></rss>';
    const le = Buffer.from(`\ufeff${xml}`, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(titleOf(le)).toBe('Ünïcödé ✓ 😀');
    expect(titleOf(be, 'text/xml; charset=iso-8859-1')).toBe('Ünïcödé ✓ 😀');
  });

  it('UTF-8 with a byte order mark, and UTF-8 by default', () => {
    const xml = '<rss><channel><title>Grüße</title></channel></rss>';
    expect(titleOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]))).toBe('Grüße');
    expect(titleOf(Buffer.from(xml))).toBe('Grüße');
  });

  it('an unknown charset falls back to UTF-8 instead of failing', () => {
    expect(
      titleOf(
        Buffer.from('<rss><channel><title>Grüße</title></channel></rss>'),
        'text/xml; charset=x-klingon',
      ),
    ).toBe('Grüße');
    expect(titleOf(rssBytes('plain', 'x-made-up'))).toBe('plain');
  });

  it('a JS string is used as is, whatever its declaration says', () => {
    expect(
      titleOf('<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><title>Café</title></channel></rss>'),
    ).toBe('Café');
  });

  it.each([
    ['text/xml; charset=UTF-8', 'utf-8'],
    ['application/rss+xml;charset="iso-8859-1"', 'iso-8859-1'],
    ['text/xml', null],
    [null, null],
  ])('charsetOf(%j) = %j', (header, label) => {
    expect(charsetOf(header)).toBe(label);
  });

  it('chooseEncoding: BOM, then HTTP, then declaration, then UTF-8', () => {
    expect(chooseEncoding(Buffer.from([0xff, 0xfe, 0x3c, 0x00]), 'text/xml; charset=utf-8')).toBe('utf-16le');
    expect(chooseEncoding(rssBytes('x', 'iso-8859-2'), 'text/xml; charset=koi8-r')).toBe('koi8-r');
    expect(chooseEncoding(rssBytes('x', 'iso-8859-2'))).toBe('iso-8859-2');
    expect(chooseEncoding(rssBytes('x'))).toBe('utf-8');
    expect(chooseEncoding(Buffer.from(' \n\t<?xml version="1.0" encoding="ISO-8859-2"?><rss/>'))).toBe(
      'iso-8859-2',
    );
    expect(chooseEncoding(Buffer.from('<rss/><?xml version="1.0" encoding="ISO-8859-2"?>'))).toBe('utf-8');
  });

  it('windows-1252 is decoded the same on every Node (Node 20 TextDecoder drops 0x80-0x9F)', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
    expect(decodeWindows1252(bytes)).toBe(
      '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f' +
        '\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178',
    );
    expect(chooseEncoding(rssBytes('x', 'ISO-8859-1'))).toBe('iso-8859-1');
    expect(titleOf(rssBytes(SMART), 'text/xml; charset=us-ascii')).toBe(SMART_DECODED);
  });

  it('UTF-32 named by the HTTP charset', () => {
    const xml = '<rss><channel><title>Grüße 😀</title></channel></rss>';
    const be = new Uint8Array(4 * [...xml].length);
    [...xml].forEach((c, i) => {
      new DataView(be.buffer).setUint32(i * 4, c.codePointAt(0)!, false);
    });
    expect(titleOf(be, 'text/xml; charset=utf-32')).toBe('Grüße 😀');
    expect(titleOf(be, 'text/xml; charset=UTF-32BE')).toBe('Grüße 😀');
    expect(titleOf(be, 'text/xml; charset=ISO-10646-UCS-4')).toBe('Grüße 😀');
    const le = Buffer.from(be).swap32();
    expect(titleOf(le, 'text/xml; charset=utf-32le')).toBe('Grüße 😀');
  });
});

describe('web pages (discovery and the reader view read them alike)', () => {
  /** A page whose title is the bytes of the KOI8-R sample feed's title, with `head` before it. */
  function koi8Page(head = ''): Uint8Array {
    const feed = readFileSync(new URL('./testdata/encoding/undeclared-koi8-r.xml', import.meta.url));
    const title = feed.subarray(feed.indexOf('<title>') + 7, feed.indexOf('</title>'));
    return Buffer.concat([
      Buffer.from(`<!doctype html><html><head>${head}<title>`),
      title,
      Buffer.from('</title></head><body><p>Text</p></body></html>'),
    ]);
  }
  const titleIn = (html: string) => /<title>(.*)<\/title>/.exec(html)?.[1];

  it('a page that names no charset, in a legacy encoding, is guessed', () => {
    expect(titleIn(decodeHtmlPage(koi8Page(), 'text/html'))).toBe('Новости дня');
  });

  it('the charset Content-Type names, else the page’s <meta charset>', () => {
    expect(titleIn(decodeHtmlPage(koi8Page(), 'text/html; charset=koi8-r'))).toBe('Новости дня');
    expect(titleIn(decodeHtmlPage(koi8Page('<meta charset="koi8-r">'), 'text/html'))).toBe('Новости дня');
    // A charset nobody can decode with is passed over for the next one named: the <meta>'s
    // windows-1252 wins over a UTF-8 reading of the same bytes (C3 A9: "é" in UTF-8).
    const page = Buffer.from(
      '<html><head><meta charset="windows-1252"><title>\xc3\xa9</title></head></html>',
      'latin1',
    );
    expect(titleIn(decodeHtmlPage(page, 'text/html; charset=x-bogus'))).toBe('\u00c3\u00a9');
  });

  it('UTF-16 without a byte order mark, known by its NULs; a UTF-16 <meta> on ASCII bytes is not believed', () => {
    const page = '<html><head><title>Größe</title></head></html>';
    expect(decodeHtmlPage(Buffer.from(page, 'utf16le'), null)).toBe(page);
    const lying = `<html><head><meta charset="utf-16"><title>Größe</title></head></html>`;
    expect(titleIn(decodeHtmlPage(Buffer.from(lying, 'utf8'), 'text/html'))).toBe('Größe');
  });
});
