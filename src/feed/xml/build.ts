/**
 * The element tree, built in the same pass as the structure check (wellformed.ts calls these
 * methods as it meets each tag): one walk over the text instead of a check plus a second parser.
 * Names are canonicalised once per distinct spelling (namespaces.ts); leaf elements keep their
 * inner markup raw for text.ts to decode exactly once.
 */
import { decodeEntities } from '../text.ts';
import { unprefixEmbedded } from './namespaces.ts';
import { isSpace } from './prolog.ts';
import type { ScanSink } from './wellformed.ts';

export interface XmlElement {
  /** Canonical name: the home namespace unprefixed, others with their canonical prefix. */
  name: string;
  /** Attribute values as written (entities not decoded): read them through `attr`. */
  attrs: Record<string, string> | null;
  children: XmlElement[];
  /** Leaf elements: the raw inner markup. Others: their own character data, decoded. */
  text: string;
  raw: boolean;
  /** A leaf whose content was one CDATA section: `text` is that section's text, unwrapped. */
  cdata?: boolean;
}

/**
 * Items past the first `maxItems` (ParseOptions.maxItems): only the last `maxItems` of them are
 * kept, so a document of 600,000 items never holds more than twice the cap in memory.
 */
export interface ItemOverflow {
  /** How many item elements the document has in all. */
  total: number;
  /** The last items of the document that were not attached to their parent, in order. */
  tail: XmlElement[];
}

/** Leaves and empty elements share one frozen child list: one array less per element. */
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];

/** Item elements (RSS/RDF item, Atom entry) count at feed level: under the root or the RSS channel. */
const ITEM_NAMES = new Set(['item', 'entry']);

export class TreeBuilder implements ScanSink {
  root: XmlElement | null = null;
  private src: string;
  private stack: XmlElement[] = [];
  private items = 0;
  private ring: XmlElement[] = [];
  private readonly names = new Map<string, string>();
  private readonly rename: (name: string) => string;
  private readonly leaves: ReadonlySet<string>;
  private readonly embedded: string[];

  private readonly maxItems: number;

  /** `embedded`: prefixes of XHTML/SVG/MathML markup to unprefix inside leaves. */
  constructor(
    src: string,
    rename: (name: string) => string,
    leaves: ReadonlySet<string>,
    embedded: string[],
    maxItems = Number.POSITIVE_INFINITY,
  ) {
    this.src = src;
    this.rename = rename;
    this.leaves = leaves;
    this.embedded = embedded;
    this.maxItems = maxItems;
  }

  /** The items past the cap, or null when the document has no more than `maxItems`. */
  overflow(): ItemOverflow | null {
    if (this.items <= this.maxItems) return null;
    const past = this.items - this.maxItems;
    const ring = this.ring;
    if (past <= ring.length) return { total: this.items, tail: ring.slice(0, past) };
    const at = past % ring.length; // the oldest kept entry
    return { total: this.items, tail: [...ring.slice(at), ...ring.slice(0, at)] };
  }

  /** The canonical form of a name as written (memoised: feeds repeat a few dozen names). */
  canonical(name: string): string {
    let c = this.names.get(name);
    if (c === undefined) {
      c = this.rename(name);
      this.names.set(name, c);
    }
    return c;
  }

  reset(src: string): void {
    this.src = src;
    this.root = null;
    this.stack = [];
    this.items = 0;
    this.ring = [];
  }

  private add(el: XmlElement): void {
    const depth = this.stack.length;
    const parent = this.stack[depth - 1];
    if (parent === undefined) {
      this.root ??= el;
      return;
    }
    const feedLevel = parent === this.root || (depth === 2 && parent.name === 'channel');
    if (feedLevel && ITEM_NAMES.has(el.name) && ++this.items > this.maxItems) {
      // Past the cap: remember it among the last maxItems instead of in the tree.
      const past = this.items - this.maxItems - 1;
      if (this.ring.length < this.maxItems) this.ring.push(el);
      else this.ring[past % this.maxItems] = el;
      return;
    }
    parent.children.push(el);
  }

  start(name: string, attrsFrom: number, attrsTo: number, empty: boolean): void {
    const canonical = this.canonical(name);
    const el: XmlElement = {
      name: canonical,
      attrs: attrsTo > attrsFrom ? this.attributes(attrsFrom, attrsTo) : null,
      children: empty ? NO_CHILDREN : [],
      text: '',
      raw: empty && this.leaves.has(canonical),
    };
    this.add(el);
    if (!empty) this.stack.push(el);
  }

  leaf(
    name: string,
    attrsFrom: number,
    attrsTo: number,
    from: number,
    to: number,
    cdataFrom: number,
    cdataTo: number,
  ): void {
    const cdata = cdataFrom >= 0;
    let raw = cdata ? this.src.slice(cdataFrom, cdataTo) : to > from ? this.src.slice(from, to) : '';
    if (raw.indexOf('\r') !== -1) raw = raw.replace(/\r\n?/g, '\n'); // XML end-of-line handling
    if (!cdata && this.embedded.length > 0) raw = unprefixEmbedded(raw, this.embedded);
    const el: XmlElement = {
      name: this.canonical(name),
      attrs: attrsTo > attrsFrom ? this.attributes(attrsFrom, attrsTo) : null,
      children: NO_CHILDREN,
      text: raw,
      raw: true,
    };
    if (cdata) el.cdata = true;
    this.add(el);
  }

  end(): void {
    this.stack.pop();
  }

  text(from: number, to: number): void {
    const s = this.src;
    while (from < to && isSpace(s.charCodeAt(from))) from++;
    if (from === to) return; // indentation
    while (isSpace(s.charCodeAt(to - 1))) to--;
    const top = this.stack[this.stack.length - 1];
    if (top) top.text += decodeEntities(s.slice(from, to));
  }

  cdata(from: number, to: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top) top.text += this.src.slice(from, to);
  }

  /** name="value" pairs of a start tag, names canonical, values raw; junk between them skipped. */
  private attributes(from: number, to: number): Record<string, string> | null {
    const s = this.src;
    let attrs: Record<string, string> | null = null;
    let i = from;
    while (i < to) {
      let c = s.charCodeAt(i);
      if (isSpace(c) || c === 47) {
        i++;
        continue;
      }
      const nameFrom = i;
      while (i < to) {
        c = s.charCodeAt(i);
        if (c === 61 || isSpace(c) || c === 47) break;
        i++;
      }
      const name = s.slice(nameFrom, i);
      while (i < to && isSpace(s.charCodeAt(i))) i++;
      if (s.charCodeAt(i) !== 61) continue; // a bare word: no value, nothing to keep
      i++;
      while (i < to && isSpace(s.charCodeAt(i))) i++;
      const q = s.charCodeAt(i);
      let value: string;
      if (q === 34 || q === 39) {
        let end = s.indexOf(q === 34 ? '"' : "'", i + 1);
        if (end === -1 || end > to) end = to;
        value = s.slice(i + 1, end);
        i = end + 1;
      } else {
        const valueFrom = i;
        while (i < to && !isSpace(s.charCodeAt(i))) i++;
        value = s.slice(valueFrom, i);
      }
      if (name === '') continue;
      if (attrs === null) attrs = {};
      attrs[this.canonical(name)] = value;
    }
    return attrs;
  }
}
