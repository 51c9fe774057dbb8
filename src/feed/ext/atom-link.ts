/**
 * Atom's <link rel href type length>, in Atom feeds and as atom:link inside RSS (rel="self" for
 * the feed's own URL, rel="hub" for WebSub, rel="alternate" for the page).
 */
import { toInt } from '../model-new.ts';
import { baseWithin, resolveUrl } from '../urls.ts';
import { attr, text, type XmlElement } from '../xml/tree.ts';

export interface LinkRef {
  /** Lowercased; "alternate" when absent (Atom's default). IANA URIs are shortened to the name. */
  rel: string;
  href: string;
  type: string | null;
  length: number | null;
}

/**
 * The link, href resolved against xml:base; null when it has none. An empty href is the base
 * itself (RFC 3986, 5.2.2); without an href attribute, the address may be the element's text.
 */
export function readLink(el: XmlElement, base: string | null): LinkRef | null {
  const within = baseWithin(attr(el, 'xml:base'), base);
  const written = el.attrs?.href;
  const href =
    written === undefined ? resolveUrl(text(el), within) : (resolveUrl(attr(el, 'href'), within) ?? within);
  if (href === null) return null;
  const rel = (attr(el, 'rel') ?? 'alternate')
    .toLowerCase()
    .replace('http://www.iana.org/assignments/relation/', '');
  return { rel, href, type: attr(el, 'type'), length: toInt(attr(el, 'length')) };
}

/** The best alternate link: text/html first, then any alternate. */
export function pickAlternate(links: LinkRef[]): string | null {
  let any: string | null = null;
  for (const l of links) {
    if (l.rel !== 'alternate') continue;
    if (l.type === null || /html/i.test(l.type)) return l.href;
    any ??= l.href;
  }
  return any;
}

/** Adds a hub URL once. */
export function addHub(hubs: string[], href: string): void {
  if (!hubs.includes(href)) hubs.push(href);
}
