/**
 * A post's text on its way in and out. In: anything XML cannot carry (C0 controls, lone
 * surrogates, U+FFFE/U+FFFF) is dropped, CRLF/CR become LF and the ends are trimmed, so what is
 * stored is exactly what every format can carry and parse back (the round-trip promise).
 * Out: HTML with links made clickable, escaped once.
 */
import { stripInvalidXmlChars } from '../feed/xml-escape.ts';

/** The stored form of user text (see the file comment). */
export function cleanText(s: string): string {
  return stripInvalidXmlChars(s.replace(/\r\n?/g, '\n')).trim();
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Trailing punctuation that ends a sentence rather than the URL. */
const TRAILING = /[.,;:!?)\]}]+$/;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The post's text as HTML: escaped, URLs as links, line breaks as <br>. Pure and stable. */
export function postHtml(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(URL_IN_TEXT)) {
    let url = m[0];
    const trail = TRAILING.exec(url)?.[0] ?? '';
    url = url.slice(0, url.length - trail.length);
    const start = m.index ?? 0;
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  out += escapeHtml(text.slice(last));
  return out.replace(/\n/g, '<br>');
}

/** How long an excerpt title is at most (Atom needs a title; a post has none of its own). */
const TITLE_GRAPHEMES = 80;

/**
 * A title for a title-less post where a format requires one (Atom: atom:entry MUST have a
 * non-empty atom:title): the post's own words, on one line, cut at a word before 80 characters
 * (counted as people count them) with an ellipsis.
 */
export function postTitle(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const parts = [...seg.segment(line)].map((s) => s.segment);
  if (parts.length <= TITLE_GRAPHEMES) return line;
  const cut = parts.slice(0, TITLE_GRAPHEMES - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length >= cut.length / 2 ? atWord : cut}…`;
}
