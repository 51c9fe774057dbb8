/**
 * The base for relative URLs in a document read from a file (`tidings parse feed.xml`): the
 * site link the document names, because `file:///home/me/posts/1` helps nobody. Only used when
 * the document's own URL is not http(s); a link that is not absolute http(s) is not a base.
 */
import type { XmlElement } from './xml/tree.ts';
import { attr, child, text } from './xml/tree.ts';

const WEB_URL = /^https?:\/\/[^/\s]/i;

export function isFileUrl(url: string | null): boolean {
  return url !== null && /^file:/i.test(url);
}

/** The absolute http(s) site link of an XML feed (RSS/RDF channel link, Atom alternate link). */
export function xmlSiteLink(root: XmlElement, family: 'rss' | 'rdf' | 'atom'): string | null {
  let link: string | null = null;
  if (family === 'atom') {
    for (const c of root.children) {
      if (c.name !== 'link') continue;
      const rel = attr(c, 'rel');
      if (rel === null || rel === 'alternate') {
        link = attr(c, 'href');
        break;
      }
    }
  } else {
    const channel = child(root, 'channel');
    link = channel ? text(child(channel, 'link')) : null;
  }
  return link !== null && WEB_URL.test(link) ? link : null;
}

/** JSON Feed's home_page_url when it is absolute http(s). */
export function jsonSiteLink(doc: Record<string, unknown>): string | null {
  const link = doc.home_page_url;
  return typeof link === 'string' && WEB_URL.test(link.trim()) ? link.trim() : null;
}
