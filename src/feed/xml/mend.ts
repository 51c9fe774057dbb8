/**
 * End tags that do not match the open element, forgiven where the intent is plain (issues 19 and
 * 34), as browsers and feedparser's loose mode do: a leaf element (text only, read whole) closed
 * by an end tag that closes nothing open (`<title>Feed</subtitle>`, `<language>en</langauge>`),
 * at any level; a misspelt or mis-cased close of the element just opened; and an element left
 * unclosed inside an item (closed with its item). Anything else stays an error: an end tag
 * naming an open ancestor outside any item, an item, channel or feed end tag where none is open
 * (its start is missing), or a close of an element that has children could mean several things.
 */
import { isSpace } from './prolog.ts';

/** What the feed's status says about a repair: how many, and the first one. */
export interface Mended {
  count: number;
  /** The first repair: the end tag met (null when an element was left unclosed) ... */
  found: string | null;
  /** ... and the element it was read as closing. */
  closed: string;
  offset: number;
}

/** Index in `names` of the innermost open item (RSS/RDF item, Atom entry), or -1. */
export function innermostItem(names: readonly string[]): number {
  // Runs for every leaf element: no string is made.
  for (let k = names.length - 1; k >= 0; k--) {
    const name = names[k]!;
    if (name === 'item' || name === 'entry' || name.endsWith(':item') || name.endsWith(':entry')) return k;
  }
  return -1;
}

/**
 * How many open elements the end tag `</name>` closes when it does not match the innermost one;
 * 0 when that is ambiguous. `childless`: the innermost element holds no element yet.
 */
export function mendableDepth(names: readonly string[], name: string, childless: boolean): number {
  const top = names.length - 1;
  const target = names.lastIndexOf(name);
  if (target === -1) {
    const open = names[top]!;
    // Another case of the element just opened is its close whatever it holds.
    if (open.toLowerCase() === name.toLowerCase()) return 1;
    return childless && isNearMiss(open, name) ? 1 : 0;
  }
  // An ancestor's close: plain only when everything it leaves unclosed is inside one item.
  const item = innermostItem(names);
  return item !== -1 && item <= target ? top - target + 1 : 0;
}

/** Element names whose end tag, where none is open, says a start tag went missing. */
const STRUCTURE = new Set(['item', 'entry', 'channel', 'feed', 'rss', 'RDF']);

/**
 * Whether `</name>`, met where a leaf element should have closed and naming nothing open, is that
 * leaf's close written wrong. An item's, a channel's or a feed's end tag is not: its start tag is
 * what is missing, and reading on would guess.
 */
export function closesLeaf(open: readonly string[], name: string): boolean {
  if (open.includes(name)) return false;
  return !STRUCTURE.has(name.slice(name.indexOf(':') + 1));
}

/**
 * A misspelling of `expected`: the same name in another case, or (for names of 4+ letters,
 * same first letter) one or two letters typed wrong, missed, doubled or swapped.
 */
export function isNearMiss(expected: string, found: string): boolean {
  const a = expected.toLowerCase();
  const b = found.toLowerCase();
  if (a === b) return true;
  if (a.length < 4 || b.length < 4 || a.charCodeAt(0) !== b.charCodeAt(0)) return false;
  return editDistance(a, b) <= (Math.max(a.length, b.length) >= 8 ? 2 : 1);
}

/** Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** An end tag met inside a leaf element that closes nothing opened inside it. */
export interface StrayEnd {
  /** Where `</` is, and just past its `>`. */
  at: number;
  after: number;
  name: string;
}

/**
 * The first end tag in a leaf's content (from `from`) that does not close markup opened inside
 * the content: where an unclosed leaf really ended. Null when there is none (a cut document).
 */
export function strayEndIn(text: string, from: number): StrayEnd | null {
  const open: string[] = [];
  let i = from;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) return null;
    if (text.startsWith('<![CDATA[', lt) || text.startsWith('<!--', lt)) {
      const cdata = text.charCodeAt(lt + 2) === 91;
      const end = text.indexOf(cdata ? ']]>' : '-->', lt + 4);
      if (end === -1) return null;
      i = end + 3;
      continue;
    }
    const gt = text.indexOf('>', lt + 1);
    if (gt === -1) return null;
    if (text.charCodeAt(lt + 1) === 47) {
      const name = text.slice(lt + 2, gt).trim();
      const k = open.lastIndexOf(name);
      if (k === -1) return { at: lt, after: gt + 1, name };
      open.length = k;
    } else if (text.charCodeAt(gt - 1) !== 47) {
      let e = lt + 1;
      while (e < gt && !isSpace(text.charCodeAt(e))) e++;
      open.push(text.slice(lt + 1, e));
    }
    i = gt + 1;
  }
}
