/**
 * What comes before the root element: the XML declaration, processing instructions, comments
 * and a DOCTYPE. Nothing a DOCTYPE names is fetched (SYSTEM "file:///etc/passwd"); of its
 * entities only plain-text internal ones are expanded, never nested (dtd-entities.ts).
 */

/** Index just past a `<!DOCTYPE ...>` starting at `start` (internal subset included), or -1. */
export function doctypeEnd(text: string, start: number): number {
  let i = start + 9;
  let quote = 0;
  let inSubset = false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      quote = c;
    } else if (inSubset) {
      if (c === 93)
        inSubset = false; // ]
      else if (c === 60 && text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end === -1) return -1;
        i = end + 2;
      }
    } else if (c === 91) {
      inSubset = true; // [
    } else if (c === 62) {
      return i + 1; // >
    }
  }
  return -1;
}

/** The root element's start tag as found by a quick look: its name and the text of its attributes. */
export interface RootTag {
  name: string;
  attributes: string;
}

/**
 * Where the prolog ends: the index of the first thing that is not whitespace, an XML
 * declaration or processing instruction, a comment or a DOCTYPE (the root's `<`, or junk); -1
 * when one of those is left unfinished.
 */
export function prologEnd(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 60) return i;
    let end: number;
    if (text.startsWith('<?', i)) end = indexAfter(text, '?>', i + 2);
    else if (text.startsWith('<!--', i)) end = indexAfter(text, '-->', i + 4);
    else if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!doctype', i)) end = doctypeEnd(text, i);
    else return i;
    if (end === -1) return -1;
    i = end;
  }
}

/** The first start tag after the prolog, or null if the text does not begin like XML. */
export function sniffRootTag(text: string): RootTag | null {
  const i = prologEnd(text);
  if (i === -1 || text.charCodeAt(i) !== 60) return null;
  const m = /^<([A-Za-z_][\w.:-]*)([^>]*)>/.exec(text.slice(i, i + 4096));
  return m ? { name: m[1]!, attributes: m[2]! } : null;
}

/** An attribute's value in a start tag's attribute text (raw, entities left alone). */
export function attributeIn(attributes: string, name: string): string | null {
  const m = attributePattern(name).exec(attributes);
  return m ? (m[1] ?? m[2] ?? '') : null;
}

/** Patterns for the names every document asks about, made once; others (prefixed xmlns) each time. */
const COMMON_PATTERNS = new Map<string, RegExp>();

function attributePattern(name: string): RegExp {
  const common = COMMON_PATTERNS.get(name);
  if (common) return common;
  const escaped = name.replace(/[.:-]/g, (c) => `\\${c}`);
  const pattern = new RegExp(`(?:^|\\s)${escaped}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
  if (name === 'version' || name === 'xmlns') COMMON_PATTERNS.set(name, pattern);
  return pattern;
}

function indexAfter(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at === -1 ? -1 : at + marker.length;
}

export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Where the first non-whitespace character in [from, to) is, or null when there is none. */
export function firstNonSpace(text: string, from: number, to: number): number | null {
  for (let k = from; k < to; k++) if (!isSpace(text.charCodeAt(k))) return k;
  return null;
}
