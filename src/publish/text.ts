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
