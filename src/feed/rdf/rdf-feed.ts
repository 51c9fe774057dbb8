/**
 * RSS 1.0 and RSS 0.90 (both RDF: <rdf:RDF> holding <channel>, <image> and <item> side by side)
 * to the Feed model. Dates, authors and subjects come from Dublin Core; the item's id is its
 * rdf:about.
 */
import {
  applyChannelExtras,
  type ChannelExtras,
  newChannelExtras,
  readChannelExtra,
} from '../ext/channel-extras.ts';
import { applyItemExtras, type ItemExtras, newItemExtras, readItemExtra } from '../ext/item-extras.ts';
import { htmlWithin } from '../html-urls.ts';
import { capItemElements } from '../item-cap.ts';
import type { Feed, FeedFormat, FeedImage, Item } from '../model.ts';
import { newFeed, newItem } from '../model-new.ts';
import { type ReadContext, readItemsInto } from '../read-context.ts';
import { rssTitle } from '../text.ts';
import { baseWithin, resolveUrl } from '../urls.ts';
import { attr, child, text, type XmlElement } from '../xml/tree.ts';

export function readRdfFeed(root: XmlElement, format: FeedFormat, ctx: ReadContext): Feed {
  const feed = newFeed(format);
  const base = baseWithin(attr(root, 'xml:base'), ctx.url);
  const x: ChannelExtras = newChannelExtras();
  const items: XmlElement[] = [];
  for (const c of root.children) {
    if (c.name === 'channel') readChannel(c, feed, x, baseWithin(attr(c, 'xml:base'), base));
    else if (c.name === 'image') feed.image ??= readImage(c, base);
    else if (c.name === 'item') items.push(c);
  }
  applyChannelExtras(feed, x);
  readItemsInto(feed, capItemElements(items, ctx), ctx, (el) => {
    const item = readRdfItem(el, base);
    if (item.authors.length === 0 && x.itunesAuthor)
      item.authors.push({ name: x.itunesAuthor, email: null, uri: null });
    return item;
  });
  return feed;
}

function readChannel(el: XmlElement, feed: Feed, x: ChannelExtras, base: string | null): void {
  for (const c of el.children) {
    switch (c.name) {
      case 'title':
        feed.title ??= rssTitle(text(c));
        break;
      case 'link':
        feed.link ??= resolveUrl(text(c), base);
        break;
      case 'description':
        feed.description ??= text(c);
        break;
      default:
        readChannelExtra(c, base, x);
    }
  }
}

function readImage(el: XmlElement, base: string | null): FeedImage | null {
  const url = resolveUrl(text(child(el, 'url')) ?? attr(el, 'rdf:about'), base);
  const image = { url, title: text(child(el, 'title')), link: resolveUrl(text(child(el, 'link')), base) };
  return image.url === null && image.title === null && image.link === null ? null : image;
}

function readRdfItem(el: XmlElement, parentBase: string | null): Item {
  const base = baseWithin(attr(el, 'xml:base'), parentBase);
  const item = newItem();
  const x: ItemExtras = newItemExtras();
  for (const c of el.children) {
    switch (c.name) {
      case 'title':
        item.title ??= rssTitle(text(c));
        break;
      case 'link':
        item.link ??= resolveUrl(text(c), base);
        break;
      case 'description':
        item.summary ??= htmlWithin(c, base);
        break;
      default:
        readItemExtra(c, base, x);
    }
  }
  item.id = attr(el, 'rdf:about') ?? '';
  applyItemExtras(item, x);
  return item;
}
