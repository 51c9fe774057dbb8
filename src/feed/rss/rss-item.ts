/**
 * An RSS 0.9x/2.0 <item> (and the nested <rssCloud:item>) to an Item. RSS 1.0/RDF items share
 * the extension handling but have their own reader (rdf/).
 */
import { parseDate } from '../dates.ts';
import {
  addEnclosure,
  applyItemExtras,
  type ItemExtras,
  newItemExtras,
  readItemExtra,
} from '../ext/item-extras.ts';
import { htmlWithin } from '../html-urls.ts';
import type { Item } from '../model.ts';
import { newItem, person, toInt } from '../model-new.ts';
import { parsePersonText } from '../person-text.ts';
import { rssTitle } from '../text.ts';
import { baseWithin, resolveUrl } from '../urls.ts';
import { attr, child, text, textContent, type XmlElement } from '../xml/tree.ts';

const RSSCLOUD_PREFIX = 'rssCloud:';

/**
 * Reads an item. `inheritedAuthor` is the channel's itunes:author, used when the item names
 * nobody. Nested rssCloud:item elements become children, to any depth.
 */
export function readRssItem(el: XmlElement, parentBase: string | null, inheritedAuthor: string | null): Item {
  const base = baseWithin(attr(el, 'xml:base'), parentBase);
  const item = newItem();
  const x: ItemExtras = newItemExtras();
  let guid: string | null = null;
  let guidIsPermalink = true;
  for (const c of el.children) {
    // Inside rssCloud:item the item's own elements may carry the rssCloud prefix too.
    let name = c.name;
    if (name.startsWith(RSSCLOUD_PREFIX) && name !== 'rssCloud:item')
      name = name.slice(RSSCLOUD_PREFIX.length);
    switch (name) {
      case 'title':
        item.title ??= rssTitle(text(c));
        break;
      case 'link': {
        const href = attr(c, 'href');
        if (href !== null && text(c) === null) readItemExtra({ ...c, name: 'atom:link' }, base, x);
        else item.link ??= resolveUrl(text(c), base);
        break;
      }
      case 'description':
        item.summary ??= htmlWithin(c, base);
        break;
      case 'author': {
        // Atom-style <author><name/><email/></author> inside RSS, seen in the wild.
        const name = text(child(c, 'name')) ?? text(child(c, 'atom:name'));
        const email = text(child(c, 'email')) ?? text(child(c, 'atom:email'));
        if (name || email) item.authors.push(person(name, email));
        else {
          // Its text, markup or not (`<author>Item <b>Author</b></author>`).
          const who = textContent(c);
          if (who) item.authors.push(parsePersonText(who));
        }
        break;
      }
      case 'category': {
        const term = text(c);
        if (term) item.categories.push({ term, scheme: attr(c, 'domain'), label: null });
        break;
      }
      case 'comments':
        item.comments ??= resolveUrl(text(c), base);
        break;
      case 'enclosure': {
        const url = resolveUrl(attr(c, 'url'), base);
        if (url)
          addEnclosure(item.enclosures, { url, type: attr(c, 'type'), length: toInt(attr(c, 'length')) });
        break;
      }
      case 'guid':
        guid ??= text(c);
        guidIsPermalink = attr(c, 'isPermaLink')?.toLowerCase() !== 'false';
        break;
      case 'pubDate':
        item.published ??= parseDate(text(c));
        break;
      case 'rssCloud:item':
        item.children.push(readRssItem(c, base, inheritedAuthor));
        break;
      default:
        readItemExtra(c, base, x);
    }
  }
  if (guid !== null) {
    item.id = guid;
    // RSS 2.0: a permalink guid is the item's URL when it has no <link>.
    if (guidIsPermalink && /^https?:\/\//i.test(guid)) item.link ??= guid;
  }
  applyItemExtras(item, x);
  if (item.authors.length === 0 && inheritedAuthor) item.authors.push(person(inheritedAuthor));
  return item;
}

/** RSS <author>: see person-text.ts. */
export const parseRssPerson = parsePersonText;
