/**
 * Where a leaf element (read whole: title, description ...) ends, found by hopping from '<' to
 * '<' without walking its HTML tag by tag (wellformed.ts hands it over raw).
 */
import { firstNonSpace, isSpace } from './prolog.ts';

/**
 * Index of the `</name>` closing a leaf element opened just before `from`, or -1 (cdata[2] then
 * says where the search stopped). When the content is exactly one CDATA section (whitespace
 * around it aside), `cdata` gets its inner range, so nobody has to look for its ends again;
 * otherwise cdata[0] is -1. `item`: the open
 * item the leaf is in, if any; a leaf that runs past its item's close into the next item was
 * never closed (-1 at once, so a template typo in every item costs one item each, not the rest
 * of the document each).
 */
export function leafClose(
  text: string,
  name: string,
  from: number,
  cdata: Int32Array,
  item: string | null,
): number {
  cdata[0] = -1;
  let depth = 1;
  let itemDepth = 0;
  /** Elements opened inside the leaf and not yet closed (approximate: `<br>` never closes). */
  let inner = 0;
  /**
   * An end tag closing nothing opened inside was met (`<title>Feed</subtitle>`): a start tag of
   * the leaf's own name after it means the leaf never closed, so the search stops there instead
   * of reading on to a later leaf's close (and stays linear when a template repeats the typo).
   */
  let strayed = false;
  let seen = 0; // markup constructs met inside the leaf
  let i = from;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) return gaveUp(cdata, text.length);
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1) return gaveUp(cdata, text.length);
      if (seen++ === 0 && firstNonSpace(text, from, lt) === null) {
        cdata[0] = lt + 9;
        cdata[1] = end;
      } else cdata[0] = -1;
      i = end + 3;
      continue;
    }
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) return gaveUp(cdata, text.length);
      seen++;
      cdata[0] = -1;
      i = end + 3;
      continue;
    }
    const closing = text.charCodeAt(lt + 1) === 47;
    const nameAt = closing ? lt + 2 : lt + 1;
    if (item !== null && text.startsWith(item, nameAt)) {
      const d = text.charCodeAt(nameAt + item.length);
      if (d === 62 || isSpace(d) || d === 47) {
        if (closing) itemDepth--;
        else if (itemDepth < 0) return gaveUp(cdata, lt);
        else if (text.charCodeAt(text.indexOf('>', nameAt) - 1) !== 47) itemDepth++;
      }
    }
    if (text.startsWith(name, nameAt)) {
      const d = text.charCodeAt(nameAt + name.length);
      if (d === 62 || isSpace(d) || (!closing && d === 47)) {
        const gt = text.indexOf('>', nameAt);
        if (gt === -1) return gaveUp(cdata, text.length);
        if (closing) {
          if (--depth === 0) {
            if (cdata[0] !== -1 && firstNonSpace(text, i, lt) !== null) cdata[0] = -1;
            return lt;
          }
        } else if (strayed)
          return gaveUp(cdata, lt); // `<title>a</subtitle> ... <title>`: one leaf each, not nested
        else if (text.charCodeAt(gt - 1) !== 47) depth++;
        seen++;
        cdata[0] = -1;
        i = gt + 1;
        continue;
      }
    }
    if (depth === 1) {
      if (!closing) {
        const c = text.charCodeAt(nameAt);
        if ((c | 0x20) >= 97 && (c | 0x20) <= 122) inner++;
      } else if (inner > 0) inner--;
      else strayed = true;
    }
    seen++;
    cdata[0] = -1;
    i = lt + 1;
  }
}

/** -1, with where the search stopped in cdata[2] (the caller budgets failed searches). */
function gaveUp(cdata: Int32Array, at: number): number {
  cdata[2] = at;
  return -1;
}
