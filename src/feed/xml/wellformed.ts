/**
 * The one pass over an XML feed: it matches start and end tags, locates the first problem
 * ("this feed is broken (line 12, column 3)" rather than half a feed), and tells a ScanSink
 * (build.ts) each tag as it goes, so the element tree comes out of the same walk. It hops from
 * `<` to `<` (indexOf). Leaf elements (title, description, content:encoded ...) are skipped to
 * their matching end tag and handed over whole, so HTML bodies are never walked tag by tag.
 *
 * Deliberately lenient where feeds are commonly sloppy and the meaning is still clear: a stray
 * `&` in text, undeclared entities, raw HTML inside leaf elements such as <description> (read
 * whole, up to the matching end tag). A document cut off at its very end is repaired
 * (truncation.ts), so is an end tag whose intent is plain (mend.ts); every other problem is an
 * error.
 */
import type { Deadline } from '../deadline.ts';
import { leafClose } from './leaf-close.ts';
import { closesLeaf, innermostItem, type Mended, mendableDepth, strayEndIn } from './mend.ts';
import { doctypeEnd, firstNonSpace, isSpace } from './prolog.ts';
import { cutOrMistake, Malformed, repairCut, Truncated } from './truncation.ts';

export interface XmlProblem {
  message: string;
  line: number;
  column: number;
}

/**
 * What the scan found, in document order, for a caller that builds a tree in the same pass
 * (tree.ts). Offsets index the text being scanned; `reset` starts over on a repaired text.
 */
export interface ScanSink {
  reset(text: string): void;
  /** A start tag; its attributes are the text in [attrsFrom, attrsTo). `empty`: <x/>. */
  start(name: string, attrsFrom: number, attrsTo: number, empty: boolean): void;
  /**
   * A leaf element read whole: its inner markup is [from, to); when that is one CDATA section,
   * [cdataFrom, cdataTo) is its text (else cdataFrom is -1).
   */
  leaf(
    name: string,
    attrsFrom: number,
    attrsTo: number,
    from: number,
    to: number,
    cdataFrom: number,
    cdataTo: number,
  ): void;
  end(): void;
  /** The DOCTYPE, [from, to): its internal subset may declare entities (build.ts reads them). */
  doctype?(from: number, to: number): void;
  /** Character data between tags (entities still escaped). */
  text(from: number, to: number): void;
  cdata(from: number, to: number): void;
}

/** Deeper nesting than this is refused: no feed needs it, and readers recurse. */
const MAX_DEPTH = 256;

export interface StructureCheck {
  problem: XmlProblem | null;
  /** Where the DOCTYPE sits: [start, end). Skipped, never read. */
  doctype: [number, number] | null;
  /** When the document was cut off at its end: the repaired text (the sink was fed this one). */
  repaired: string | null;
  /** End tags that did not match and were forgiven (mend.ts), or null. */
  mended: Mended | null;
  /**
   * Where something other than whitespace, comments and processing instructions follows the
   * root element's end (a host's analytics script, a second document): the scan stopped there
   * and the rest was left unread. Null when nothing follows.
   */
  trailing: number | null;
}

/**
 * Checks that tags nest and close. `isLeaf(name)` says which elements are read whole: their
 * content is skipped to the matching end tag and its range recorded.
 */
export function checkStructure(
  text: string,
  isLeaf: (name: string) => boolean,
  deadline: Deadline,
  sink: ScanSink | null = null,
): StructureCheck {
  const result: StructureCheck = {
    problem: null,
    doctype: null,
    repaired: null,
    mended: null,
    trailing: null,
  };
  try {
    scan(text, isLeaf, deadline, result, sink);
  } catch (e) {
    if (!(e instanceof Malformed)) throw e;
    const repaired = e instanceof Truncated ? repairCut(text, e) : null;
    if (repaired !== null) {
      const again: StructureCheck = { problem: null, doctype: null, repaired, mended: null, trailing: null };
      sink?.reset(repaired);
      try {
        scan(repaired, isLeaf, deadline, again, sink);
        return again;
      } catch (e2) {
        if (!(e2 instanceof Malformed)) throw e2;
      }
    }
    const { line, column } = lineAndColumn(text, e.offset);
    result.problem = { message: e.message, line, column };
  }
  return result;
}

