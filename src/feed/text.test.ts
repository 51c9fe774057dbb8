import { describe, expect, it } from 'vitest';
import { decodeEntities, escapeHtml, htmlFromRaw, htmlToText, textFromRaw } from './text.ts';

describe('decodeEntities', () => {
  it.each([
    ['a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;', 'a & b <c> "d" \'e\''],
    ['it&#x27;s &#8217;quoted&#8217; &#X2014;', "it's \u2019quoted\u2019 \u2014"],
    [
      '&nbsp;&copy;&eacute;&mdash;&hellip;&euro;&trade;&Omega;',
      '\u00a0\u00a9\u00e9\u2014\u2026\u20ac\u2122\u03a9',
    ],
    ['&#146;&#150;', '\u2019\u2013'], // windows-1252 numeric references, as HTML reads them
    ['&#0; &#xD800; &#x110000;', '\uFFFD \uFFFD \uFFFD'],
    ['&unknown; &lol9; & alone &amp', '&unknown; &lol9; & alone &amp'],
    ['&amp;amp; decodes once', '&amp; decodes once'],
    ['no entities', 'no entities'],
  ])('%j -> %j', (input, out) => {
    expect(decodeEntities(input)).toBe(out);
  });
});

describe('raw element content', () => {
  it.each([
    ['&lt;p&gt;Escaped &amp;amp; HTML&lt;/p&gt;', '<p>Escaped &amp; HTML</p>'],
    ['<![CDATA[<p>CDATA &amp; HTML</p>]]>', '<p>CDATA &amp; HTML</p>'],
    ['  <![CDATA[<b>a</b>]]> and &lt;i&gt;b&lt;/i&gt;  ', '<b>a</b> and <i>b</i>'],
    ['<p>Raw &lt;tag&gt; markup</p>', '<p>Raw &lt;tag&gt; markup</p>'], // inline markup kept as written
    ['<p>inline</p><![CDATA[1 < 2]]>', '<p>inline</p>1 &lt; 2'],
  ])('htmlFromRaw(%j) = %j', (raw, html) => {
    expect(htmlFromRaw(raw)).toBe(html);
  });

  it.each([
    ['Tom &amp; Jerry', 'Tom & Jerry'],
    ['<![CDATA[Tom &amp; Jerry]]>', 'Tom &amp; Jerry'],
    ['A <b>bold</b><!-- c --> move', 'A bold move'],
  ])('textFromRaw(%j) = %j', (raw, text) => {
    expect(textFromRaw(raw)).toBe(text);
  });

  it('htmlToText strips tags, decodes and folds whitespace; escapeHtml round-trips', () => {
    expect(htmlToText('<p>One &amp;\n  <em>two</em></p>')).toBe('One & two');
    expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    expect(decodeEntities(escapeHtml('<a href="x">&</a>'))).toBe('<a href="x">&</a>');
  });
});
