/**
 * "Read at most the newest N items of a document" (ParseOptions.maxItems). A document of 600,000
 * items must not become 600,000 rows nor 600,000 objects: the tree builder keeps only the first
 * and the last N item elements (xml/build.ts), a JSON Feed parses only the items it keeps
 * (json/json-items.ts), and the readers pick which of those to read before reading any.
 *
 * Which end is newest: feeds list newest first almost always, but some (logs, archives) append.
 * The first and last items' dates decide; without dates, document order (first = newest) wins.
 */
import { parseDate } from './dates.ts';
import type { ReadContext } from './read-context.ts';
import { text, type XmlElement } from './xml/tree.ts';

export const DEFAULT_MAX_ITEMS = 5000;

/** Date element names, per format, that say when an item was written. */
const DATE_NAMES = ['pubDate', 'published', 'updated', 'dc:date', 'issued', 'modified'];

function dateOf(el: XmlElement): string | null {
  for (const c of el.children) if (DATE_NAMES.includes(c.name)) return parseDate(text(c));
  return null;
}

/**
 * The elements to read (document order kept), noting in ctx how many were left out. `items` are
 * the ones in the tree; past the cap the builder kept only the last ones aside (ctx.overflow).
 */
export function capItemElements(items: XmlElement[], ctx: ReadContext): XmlElement[] {
  const over = ctx.overflow;
  if (over === null || over.tail.length === 0) return capItems(items, ctx, dateOf);
  const first = items[0] ? dateOf(items[0]) : null;
  const last = dateOf(over.tail[over.tail.length - 1]!);
  const appended = first !== null && last !== null && last > first;
  const max = ctx.maxItems;
  const kept = appended ? [...items, ...over.tail].slice(-max) : items.slice(0, max);
  noteCapped(ctx, over.total, max);
  return kept;
}

export function noteCapped(ctx: ReadContext, total: number, max: number): void {
  ctx.notes.push({
    code: 'feed.itemsCapped',
    message: `The document has ${total} items; only the newest ${max} were read.`,
    args: { kept: max, total },
  });
}

/** The same choice for any list (JSON Feed items), given how to read an item's date. */
export function capItems<T>(items: T[], ctx: ReadContext, date: (item: T) => string | null): T[] {
  const max = ctx.maxItems;
  if (items.length <= max) return items;
  const first = date(items[0]!);
  const last = date(items[items.length - 1]!);
  const appended = first !== null && last !== null && last > first;
  const kept = appended ? items.slice(items.length - max) : items.slice(0, max);
  noteCapped(ctx, items.length, max);
  return kept;
}
