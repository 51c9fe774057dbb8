/**
 * Namespaced elements at channel level, shared by RSS and RDF (and the sy: part by Atom):
 * sy:update*, atom:link (self, hub, alternate), source:cloud, iTunes image/summary/author, and
 * dc: fallbacks for language, date and title.
 */
import { parseDate } from '../dates.ts';
import type { Feed, Syndication } from '../model.ts';
import { toInt } from '../model-new.ts';
import { text, type XmlElement } from '../xml/tree.ts';
import { addHub, pickAlternate } from './atom-link.ts';
import { type CommonExtras, readCommonExtra } from './common-extras.ts';
import { cloudFromUrl } from './source.ts';

export interface ChannelExtras extends CommonExtras {
  sourceCloud: string | null;
  itunesSubtitle: string | null;
  dcLanguage: string | null;
  dcDescription: string | null;
  issued: string | null;
  syPeriod: string | null;
  syFrequency: string | null;
  syBase: string | null;
}

export function newChannelExtras(): ChannelExtras {
  return {
    links: [],
    sourceCloud: null,
    itunesImage: null,
    itunesSummary: null,
    itunesSubtitle: null,
    itunesAuthor: null,
    dcDate: null,
    dcLanguage: null,
    dcTitle: null,
    dcDescription: null,
    issued: null,
    modified: null,
    syPeriod: null,
    syFrequency: null,
    syBase: null,
  };
}

export function readChannelExtra(el: XmlElement, base: string | null, x: ChannelExtras): boolean {
  switch (el.name) {
    case 'source:cloud':
      x.sourceCloud ??= text(el);
      return true;
    case 'itunes:subtitle':
      x.itunesSubtitle ??= text(el);
      return true;
    case 'dc:language':
      x.dcLanguage ??= text(el);
      return true;
    case 'dc:description':
      x.dcDescription ??= text(el);
      return true;
    case 'dcterms:issued':
      x.issued ??= text(el);
      return true;
    case 'sy:updatePeriod':
      x.syPeriod ??= text(el);
      return true;
    case 'sy:updateFrequency':
      x.syFrequency ??= text(el);
      return true;
    case 'sy:updateBase':
      x.syBase ??= text(el);
      return true;
    default:
      return readCommonExtra(el, base, x);
  }
}

/** sy:updatePeriod / updateFrequency / updateBase, or null when the feed says none of them. */
export function syndication(x: ChannelExtras): Syndication | null {
  if (x.syPeriod === null && x.syFrequency === null && x.syBase === null) return null;
  return {
    updatePeriod: x.syPeriod?.toLowerCase() ?? null,
    updateFrequency: toInt(x.syFrequency),
    updateBase: parseDate(x.syBase),
  };
}

/** Fills the feed's gaps from the extras (core elements always win). */
export function applyChannelExtras(feed: Feed, x: ChannelExtras): void {
  feed.title ??= x.dcTitle;
  feed.language ??= x.dcLanguage;
  feed.description ??= x.dcDescription ?? x.itunesSummary ?? x.itunesSubtitle;
  feed.published ??= parseDate(x.issued);
  feed.updated ??= parseDate(x.modified) ?? parseDate(x.dcDate);
  feed.link ??= pickAlternate(x.links);
  for (const l of x.links) {
    if (l.rel === 'self') feed.self ??= l.href;
    else if (l.rel === 'hub') addHub(feed.hubs, l.href);
  }
  feed.cloud ??= cloudFromUrl(x.sourceCloud);
  if (feed.image === null && x.itunesImage) feed.image = { url: x.itunesImage, title: null, link: null };
  feed.sy ??= syndication(x);
}