function scan(
  text: string,
  isLeaf: (name: string) => boolean,
  deadline: Deadline,
  out: StructureCheck,
  sink: ScanSink | null,
): void {
  const names: string[] = [];
  const opened: number[] = [];
  const cdata = new Int32Array(3);
  /**
   * Characters read by searches for a leaf's close that found none. Each such leaf is repaired
   * and the scan goes on, so without a bound a document of many leaves left open (crafted so no
   * search stops early) would be read once per leaf: quadratic. Past twice the document, it is
   * refused as the ambiguous thing it is.
   */
  let searched = 0;
  const searchBudget = 2 * text.length + 65_536;
  const n = text.length;
  let doctype: [number, number] | null = null;
  let rootSeen = false;
  /** The innermost open element holds no element yet (a misspelt close of it is plain). */
  let childless = false;
  const mend = (found: string | null, closed: string, at: number) => {
    deadline.check();
    if (out.mended === null) out.mended = { count: 1, found, closed, offset: at };
    else out.mended.count++;
  };
  let steps = 0;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) {
      if (rootSeen && names.length === 0) out.trailing = firstNonSpace(text, i, n);
      break;
    }
    if ((++steps & 0xfff) === 0) deadline.check();
    if (names.length > 0) {
      if (sink !== null && lt > i) sink.text(i, lt);
    } else if (rootSeen) {
      // After the root: whitespace, comments and processing instructions only. Anything else is
      // junk a server added (issue 34): left unread, and the caller notes it.
      const junk = firstNonSpace(text, i, lt) ?? (startsJunk(text, lt) ? lt : null);
      if (junk !== null) {
        out.trailing = junk;
        break;
      }
    }
    const c = text.charCodeAt(lt + 1);
    if (c === 33) {
      // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE>
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end === -1) throw cutOrMistake(text, 'A comment is not closed', lt, names, opened);
        i = end + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        if (names.length === 0) throw new Malformed('A CDATA section is outside the root element', lt);
        const end = text.indexOf(']]>', lt + 9);
        if (end === -1) throw cutOrMistake(text, 'A CDATA section is not closed', lt, names, opened);
        sink?.cdata(lt + 9, end);
        i = end + 3;
      } else if (text.startsWith('<!DOCTYPE', lt)) {
        if (rootSeen || doctype)
          throw new Malformed('A DOCTYPE may only come once, before the root element', lt);
        const end = doctypeEnd(text, lt);
        if (end === -1) throw new Malformed('The DOCTYPE is not closed', lt);
        doctype = [lt, end];
        out.doctype = doctype;
        sink?.doctype?.(lt, end);
        i = end;
      } else throw new Malformed('Unexpected "<!"', lt);
      continue;
    }
    if (c === 63) {
      i = after(text, '?>', lt + 2, 'A processing instruction is not closed', lt);
      continue;
    }
    if (c === 47) {
      const end = text.indexOf('>', lt + 2);
      if (end === -1) {
        if (names.length === 0) throw new Malformed('An end tag is not closed', lt);
        throw new Truncated('An end tag is not closed', lt, names, opened);
      }
      const name = text.slice(lt + 2, end).trim();
      const expected = names.pop();
      if (expected === undefined)
        throw new Malformed(`</${name}> closes an element that was never opened`, lt);
      if (expected !== name) {
        names.push(expected);
        const depth = mendableDepth(names, name, childless);
        if (depth === 0) {
          const at = lineAndColumn(text, opened[opened.length - 1]!);
          throw new Malformed(
            `</${name}> found where </${expected}> (opened on line ${at.line}) was expected`,
            lt,
          );
        }
        mend(name, expected, lt);
        for (let k = 1; k < depth; k++) {
          names.pop();
          opened.pop();
          sink?.end();
        }
        names.pop();
      }
      opened.pop();
      sink?.end();
      childless = false;
      i = end + 1;
      continue;
    }
    // A start tag: name, then attributes up to a '>' that is not inside quotes.
    let j = lt + 1;
    if (!isNameStart(text.charCodeAt(j))) {
      throw new Malformed('A "<" is not followed by an element name (text must write it as &lt;)', lt);
    }
    while (j < n) {
      const d = text.charCodeAt(j);
      if (isSpace(d) || d === 47 || d === 62) break;
      if (!isNameChar(d)) {
        const shown = text.slice(lt + 1, j + 1);
        throw new Malformed(`The element name "${shown}" has a character names cannot have`, j);
      }
      j++;
    }
    const name = text.slice(lt + 1, j);
    const attrsFrom = j;
    let quote = 0;
    for (; j < n; j++) {
      const d = text.charCodeAt(j);
      if (quote !== 0) {
        if (d === quote) quote = 0;
      } else if (d === 34 || d === 39) quote = d;
      else if (d === 62) break;
      else if (d === 60) throw new Malformed(`The start tag <${name}> is not closed`, lt);
    }
    if (j >= n) {
      if (names.length === 0) throw new Malformed(`The start tag <${name}> is not closed`, lt);
      throw new Truncated(`The start tag <${name}> is not closed`, lt, names, opened);
    }
    rootSeen = true;
    childless = false;
    i = j + 1;
    if (text.charCodeAt(j - 1) === 47) {
      sink?.start(name, attrsFrom, j - 1, true); // <empty/>
      continue;
    }
    if (isLeaf(name)) {
      const item = innermostItem(names);
      const close = leafClose(text, name, i, cdata, item === -1 ? null : names[item]!);
      if (close !== -1) {
        sink?.leaf(name, attrsFrom, j, i, close, cdata[0]!, cdata[1]!);
        i = text.indexOf('>', close) + 1;
        continue;
      }
      searched += cdata[2]! - i;
      if (searched > searchBudget)
        throw new Malformed(`Too many elements are never closed, <${name}> among them`, lt);
      // Never closed: an end tag closing nothing open (its own, written wrong), or its item's
      // close, says where it ended.
      const stray = strayEndIn(text, i);
      const ownClose = stray !== null && closesLeaf(names, stray.name);
      const itemClose = stray !== null && item !== -1 && names.lastIndexOf(stray.name) >= item;
      if (!ownClose && !itemClose) throw cutOrMistake(text, `<${name}> is never closed`, lt, names, opened);
      mend(ownClose ? stray!.name : null, name, stray!.at);
      sink?.leaf(name, attrsFrom, j, i, stray!.at, -1, -1);
      i = ownClose ? stray!.after : stray!.at; // an item's close is then read as such
      continue;
    }
    if (names.length >= MAX_DEPTH)
      throw new Malformed(`Elements are nested more than ${MAX_DEPTH} levels deep`, lt);
    names.push(name);
    opened.push(lt);
    sink?.start(name, attrsFrom, j, false);
    childless = true;
  }
  if (names.length > 0) {
    const at = lineAndColumn(text, opened[opened.length - 1]!);
    throw new Truncated(
      `The document ends before </${names[names.length - 1]}> (opened on line ${at.line}) is closed`,
      n,
      names,
      opened,
    );
  }
  if (!rootSeen) throw new Malformed('There is no root element', 0);
}

/**
 * Whether the markup at `lt`, met after the root element ended, is junk: anything but a comment
 * or a processing instruction, and an XML declaration (a second document) too.
 */
function startsJunk(text: string, lt: number): boolean {
  if (text.startsWith('<!--', lt)) return false;
  if (text.charCodeAt(lt + 1) !== 63) return true;
  // `<?xml ` or `<?xml?`, not `<?xml-stylesheet`: a declaration only starts a document.
  return text.startsWith('<?xml', lt) && (isSpace(text.charCodeAt(lt + 5)) || text.charCodeAt(lt + 5) === 63);
}

function after(text: string, marker: string, from: number, message: string, at: number): number {
  const end = text.indexOf(marker, from);
  if (end === -1) throw new Malformed(message, at);
  return end + marker.length;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58 || c > 127;
}

/** Letters, digits, '-', '.', '_', ':' and anything past ASCII (XML 1.0's NameChar, loosely). */
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
