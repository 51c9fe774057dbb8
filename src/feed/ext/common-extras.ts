/**
 * The extension elements a channel and an item read alike, the first of each kept: atom:link,
 * the iTunes author, summary and image, dc:title, dc:date and the modified date (dcterms or Atom).
 * channel-extras.ts and item-extras.ts read the rest, which differ between the two.
 */
import { resolveUrl } from '../urls.ts';
import { attr, html, text, type XmlElement } from '../xml/tree.ts';
import { type LinkRef, readLink } from './atom-link.ts';

export interface CommonExtras {
  links: LinkRef[];
  /** On a channel, the author of items that name none (the podcast convention). */
  itunesAuthor: string | null;
  itunesSummary: string | null;
  itunesImage: string | null;
  dcTitle: string | null;
  dcDate: string | null;
  modified: string | null;
}

/** Reads `el` into `x` if it is one of the shared elements; false when it is not. */
export function readCommonExtra(el: XmlElement, base: string | null, x: CommonExtras): boolean {
  switch (el.name) {
    case 'atom:link': {
      const link = readLink(el, base);
      if (link) x.links.push(link);
      return true;
    }
    case 'itunes:author':
      x.itunesAuthor ??= text(el);
      return true;
    case 'itunes:summary':
      x.itunesSummary ??= html(el);
      return true;
    case 'itunes:image':
      x.itunesImage ??= resolveUrl(attr(el, 'href') ?? attr(el, 'url') ?? text(el), base);
      return true;
    case 'dc:title':
      x.dcTitle ??= text(el);
      return true;
    case 'dc:date':
      x.dcDate ??= text(el);
      return true;
    case 'dcterms:modified':
    case 'atom:updated':
      x.modified ??= text(el);
      return true;
    default:
      return false;
  }
}
