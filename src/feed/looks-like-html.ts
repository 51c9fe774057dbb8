/**
 * Whether a plain-text field (an RSS or RDF title) that holds '<' or '&' after XML decoding is
 * HTML after all. RSS says titles are plain text, but feeds put HTML in them ("<b>Bold</b> news",
 * "&amp;amp;"), and others write about tags ("Using the <canvas> element"). feedparser's rule
 * tells the two apart, and we follow it so a title reads the same in both: it is HTML only when
 * it has an end tag or a character reference, every tag in it is an HTML element a sanitiser
 * keeps, and every named reference is one HTML knows. Anything else is text, shown as written.
 */
import { NAMED_ENTITIES } from './html-entities.ts';

/** HTML elements that carry text or formatting (not script, style, iframe, object ...). */
const HTML_ELEMENTS = new Set(
  (
    'a abbr acronym address area article aside audio b bdi bdo big blockquote br button canvas caption ' +
    'center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em fieldset ' +
    'figcaption figure font footer form h1 h2 h3 h4 h5 h6 header hgroup hr i img input ins kbd label ' +
    'legend li main map mark menu meter nav noscript ol optgroup option output p picture pre progress q ' +
    'rp rt ruby s samp section select small source span strike strong sub summary sup table tbody td ' +
    'textarea tfoot th thead time tr track tt u ul var video wbr'
  ).split(' '),
);

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Index just past the word (letters, digits, '_') starting at `from`. */
function wordEnd(s: string, from: number): number {
  let i = from;
  while (i < s.length && isWordChar(s.charCodeAt(i))) i++;
  return i;
}

/**
 * feedparser's test, in one pass over the '<' and '&' of `s` (linear: each is looked at once).
 * `s` is the field's text after XML decoding.
 */
export function looksLikeHtml(s: string): boolean {
  let markup = false; // an end tag or a character reference: the sign of HTML
  let lt = s.indexOf('<');
  let amp = s.indexOf('&');
  while (lt !== -1 || amp !== -1) {
    if (lt !== -1 && (amp === -1 || lt < amp)) {
      const closing = s.charCodeAt(lt + 1) === 47;
      const nameAt = closing ? lt + 2 : lt + 1;
      const end = wordEnd(s, nameAt);
      if (end > nameAt) {
        if (!HTML_ELEMENTS.has(s.slice(nameAt, end).toLowerCase())) return false;
        if (closing && s.charCodeAt(end) === 62) markup = true;
      }
      lt = s.indexOf('<', Math.max(end, lt + 1));
    } else {
      const numeric = s.charCodeAt(amp + 1) === 35;
      const nameAt = numeric ? amp + 2 : amp + 1;
      const end = wordEnd(s, nameAt);
      if (end > nameAt && s.charCodeAt(end) === 59) {
        if (!numeric && !NAMED_ENTITIES.has(s.slice(nameAt, end))) return false;
        markup = true;
      }
      amp = s.indexOf('&', Math.max(end, amp + 1));
    }
  }
  return markup;
}
