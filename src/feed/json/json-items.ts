/**
 * A JSON Feed of a million items must not become a million objects: before JSON.parse, a quick
 * scan finds the top-level `items` array and where each of its elements lies, so only the items
 * that will be read are parsed (ParseOptions.maxItems). The scan hops from quote to quote with
 * indexOf and looks at structure characters only between strings.
 */
import { parseDate } from '../dates.ts';

export interface JsonItemSpans {
  /** Where the `items` array's `[` and `]` are. */
  open: number;
  close: number;
  /** Each element's text range, [start, end) pairs in document order. */
  spans: number[];
}

/** Documents smaller than this are parsed whole: the scan would cost more than it saves. */
export const SCAN_FROM_BYTES = 1 << 20;

/**
 * The top-level `items` array of a JSON object document, or null when there is none or the text
 * is not shaped as expected (JSON.parse then reports whatever is wrong).
 */
export function findJsonItems(doc: string): JsonItemSpans | null {
  const n = doc.length;
  let depth = 0;
  let lastKeyAtTop: string | null = null;
  let found: JsonItemSpans | null = null;
  let current: JsonItemSpans | null = null;
  let elementStart = -1;
  let i = 0;
  while (i < n) {
    const c = doc.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(doc, i);
      if (end === -1) return null;
      if (current !== null && depth === 2 && elementStart === -1) elementStart = i;
      if (depth === 1) lastKeyAtTop = doc.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      // { or [
      depth++;
      if (depth === 2 && c === 91 && lastKeyAtTop === 'items' && current === null && found === null) {
        current = { open: i, close: -1, spans: [] };
      } else if (current !== null && depth === 3 && elementStart === -1) elementStart = i;
    } else if (c === 125 || c === 93) {
      // } or ]
      if (current !== null && depth === 2) {
        if (elementStart !== -1) current.spans.push(elementStart, trimEnd(doc, elementStart, i));
        current.close = i;
        found = current;
        current = null;
        elementStart = -1;
      }
      depth--;
      if (depth < 0) return null;
    } else if (c === 44) {
      // ,
      if (current !== null && depth === 2) {
        if (elementStart === -1) return null; // an empty element: let JSON.parse say so
        current.spans.push(elementStart, trimEnd(doc, elementStart, i));
        elementStart = -1;
      }
      if (depth === 1) lastKeyAtTop = null;
    } else if (current !== null && depth === 2 && elementStart === -1 && !isJsonSpace(c)) {
      elementStart = i; // a number, true, false, null
    }
    i++;
  }
  return depth === 0 ? found : null;
}

/** Index of the quote closing the string that opens at `at`, or -1. */
export function stringEnd(doc: string, at: number): number {
  let q = doc.indexOf('"', at + 1);
  while (q !== -1) {
    let backslashes = 0;
    for (let k = q - 1; doc.charCodeAt(k) === 92; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = doc.indexOf('"', q + 1);
  }
  return -1;
}

function trimEnd(doc: string, from: number, to: number): number {
  while (to > from && isJsonSpace(doc.charCodeAt(to - 1))) to--;
  return to;
}

export function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * JSON.parse of a feed document, reading only the items that will be kept when there are more
 * than `maxItems` (the newest end: see item-cap.ts). Throws what JSON.parse throws.
 * `onCapped(total)` is told how many items the document had when some were left out.
 */
export function parseJsonFeedText(doc: string, maxItems: number, onCapped: (total: number) => void): unknown {
  const found = doc.length >= SCAN_FROM_BYTES ? findJsonItems(doc) : null;
  const count = found ? found.spans.length / 2 : 0;
  if (found === null || count <= maxItems) return JSON.parse(doc);
  const outer = JSON.parse(`${doc.slice(0, found.open + 1)}${doc.slice(found.close)}`) as Record<
    string,
    unknown
  >;
  const element = (k: number) => doc.slice(found.spans[2 * k]!, found.spans[2 * k + 1]!);
  const first = dateOfJson(element(0));
  const last = dateOfJson(element(count - 1));
  const from = first !== null && last !== null && last > first ? count - maxItems : 0;
  const kept: string[] = [];
  for (let k = from; k < from + maxItems; k++) kept.push(element(k));
  outer.items = JSON.parse(`[${kept.join(',')}]`);
  onCapped(count);
  return outer;
}

function dateOfJson(text: string): string | null {
  try {
    const item = JSON.parse(text) as { date_published?: unknown };
    return typeof item.date_published === 'string' ? parseDate(item.date_published) : null;
  } catch {
    return null;
  }
}
