/**
 * Namespaced elements an RSS or RDF item may carry (content:encoded, dc:, dcterms:, atom:link,
 * Media RSS, iTunes, source:outline), gathered while the item is read and then applied as
 * fallbacks in one place, so every format ranks them the same way.
 */
import { parseDate } from '../dates.ts';
import { htmlWithin } from '../html-urls.ts';
import type { Category, Enclosure, Item, ItemPodcast } from '../model.ts';
import { newMedia } from '../model-new.ts';
import { parsePersonText } from '../person-text.ts';
import { rssTitle } from '../text.ts';
import { xhtmlToHtml } from '../xhtml.ts';
import { attr, text, type XmlElement } from '../xml/tree.ts';
import { pickAlternate } from './atom-link.ts';
import { type CommonExtras, readCommonExtra } from './common-extras.ts';
import { finishMedia, type MediaBits, newMediaBits, readMediaElement } from './media.ts';
import { outlineToItem } from './source.ts';

export const ITUNES_SCHEME = 'http://www.itunes.com/dtds/podcast-1.0.dtd';

export interface ItemExtras extends CommonExtras {
  content: string | null;
  /** xhtml:body, body, fullitem: full content ranked after content:encoded. */
  body: string | null;
  dcDescription: string | null;
  dcCreators: string[];
  subjects: Category[];
  issued: string | null;
  media: MediaBits;
  itunesEpisode: string | null;
  itunesSeason: string | null;
  itunesDuration: string | null;
  outlines: Item[];
}

export function newItemExtras(): ItemExtras {
  return {
    content: null,
    body: null,
    dcTitle: null,
    dcDescription: null,
    dcCreators: [],
    dcDate: null,
    subjects: [],
    issued: null,
    modified: null,
    links: [],
    media: newMediaBits(),
    itunesAuthor: null,
    itunesSummary: null,
    itunesImage: null,
    itunesEpisode: null,
    itunesSeason: null,
    itunesDuration: null,
    outlines: [],
  };
}

/** Reads `el` into `x` if it is an extension element we know; false when it is not. */
export function readItemExtra(el: XmlElement, base: string | null, x: ItemExtras): boolean {
  switch (el.name) {
    case 'content:encoded':
      x.content ??= htmlWithin(el, base);
      return true;
    case 'xhtml:body':
    case 'body':
    case 'fullitem':
      x.body ??= xhtmlToHtml(htmlWithin(el, base));
      return true;
    case 'dc:description':
      x.dcDescription ??= htmlWithin(el, base);
      return true;
    case 'dc:creator':
    case 'dc:author': // not in Dublin Core, but written by feeds that mean dc:creator
    case 'dc:contributor': {
      const name = text(el);
      if (name && el.name !== 'dc:contributor') x.dcCreators.push(name);
      return true;
    }
    case 'dc:subject': {
      const term = text(el);
      if (term) x.subjects.push({ term, scheme: null, label: null });
      return true;
    }
    case 'dcterms:issued':
    case 'dcterms:created':
    case 'atom:published':
      x.issued ??= text(el);
      return true;
    case 'itunes:episode':
      x.itunesEpisode ??= text(el);
      return true;
    case 'itunes:season':
      x.itunesSeason ??= text(el);
      return true;
    case 'itunes:duration':
      x.itunesDuration ??= text(el);
      return true;
    case 'itunes:category':
      readItunesCategories(el, x.subjects);
      return true;
    case 'source:outline':
      x.outlines.push(outlineToItem(el, base));
      return true;
    default:
      return readCommonExtra(el, base, x) || readMediaElement(el, base, x.media);
  }
}

/** itunes:category text="..." with nested subcategories, each as its own category. */
export function readItunesCategories(el: XmlElement, out: Category[]): void {
  const term = attr(el, 'text');
  if (term) out.push({ term, scheme: ITUNES_SCHEME, label: null });
  for (const c of el.children) if (c.name === 'itunes:category') readItunesCategories(c, out);
}

/** Fills what the core elements left empty, in a fixed order of preference. */
export function applyItemExtras(item: Item, x: ItemExtras): void {
  item.content ??= x.content ?? x.body;
  item.title ??= rssTitle(x.dcTitle) ?? rssTitle(x.media.title);
  item.summary ??= x.dcDescription ?? x.itunesSummary ?? x.media.description;
  item.published ??= parseDate(x.dcDate) ?? parseDate(x.issued);
  item.updated ??= parseDate(x.modified);
  item.link ??= pickAlternate(x.links);
  if (item.authors.length === 0) {
    const names =
      x.dcCreators.length > 0 ? x.dcCreators : x.itunesAuthor ? [x.itunesAuthor] : x.media.credits;
    for (const name of names) item.authors.push(parsePersonText(name));
  }
  item.categories.push(...x.subjects, ...x.media.categories);
  for (const l of x.links) {
    if (l.rel === 'enclosure') addEnclosure(item.enclosures, { url: l.href, type: l.type, length: l.length });
    else if (l.rel === 'replies' && (l.type === null || /html/i.test(l.type))) item.comments ??= l.href;
  }
  item.media = finishMedia(x.media);
  if (item.media.length === 0 && x.itunesImage) {
    const m = newMedia();
    m.url = x.itunesImage;
    m.medium = 'image';
    m.thumbnail = x.itunesImage;
    item.media.push(m);
  }
  item.children.push(...x.outlines);
  const podcast: ItemPodcast = {
    image: x.itunesImage,
    episode: positiveInt(x.itunesEpisode),
    season: positiveInt(x.itunesSeason),
    durationSec: parseDuration(x.itunesDuration),
  };
  if (Object.values(podcast).some((v) => v !== null)) item.podcast = podcast;
}

function positiveInt(s: string | null): number | null {
  if (s === null || !/^\s*\d{1,9}\s*$/.test(s)) return null;
  return Number.parseInt(s, 10);
}

/** itunes:duration: "HH:MM:SS", "MM:SS" or seconds (fractions dropped); null when unreadable. */
export function parseDuration(s: string | null): number | null {
  const t = s?.trim();
  if (!t || !/^\d{1,9}(\.\d+)?$|^\d{1,4}(:\d{1,2}){1,2}(\.\d+)?$/.test(t)) return null;
  const parts = t.split(':').map((p) => Number.parseFloat(p));
  let sec = 0;
  for (const p of parts) sec = sec * 60 + p;
  return Math.floor(sec);
}

/** Adds an enclosure unless one with the same URL is already there. */
export function addEnclosure(list: Enclosure[], e: Enclosure): void {
  if (!list.some((x) => x.url === e.url)) list.push(e);
}
