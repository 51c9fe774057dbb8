import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText } from './html-text.ts';

describe('htmlToText', () => {
  it.each([
    ['<p>Hello <b>world</b></p>', 'Hello world'],
    ['a<br/>b', 'a b'],
    ['Fish &amp; chips &lt;3 &#8212; &#x2603; &nbsp;x', 'Fish & chips <3 — ☃ x'],
    ['before<script>var evil = "<p>";</script>after', 'before after'],
    ['x<STYLE>p { color: red }</style>y', 'x y'],
    ['a<!-- hidden <b> -->b', 'ab'],
    ['1 < 2 and 3 > 2', '1 < 2 and 3 > 2'],
    ['unclosed <b tag', 'unclosed <b tag'],
    ['<script>never closed', ''],
    ['&bogus; &#0; &#99999999;', '&bogus; &#99999999;'],
    ['', ''],
    [null, ''],
  ])('%j -> %j', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it('stays linear on hostile input', () => {
    // A quadratic scan would take minutes here; the test only checks the answer.
    expect(htmlToText('<'.repeat(150_000)).length).toBe(150_000);
    expect(htmlToText('<script>'.repeat(20_000))).toBe('');
  });

  it('decodes numeric entities to code points', () => {
    expect(decodeEntities('&#128512;')).toBe('😀');
  });
});
