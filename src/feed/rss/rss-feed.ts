/**
 * RSS 0.91-0.94 and 2.0 (<rss><channel>) to the Feed model: the channel's own elements here,
 * namespaced ones through ext/, items through rss-item.ts.
 */
import { parseDate } from '../dates.ts';
import {
  applyChannelExtras,
  type ChannelExtras,
  newChannelExtras,
  readChannelExtra,
} from '../ext/channel-extras.ts';
import { capItemElements } from '../item-cap.ts';
import type { CloudElement, Feed, FeedFormat, FeedImage } from '../model.ts';
import { newFeed, toInt } from '../model-new.ts';
import { type ReadContext, readItemsInto } from '../read-context.ts';
import { rssTitle } from '../text.ts';
import { baseWithin, resolveUrl } from '../urls.ts';
import { attr, child, text, type XmlElement } from '../xml/tree.ts';
import { readRssItem } from './rss-item.ts';

export function readRssFeed(root: XmlElement, format: FeedFormat, ctx: ReadContext): Feed {
  const feed = newFeed(format);
  const rootBase = baseWithin(attr(root, 'xml:base'), ctx.url);
  const x: ChannelExtras = newChannelExtras();
  const itemElements: XmlElement[] = [];
  /** Each channel item's base: its own channel's. */
  const itemBases = new Map<XmlElement, string | null>();
  /** The first channel's base that is known; items beside the channels, and those without one, take it. */
  let base: string | null | undefined;
  // A document with two channels (two feeds a CMS ran together): the first one describes the
  // feed, and the items of every channel are read (issue 34).
  for (const channel of root.children) {
    if (channel.name !== 'channel') continue;
    const channelBase = baseWithin(attr(channel, 'xml:base'), rootBase);
    base ??= channelBase;
    // One at a time: push(...items) passes each as an argument, past V8's limit for a big channel.
    for (const el of readChannel(channel, channelBase, feed, x)) {
      itemElements.push(el);
      itemBases.set(el, channelBase);
    }
  }
  base ??= rootBase;
  // Some feeds put items beside the channel rather than in it.
  for (const c of root.children) if (c.name === 'item') itemElements.push(c);
  applyChannelExtras(feed, x);
  readItemsInto(feed, capItemElements(itemElements, ctx), ctx, (el) =>
    readRssItem(el, itemBases.get(el) ?? base, x.itunesAuthor),
  );
  return feed;
}

/** A channel's own elements into the feed (the first value of each wins); its items returned. */
function readChannel(channel: XmlElement, base: string | null, feed: Feed, x: ChannelExtras): XmlElement[] {
  const items: XmlElement[] = [];
  for (const c of channel.children) {
    switch (c.name) {
      case 'title':
        feed.title ??= rssTitle(text(c));
        break;
      case 'link':
        if (text(c) === null && attr(c, 'href') !== null)
          readChannelExtra({ ...c, name: 'atom:link' }, base, x);
        else feed.link ??= resolveUrl(text(c), base);
        break;
      case 'description':
        feed.description ??= text(c);
        break;
      case 'language':
        feed.language ??= text(c);
        break;
      case 'generator':
        feed.generator ??= text(c);
        break;
      case 'pubDate':
        feed.published ??= parseDate(text(c));
        break;
      case 'lastBuildDate':
        feed.updated ??= parseDate(text(c));
        break;
      case 'ttl':
        feed.ttl ??= toInt(text(c));
        break;
      case 'image':
        feed.image ??= readImage(c, base);
        break;
      case 'skipHours':
        if (feed.skipHours.length === 0) feed.skipHours = readSkipHours(c);
        break;
      case 'skipDays':
        if (feed.skipDays.length === 0) feed.skipDays = readSkipDays(c);
        break;
      case 'cloud':
        feed.cloud ??= readCloud(c);
        break;
      case 'item':
        items.push(c);
        break;
      default:
        readChannelExtra(c, base, x);
    }
  }
  return items;
}

function readImage(el: XmlElement, base: string | null): FeedImage | null {
  const image: FeedImage = {
    url: resolveUrl(text(child(el, 'url')), base),
    title: text(child(el, 'title')),
    link: resolveUrl(text(child(el, 'link')), base),
  };
  return image.url === null && image.title === null && image.link === null ? null : image;
}

/** Hours 0-23 in ascending order (some feeds write 24 for midnight). */
function readSkipHours(el: XmlElement): number[] {
  const hours = new Set<number>();
  for (const c of el.children) {
    const h = c.name === 'hour' ? toInt(text(c)) : null;
    if (h !== null && h <= 24) hours.add(h % 24);
  }
  return [...hours].sort((a, b) => a - b);
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Day names, capitalised as the spec writes them; unknown names dropped. */
function readSkipDays(el: XmlElement): string[] {
  const days: string[] = [];
  for (const c of el.children) {
    const t = c.name === 'day' ? text(c)?.toLowerCase() : undefined;
    const day = t && t.length >= 3 ? DAYS.find((d) => d.toLowerCase().startsWith(t)) : undefined;
    if (day && !days.includes(day)) days.push(day);
  }
  return days;
}

/** <cloud domain port path registerProcedure protocol/>; null without a domain. */
export function readCloud(el: XmlElement): CloudElement | null {
  const domain = attr(el, 'domain');
  if (!domain) return null;
  const protocol = attr(el, 'protocol') ?? '';
  const port = toInt(attr(el, 'port'));
  return {
    domain,
    port:
      port !== null && port > 0 && port < 65536 ? port : protocol.toLowerCase() === 'https-post' ? 443 : 80,
    path: attr(el, 'path') ?? '/',
    registerProcedure: attr(el, 'registerProcedure') ?? '',
    protocol,
  };
}
