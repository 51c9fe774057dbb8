/**
 * Relative URLs inside an item's HTML (summary, content) made absolute against the base in force
 * where the HTML sits: xml:base (content, entry, feed) and then the document's URL, the same base
 * links and enclosures get (urls.ts). Without this the HTML's `href="rel.html"` would later be
 * read against whatever page shows it. Left as written: absolute URLs (any scheme), in-page
 * fragments (`#fn1`, footnotes), empty values, and anything that is not inside a tag.
 */

import { baseWithin } from './urls.ts';
import { attr, html, type XmlElement } from './xml/tree.ts';

/** Attributes that hold a URL (HTML 4 and 5), found after whitespace inside a tag. */
const URL_ATTRIBUTE =
  /(\s(?:href|src|srcset|poster|cite|action|background|longdesc|usemap|codebase)\s*=\s*)("[^"]*"|'[^']*'|[^\s>"']+)/gi;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** `html` with the URLs in its tags' attributes resolved against `base` (absolute or null). */
export function resolveHtmlUrls(html: string | null, base: string | null): string | null {
  if (html === null || base === null || html.indexOf('=') === -1) return html;
  let baseUrl: URL;
  try {
    baseUrl = new URL(base);
  } catch {
    return html;
  }
  return html.replace(URL_ATTRIBUTE, (whole, lead: string, quoted: string, at: number) => {
    // Inside a tag: the last '<' before it comes after the last '>' (text such as "src=x" is not).
    if (html.lastIndexOf('<', at) <= html.lastIndexOf('>', at)) return whole;
    const q = quoted.charCodeAt(0) === 34 || quoted.charCodeAt(0) === 39 ? quoted[0]! : '';
    const value = q ? quoted.slice(1, -1) : quoted;
    const srcset = /srcset/i.test(lead);
    const resolved = srcset ? resolveSrcset(value, baseUrl) : resolveOne(value, baseUrl);
    return resolved === value ? whole : `${lead}${q}${resolved}${q}`;
  });
}

function resolveOne(value: string, base: URL): string {
  const v = value.trim();
  if (v === '' || v.charCodeAt(0) === 35 || SCHEME.test(v)) return value; // '#'
  try {
    return new URL(v, base).href;
  } catch {
    return value;
  }
}

/** "a.png 1x, /b.png 2x": each candidate's URL resolved, descriptors kept. */
function resolveSrcset(value: string, base: URL): string {
  return value
    .split(',')
    .map((candidate) => {
      const m = /^(\s*)(\S+)(.*)$/s.exec(candidate);
      return m ? `${m[1]}${resolveOne(m[2]!, base)}${m[3]}` : candidate;
    })
    .join(',');
}

/** An item element's HTML (html() in tree.ts) with its URLs resolved where it sits. */
export function htmlWithin(el: XmlElement, base: string | null): string | null {
  return resolveHtmlUrls(html(el), baseWithin(attr(el, 'xml:base'), base));
}
