/**
 * JSON Feed 1.0 and 1.1 to the Feed model. The document is untrusted JSON: every field is read
 * through a type guard, and a wrong type counts as absent. 1.1 renamed `author` to `authors`
 * (an array); both are read, the newer one first.
 */
import { parseDate } from '../dates.ts';
import { resolveHtmlUrls } from '../html-urls.ts';
import { capItems } from '../item-cap.ts';
import type { Feed, FeedFormat, Item, Media, Person } from '../model.ts';
import { newFeed, newItem, newMedia, person } from '../model-new.ts';
import { type ReadContext, readItemsInto } from '../read-context.ts';
import { dropControls, oneLine, orNull, textToHtml } from '../text.ts';
import { resolveUrl } from '../urls.ts';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string value, C0 controls dropped (a JSON escape can carry one); null when not a string. */
function str(v: unknown): string | null {
  return typeof v === 'string' ? orNull(dropControls(v)) : null;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function readJsonFeed(doc: Json, format: FeedFormat, ctx: ReadContext): Feed {
  const feed = newFeed(format);
  feed.self = resolveUrl(str(doc.feed_url), ctx.url);
  const base = feed.self ?? ctx.url;
  feed.title = orNull(oneLine(str(doc.title) ?? ''));
  feed.link = resolveUrl(str(doc.home_page_url), base);
  feed.description = str(doc.description);
  feed.language = str(doc.language);
  const icon = resolveUrl(str(doc.icon) ?? str(doc.favicon), base);
  if (icon) feed.image = { url: icon, title: null, link: null };
  for (const hub of arr(doc.hubs)) {
    const url = isObject(hub) ? resolveUrl(str(hub.url), base) : null;
    if (url && !feed.hubs.includes(url)) feed.hubs.push(url);
  }
  const feedAuthors = readAuthors(doc, base);
  const items = capItems(arr(doc.items), ctx, (i) => (isObject(i) ? parseDate(str(i.date_published)) : null));
  readItemsInto(feed, items, ctx, (raw) => (isObject(raw) ? readItem(raw, base, feedAuthors) : null));
  return feed;
}

function readItem(raw: Json, base: string | null, feedAuthors: Person[]): Item {
  const item = newItem();
  const id = raw.id;
  item.id =
    typeof id === 'string' ? id.trim() : typeof id === 'number' && Number.isFinite(id) ? String(id) : '';
  item.title = orNull(oneLine(str(raw.title) ?? ''));
  item.link = resolveUrl(str(raw.url) ?? str(raw.external_url), base);
  item.summary = str(raw.summary);
  const contentText = str(raw.content_text);
  item.content =
    resolveHtmlUrls(str(raw.content_html), base) ?? (contentText === null ? null : textToHtml(contentText));
  item.published = parseDate(str(raw.date_published));
  item.updated = parseDate(str(raw.date_modified));
  const authors = readAuthors(raw, base);
  item.authors = authors.length > 0 ? authors : feedAuthors.map((p) => ({ ...p }));
  for (const tag of typeof raw.tags === 'string' ? [raw.tags] : arr(raw.tags)) {
    const term = str(tag);
    if (term) item.categories.push({ term, scheme: null, label: null });
  }
  for (const a of arr(raw.attachments)) {
    if (!isObject(a)) continue;
    const url = resolveUrl(str(a.url), base);
    const size = a.size_in_bytes;
    const length = typeof size === 'number' && Number.isInteger(size) && size >= 0 ? size : null;
    if (url && !item.enclosures.some((e) => e.url === url))
      item.enclosures.push({ url, type: str(a.mime_type), length });
  }
  const image = resolveUrl(str(raw.image) ?? str(raw.banner_image), base);
  if (image) item.media.push(imageMedia(image));
  return item;
}

/** `authors` (1.1) or `author` (1.0); a mailto: URL is an email address. */
function readAuthors(o: Json, base: string | null): Person[] {
  const one = o.author;
  const list = Array.isArray(o.authors)
    ? o.authors
    : isObject(one) || typeof one === 'string'
      ? [one]
      : typeof o.authors === 'string'
        ? [o.authors]
        : [];
  const out: Person[] = [];
  for (const a of list) {
    // In the wild an author is sometimes just a name.
    const named = str(a);
    if (named !== null) {
      out.push(person(oneLine(named)));
      continue;
    }
    if (!isObject(a)) continue;
    const name = str(a.name);
    const url = str(a.url);
    if (name === null && url === null) continue;
    if (url?.toLowerCase().startsWith('mailto:')) out.push(person(name, url.slice(7)));
    else out.push(person(name, null, resolveUrl(url, base)));
  }
  return out;
}

function imageMedia(url: string): Media {
  const m = newMedia();
  m.url = url;
  m.medium = 'image';
  m.thumbnail = url;
  return m;
}
