/**
 * Relative URLs inside an item's HTML (summary, content) made absolute against the base in force
 * where the HTML sits: xml:base (content, entry, feed) and then the document's URL, the same base
 * links and enclosures get (urls.ts). Without this the HTML's `href="rel.html"` would later be
 * read against whatever page shows it. Left as written: absolute URLs (any scheme), in-page
 * fragments (`#fn1`, footnotes), empty values, and anything that is not inside a tag.
 */

import { baseWithin, SCHEME } from './urls.ts';
import { isSpace } from './xml/prolog.ts';
import { attr, html, type XmlElement } from './xml/tree.ts';

/** Attributes that hold a URL (HTML 4 and 5). */
const URL_ATTRIBUTES = [
  'href',
  'src',
  'srcset',
  'poster',
  'cite',
  'action',
  'background',
  'longdesc',
  'usemap',
  'codebase',
];

/** The URL attribute named by html[from, to) in any case, or null; no string is made. */
function urlAttributeAt(html: string, from: number, to: number): string | null {
  const length = to - from;
  for (const name of URL_ATTRIBUTES) {
    if (name.length !== length) continue;
    let k = 0;
    while (k < length && (html.charCodeAt(from + k) | 0x20) === name.charCodeAt(k)) k++;
    if (k === length) return name;
  }
  return null;
}

/**
 * `html` with the URLs in its tags' attributes resolved against `base` (absolute or null). It hops
 * from '=' to '=' (indexOf) and looks back for the attribute's name, rather than running a
 * pattern from every space of a long body: this runs over every item's HTML.
 */
export function resolveHtmlUrls(html: string | null, base: string | null): string | null {
  if (html === null || base === null) return html;
  const n = html.length;
  let baseUrl: URL | null = null;
  let out = '';
  let last = 0;
  let eq = html.indexOf('=');
  while (eq !== -1) {
    let nameEnd = eq;
    while (nameEnd > 0 && isSpace(html.charCodeAt(nameEnd - 1))) nameEnd--;
    let nameStart = nameEnd;
    while (nameStart > 0 && isLetter(html.charCodeAt(nameStart - 1))) nameStart--;
    const attribute = isSpace(html.charCodeAt(nameStart - 1))
      ? urlAttributeAt(html, nameStart, nameEnd)
      : null;
    if (attribute === null) {
      eq = html.indexOf('=', eq + 1);
      continue;
    }
    let from = eq + 1;
    while (from < n && isSpace(html.charCodeAt(from))) from++;
    const q = html.charCodeAt(from);
    let to: number;
    if (q === 34 || q === 39) {
      to = html.indexOf(q === 34 ? '"' : "'", ++from);
      if (to === -1) break;
    } else {
      to = from;
      while (to < n && !isSpace(html.charCodeAt(to)) && html.charCodeAt(to) !== 62) to++;
    }
    const srcset = attribute === 'srcset';
    if (hasScheme(html, from, to) && !srcset) {
      eq = html.indexOf('=', to); // absolute: the usual case, decided without making a string
      continue;
    }
    const value = html.slice(from, to);
    if (isRelative(value) && insideTag(html, nameStart)) {
      if (baseUrl === null) {
        try {
          baseUrl = new URL(base);
        } catch {
          return html;
        }
      }
      const resolved = srcset ? resolveSrcset(value, baseUrl) : resolveOne(value, baseUrl);
      if (resolved !== value) {
        out += html.slice(last, from) + resolved;
        last = to;
      }
    }
    eq = html.indexOf('=', to);
  }
  return last === 0 ? html : out + html.slice(last);
}

/** Worth resolving: not empty, not an in-page fragment, not absolute (srcset: any candidate). */
function isRelative(value: string): boolean {
  const v = value.trim();
  if (v === '' || v.charCodeAt(0) === 35) return false;
  return !SCHEME.test(v) || v.includes(',');
}

/** Whether html[from, to) starts with a URL scheme ("https:", "mailto:"). */
function hasScheme(html: string, from: number, to: number): boolean {
  if (from >= to || !isLetter(html.charCodeAt(from))) return false;
  for (let i = from + 1; i < to; i++) {
    const c = html.charCodeAt(i);
    if (c === 58) return true; // ':'
    if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return false;
  }
  return false;
}

/** Inside a tag: the last '<' before `at` comes after the last '>' (text such as " src=x" is not). */
function insideTag(html: string, at: number): boolean {
  return html.lastIndexOf('<', at) > html.lastIndexOf('>', at);
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
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
