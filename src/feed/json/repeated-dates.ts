/**
 * A JSON Feed item that names a date twice (`"date_published"` written by two plugins) keeps the
 * first, as the XML readers keep the first `<updated>` (issue 34). JSON.parse keeps the last, so
 * the later copies are renamed in the text before it reads it. Looked for only when the document
 * names a date more often than its parsed items hold one: a feed without repeats pays a count.
 */
import { isJsonSpace, stringEnd } from './json-items.ts';

const DATE_KEYS = ['date_published', 'date_modified'];

function occurrences(doc: string, needle: string): number {
  let n = 0;
  for (let i = doc.indexOf(needle); i !== -1; i = doc.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Whether `doc` may name a date twice in one object, given what JSON.parse made of it. */
export function mayRepeatDates(doc: string, parsed: unknown): boolean {
  const items = (parsed as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return false;
  return DATE_KEYS.some((key) => {
    const written = occurrences(doc, `"${key}"`);
    if (written === 0) return false;
    let held = 0;
    for (const item of items) if (item !== null && typeof item === 'object' && key in item) held++;
    return written > held;
  });
}

/** `doc` with each date key that an object already named renamed, so only the first is read. */
export function renameRepeatedDates(doc: string): string {
  const objects: (Set<string> | null)[] = [];
  let out = '';
  let last = 0;
  for (let i = 0; i < doc.length; i++) {
    const c = doc.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(doc, i);
      if (end === -1) break;
      let k = end + 1;
      while (isJsonSpace(doc.charCodeAt(k))) k++;
      const keys = objects[objects.length - 1];
      if (doc.charCodeAt(k) === 58 && keys) {
        const key = doc.slice(i + 1, end);
        if (DATE_KEYS.includes(key)) {
          if (keys.has(key)) {
            out += `${doc.slice(last, end)} (repeated)`;
            last = end;
          } else keys.add(key);
        }
      }
      i = end;
    } else if (c === 123) objects.push(new Set());
    else if (c === 91) objects.push(null);
    else if (c === 125 || c === 93) objects.pop();
  }
  return out + doc.slice(last);
}
