/**
 * Media RSS (http://search.yahoo.com/mrss/) at item level: media:content, media:group,
 * media:thumbnail, media:title, media:description, media:credit, media:category. Used by RSS,
 * RDF and Atom alike (YouTube's Atom feeds are mostly media:group).
 */
import type { Category, Media } from '../model.ts';
import { newMedia, toInt } from '../model-new.ts';
import { resolveUrl } from '../urls.ts';
import { attr, text, type XmlElement } from '../xml/tree.ts';

/** What an item's media elements said, gathered before being turned into Media entries. */
export interface MediaBits {
  media: Media[];
  thumbnail: string | null;
  title: string | null;
  description: string | null;
  credits: string[];
  categories: Category[];
}

export function newMediaBits(): MediaBits {
  return { media: [], thumbnail: null, title: null, description: null, credits: [], categories: [] };
}

/** Reads one item-level element if it is Media RSS; false when it is not. */
export function readMediaElement(el: XmlElement, base: string | null, bits: MediaBits): boolean {
  switch (el.name) {
    case 'media:content':
      bits.media.push(mediaContent(el, base));
      return true;
    case 'media:group':
      readGroup(el, base, bits);
      return true;
    case 'media:thumbnail':
      bits.thumbnail ??= resolveUrl(attr(el, 'url'), base);
      return true;
    case 'media:title':
      bits.title ??= text(el);
      return true;
    case 'media:description':
      bits.description ??= text(el);
      return true;
    case 'media:credit': {
      const name = text(el);
      if (name) bits.credits.push(name);
      return true;
    }
    case 'media:category': {
      const term = text(el);
      if (term) bits.categories.push({ term, scheme: attr(el, 'scheme'), label: attr(el, 'label') });
      return true;
    }
    default:
      return false;
  }
}

function mediaContent(el: XmlElement, base: string | null): Media {
  const m = newMedia();
  m.url = resolveUrl(attr(el, 'url'), base);
  m.type = attr(el, 'type');
  m.medium = attr(el, 'medium');
  m.width = toInt(attr(el, 'width'));
  m.height = toInt(attr(el, 'height'));
  for (const c of el.children) {
    if (c.name === 'media:title') m.title ??= text(c);
    else if (c.name === 'media:thumbnail') m.thumbnail ??= resolveUrl(attr(c, 'url'), base);
  }
  return m;
}

/** A group's own title and thumbnail apply to its contents; the rest is the item's. */
function readGroup(group: XmlElement, base: string | null, bits: MediaBits): void {
  const inner = newMediaBits();
  for (const c of group.children) readMediaElement(c, base, inner);
  for (const m of inner.media) {
    m.title ??= inner.title;
    m.thumbnail ??= inner.thumbnail;
    bits.media.push(m);
  }
  if (inner.media.length === 0 && inner.thumbnail) {
    bits.thumbnail ??= inner.thumbnail;
    bits.title ??= inner.title;
  }
  bits.description ??= inner.description;
  bits.credits.push(...inner.credits);
  bits.categories.push(...inner.categories);
}

/**
 * The item's Media entries: item-level title and thumbnail fill the gaps; a thumbnail with no
 * media:content at all still becomes an entry (url null), so the river can show it.
 */
export function finishMedia(bits: MediaBits): Media[] {
  for (const m of bits.media) {
    m.title ??= bits.title;
    m.thumbnail ??= bits.thumbnail;
  }
  if (bits.media.length === 0 && bits.thumbnail) {
    const m = newMedia();
    m.medium = 'image';
    m.title = bits.title;
    m.thumbnail = bits.thumbnail;
    return [m];
  }
  return bits.media;
}
