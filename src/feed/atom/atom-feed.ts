/**
 * Atom 1.0 and 0.3 (<feed>/<entry>) to the Feed model. Entries without authors inherit the
 * feed's (as RFC 4287 says); Atom 0.3's issued/modified stand in for published/updated.
 */
import { parseDate } from '../dates.ts';
import { addHub, type LinkRef, pickAlternate, readLink } from '../ext/atom-link.ts';
import {
  applyChannelExtras,
  type ChannelExtras,
  newChannelExtras,
  readChannelExtra,
} from '../ext/channel-extras.ts';
import {
  addEnclosure,
  applyItemExtras,
  type ItemExtras,
  newItemExtras,
  readItemExtra,
} from '../ext/item-extras.ts';
import { resolveHtmlUrls } from '../html-urls.ts';
import { capItemElements } from '../item-cap.ts';
import type { Feed, FeedFormat, Item, Person } from '../model.ts';
import { addPerson, newFeed, newItem, person } from '../model-new.ts';
import { type ReadContext, readItemsInto } from '../read-context.ts';
import { oneLine, orNull } from '../text.ts';
import { baseWithin, resolveUrl } from '../urls.ts';
import { attr, child, text, type XmlElement } from '../xml/tree.ts';
import { atomHtml, atomText } from './atom-text.ts';

export function readAtomFeed(root: XmlElement, format: FeedFormat, ctx: ReadContext): Feed {
  const feed = newFeed(format);
  const base = baseWithin(attr(root, 'xml:base'), ctx.url);
  const x: ChannelExtras = newChannelExtras();
  const links: LinkRef[] = [];
  const authors: Person[] = [];
  const entries: XmlElement[] = [];
  let logo: string | null = null;
  let icon: string | null = null;
  feed.language = attr(root, 'xml:lang');
  for (const c of root.children) {
    switch (c.name) {
      case 'title':
        feed.title ??= atomText(c);
        break;
      case 'subtitle':
      case 'tagline':
        feed.description ??= atomText(c);
        break;
      case 'link': {
        const link = readLink(c, base);
        if (link) links.push(link);
        break;
      }
      case 'updated':
      case 'modified':
        feed.updated ??= parseDate(text(c));
        break;
      case 'generator':
        if (feed.generatorDetail === null) {
          // Atom 0.3 wrote the address as url="".
          const uri = resolveUrl(attr(c, 'uri') ?? attr(c, 'url'), base);
          const g = { name: text(c), uri, version: attr(c, 'version') };
          if (g.name !== null || g.uri !== null || g.version !== null) feed.generatorDetail = g;
          feed.generator = g.name ?? g.uri;
        }
        break;
      case 'logo':
        logo ??= resolveUrl(text(c), base);
        break;
      case 'icon':
        icon ??= resolveUrl(text(c), base);
        break;
      case 'author':
        addPerson(authors, readPerson(c, base));
        break;
      case 'entry':
        entries.push(c);
        break;
      default:
        readChannelExtra(c, base, x);
    }
  }
  feed.link = pickAlternate(links);
  for (const l of links) {
    if (l.rel === 'self') feed.self ??= l.href;
    else if (l.rel === 'hub') addHub(feed.hubs, l.href);
  }
  if (logo ?? icon) feed.image = { url: logo ?? icon, title: null, link: null };
  applyChannelExtras(feed, x);
  const toRead = capItemElements(entries, ctx);
  const notBase64 = new Set<string>();
  const onNotBase64 = (type: string) => notBase64.add(type);
  readItemsInto(feed, toRead, ctx, (el) => readEntry(el, base, authors, onNotBase64));
  if (notBase64.size > 0) {
    const types = [...notBase64].join(', ');
    ctx.notes.push({
      code: 'feed.contentNotBase64',
      message: `Some entries have content of a type (${types}) that calls for Base64, but it is not Base64; it is shown as text.`,
      args: { types },
    });
  }
  return feed;
}

function readEntry(
  el: XmlElement,
  parentBase: string | null,
  feedAuthors: Person[],
  notBase64: (type: string) => void,
): Item {
  const base = baseWithin(attr(el, 'xml:base'), parentBase);
  const item = newItem();
  const x: ItemExtras = newItemExtras();
  const links: LinkRef[] = [];
  let id: string | null = null;
  for (const c of el.children) {
    switch (c.name) {
      case 'id':
        id ??= text(c);
        break;
      case 'title':
        item.title ??= atomText(c);
        break;
      case 'link': {
        const link = readLink(c, base);
        if (link) links.push(link);
        break;
      }
      case 'summary':
        item.summary ??= resolveHtmlUrls(atomHtml(c, notBase64), baseWithin(attr(c, 'xml:base'), base));
        break;
      case 'content':
        item.content ??= resolveHtmlUrls(atomHtml(c, notBase64), baseWithin(attr(c, 'xml:base'), base));
        break;
      case 'published':
      case 'issued':
        item.published ??= parseDate(text(c));
        break;
      case 'created':
        x.issued ??= text(c);
        break;
      case 'updated':
      case 'modified':
        item.updated ??= parseDate(text(c));
        break;
      case 'author':
        addPerson(item.authors, readPerson(c, base));
        break;
      case 'category': {
        const term = attr(c, 'term') ?? text(c);
        if (term) item.categories.push({ term, scheme: attr(c, 'scheme'), label: attr(c, 'label') });
        break;
      }
      default:
        readItemExtra(c, base, x);
    }
  }
  item.id = id ?? '';
  item.link = pickAlternate(links);
  for (const l of links) {
    if (l.rel === 'enclosure') addEnclosure(item.enclosures, { url: l.href, type: l.type, length: l.length });
    else if (l.rel === 'replies' && (l.type === null || /html/i.test(l.type))) item.comments ??= l.href;
  }
  applyItemExtras(item, x);
  // An entry whose only address is its id (`<id>https://…/post</id>`, no alternate link) is
  // found at that address, as feedparser reads it (issue 34).
  if (item.link === null && id !== null && /^https?:\/\/[^\s]+$/i.test(id)) item.link = id;
  if (item.authors.length === 0) item.authors.push(...feedAuthors.map((p) => ({ ...p })));
  return item;
}

function readPerson(el: XmlElement, base: string | null): Person {
  const name = text(child(el, 'name'));
  return person(
    name === null ? orNull(oneLine(el.text)) : oneLine(name),
    text(child(el, 'email')),
    // Atom 0.3 says url; some 0.3 feeds wrote homepage.
    resolveUrl(text(child(el, 'uri')) ?? text(child(el, 'url')) ?? text(child(el, 'homepage')), base),
  );
}
