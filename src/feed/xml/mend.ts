/**
 * End tags that do not match the open element, forgiven where the intent is plain (issue 19), as
 * browsers and feedparser's loose mode do: a misspelt or mis-cased close of an element that holds
 * only text (`<language>en-us</langauge>`), and an element left unclosed inside an item (closed
 * with its item). Anything else stays an error: a close of an element that has children, of an
 * ancestor outside any item, or of nothing open at all could mean several things.
 */
import { isSpace } from './prolog.ts';

/** What the feed's status says about a repair: how many, and where the first was. */
export interface Mended {
  count: number;
  /** The first repair, as "</langauge> closed <language>". */
  first: string;
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
  if (target === -1) return childless && isNearMiss(names[top]!, name) ? 1 : 0;
  // An ancestor's close: plain only when everything it leaves unclosed is inside one item.
  const item = innermostItem(names);
  return item !== -1 && item <= target ? top - target + 1 : 0;
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
