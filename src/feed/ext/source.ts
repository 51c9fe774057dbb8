/**
 * The `source:` namespace of scripting.com (http[s]://source.scripting.com/): `<source:cloud>`,
 * an rssCloud endpoint given as one URL, and `<source:outline>`, an outline inside an item whose
 * nodes become child items. `source:markdown` is ignored (the item's HTML says the same).
 */
import { parseDate } from '../dates.ts';
import type { CloudElement, Item } from '../model.ts';
import { newItem } from '../model-new.ts';
import { htmlToText, orNull } from '../text.ts';
import { resolveUrl } from '../urls.ts';
import { attr, type XmlElement } from '../xml/tree.ts';

/** `https://rpc.rsscloud.io:5337/pleaseNotify` as a <cloud> element would say it. */
export function cloudFromUrl(url: string | null): CloudElement | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const https = u.protocol === 'https:';
  return {
    domain: u.hostname,
    port: u.port ? Number(u.port) : https ? 443 : 80,
    path: u.pathname + u.search,
    registerProcedure: '',
    protocol: https ? 'https-post' : 'http-post',
  };
}

/** An outline node as an item: title from `text`, link from `url` (or `htmlUrl`), nesting kept. */
export function outlineToItem(el: XmlElement, base: string | null): Item {
  const item = newItem();
  const textAttr = attr(el, 'text');
  if (textAttr !== null) {
    const plain = orNull(htmlToText(textAttr));
    item.title = plain;
    // Outline text is often HTML (a linked phrase); keep it as the summary when it is.
    if (plain !== textAttr) item.summary = textAttr;
  }
  item.link = resolveUrl(attr(el, 'url') ?? attr(el, 'htmlUrl'), base);
  item.published = parseDate(attr(el, 'created'));
  for (const c of el.children) {
    if (c.name === 'source:outline') item.children.push(outlineToItem(c, base));
  }
  return item;
}
