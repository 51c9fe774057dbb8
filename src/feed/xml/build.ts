/**
 * The element tree, built in the same pass as the structure check (wellformed.ts calls these
 * methods as it meets each tag): one walk over the text instead of a check plus a second parser.
 * Names are canonicalised once per distinct spelling (namespaces.ts); leaf elements keep their
 * inner markup raw for text.ts to decode exactly once.
 */
import { decodeEntities } from '../text.ts';
import { DeclaredEntities } from './dtd-entities.ts';
import { unprefixEmbedded } from './namespaces.ts';
import { isSpace } from './prolog.ts';
import type { ScanSink } from './wellformed.ts';

export interface XmlElement {
  /** Canonical name: the home namespace unprefixed, others with their canonical prefix. */
  name: string;
  /** Attribute values as written (entities not decoded): read them through `attr`. */
  attrs: Record<string, string> | null;
  children: XmlElement[];
  /**
   * Leaf elements: the raw inner markup. Others: their own character data before their first
   * child, decoded; character data after a child is a `#text` child, so mixed content keeps its
   * order (`<author>Item <b>Author</b></author>`, see textContent in tree.ts).
   */
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

/**
 * At most this many elements are held at once (the tree plus the items set aside). A feed of
 * 5,000 rich items needs a few hundred thousand; past it, further elements other than items are
 * left unread, so a document of five million empty tags cannot take gigabytes.
 */
export const ELEMENT_BUDGET = 600_000;

/** Inside an item, an element holds at most this many children (no outline needs more). */
const CHILDREN_PER_ELEMENT = 10_000;

/**
 * Feed-level elements other than items (channel title, links, images ... or junk) have their own
 * smaller budget, so junk beside the items cannot use up the budget the items need.
 */
export const FEED_LEVEL_BUDGET = 50_000;

/** Leaves and empty elements share one frozen child list: one array less per element. */
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];

/** Stands on the stack for an element left unread, so its end tag has something to close. */
const SKIPPED: XmlElement = Object.freeze({
  name: '',
  attrs: null,
  children: NO_CHILDREN,
  text: '',
  raw: false,
});

const DROP = 0;
const KEEP = 1;
const ITEM = 2;
type Verdict = typeof DROP | typeof KEEP | typeof ITEM;

/** Item elements (RSS/RDF item, Atom entry) count at feed level: under the root or the RSS channel. */
const ITEM_NAMES = new Set(['item', 'entry']);

/** Character data into an element: its own text, or after a child a `#text` child. */
function addText(el: XmlElement, text: string): void {
  const last = el.children.length === 0 ? null : el.children[el.children.length - 1]!;
  if (last === null) el.text += text;
  else if (last.name === TEXT_NODE) last.text += text;
  else el.children.push({ name: TEXT_NODE, attrs: null, children: NO_CHILDREN, text, raw: false });
}

/** The name of the pseudo-element holding character data that follows a child element. */
export const TEXT_NODE = '#text';

export class TreeBuilder implements ScanSink {
  root: XmlElement | null = null;
  private src: string;
  private stack: XmlElement[] = [];
  private items = 0;
  private ring: XmlElement[] = [];
  /** Elements held now; set-aside items count with their subtrees until pushed out of the ring. */
  private live = 0;
  /** Elements left unread past the budgets. */
  dropped = 0;
  private feedLevelHeld = 0;
  /** The feed-level item being built, and how many elements it holds so far. */
  private openItem: XmlElement | null = null;
  private openItemSize = 0;
  /** Subtree sizes of the items in the ring (same slots), so pushing one out gives its budget back. */
  private ringSizes: number[] = [];
  /** The ring slot of the open item, or -1 when it is in the tree. */
  private openSlot = -1;
  private readonly names = new Map<string, string>();
  private readonly rename: (name: string) => string;
  private readonly leaves: ReadonlySet<string>;
  private readonly embedded: string[];

  private readonly maxItems: number;
  /** Entities the DOCTYPE declares (dtd-entities.ts), or null: most documents have none. */
  private entities: DeclaredEntities | null = null;

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
    this.live = 0;
    this.dropped = 0;
    this.feedLevelHeld = 0;
    this.openItem = null;
    this.openItemSize = 0;
    this.ringSizes = [];
    this.openSlot = -1;
    this.entities = null;
  }

  doctype(from: number, to: number): void {
    this.entities = DeclaredEntities.from(this.src.slice(from, to));
  }

  /**
   * What becomes of an element about to open here: DROP (past a budget: not even made), KEEP
   * (attached to its parent) or ITEM (a feed-level item: attached, or set aside past the cap).
   */
  private admit(canonical: string): Verdict {
    const depth = this.stack.length;
    const parent = this.stack[depth - 1];
    if (parent === undefined) return KEEP;
    if (parent === SKIPPED) {
      this.dropped++;
      return DROP;
    }
    const feedLevel = parent === this.root || (depth === 2 && parent.name === 'channel');
    if (feedLevel && ITEM_NAMES.has(canonical)) return ITEM;
    const full = feedLevel
      ? this.feedLevelHeld++ >= FEED_LEVEL_BUDGET
      : this.live >= ELEMENT_BUDGET || parent.children.length >= CHILDREN_PER_ELEMENT;
    if (full) {
      this.dropped++;
      return DROP;
    }
    return KEEP;
  }

  /** Puts an admitted element in its place. */
  private attach(el: XmlElement, verdict: Verdict): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) {
      this.root ??= el;
      return;
    }
    this.live++;
    if (verdict === KEEP) {
      if (this.openItem !== null) this.openItemSize++;
      parent.children.push(el);
      return;
    }
    if (++this.items > this.maxItems) {
      // Past the cap: remember it among the last maxItems instead of in the tree.
      const slot = (this.items - this.maxItems - 1) % this.maxItems;
      if (slot < this.ring.length) this.live -= this.ringSizes[slot]!;
      this.ring[slot] = el;
      this.ringSizes[slot] = 1;
      this.openSlot = slot;
    } else {
      parent.children.push(el);
      this.openSlot = -1;
    }
  }

  start(name: string, attrsFrom: number, attrsTo: number, empty: boolean): void {
    const canonical = this.canonical(name);
    const verdict = this.admit(canonical);
    if (verdict === DROP) {
      if (!empty) this.stack.push(SKIPPED); // its end tag still comes
      return;
    }
    const el: XmlElement = {
      name: canonical,
      attrs: attrsTo > attrsFrom ? this.attributes(attrsFrom, attrsTo) : null,
      children: empty ? NO_CHILDREN : [],
      text: '',
      raw: empty && this.leaves.has(canonical),
    };
    this.attach(el, verdict);
    if (empty) return;
    this.stack.push(el);
    if (verdict === ITEM) {
      this.openItem = el;
      this.openItemSize = 0;
    }
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
    const canonical = this.canonical(name);
    const verdict = this.admit(canonical);
    if (verdict === DROP) return;
    const cdata = cdataFrom >= 0;
    let raw = cdata ? this.src.slice(cdataFrom, cdataTo) : to > from ? this.src.slice(from, to) : '';
    if (raw.indexOf('\r') !== -1) raw = raw.replace(/\r\n?/g, '\n'); // XML end-of-line handling
    if (!cdata && this.embedded.length > 0) raw = unprefixEmbedded(raw, this.embedded);
    if (!cdata && this.entities !== null) raw = this.entities.expand(raw);
    const el: XmlElement = {
      name: canonical,
      attrs: attrsTo > attrsFrom ? this.attributes(attrsFrom, attrsTo) : null,
      children: NO_CHILDREN,
      text: raw,
      raw: true,
    };
    if (cdata) el.cdata = true;
    this.attach(el, verdict);
  }

  end(): void {
    const el = this.stack.pop();
    if (el !== undefined && el === this.openItem) {
      if (this.openSlot !== -1) this.ringSizes[this.openSlot] = 1 + this.openItemSize;
      this.openItem = null;
    }
  }

  text(from: number, to: number): void {
    const s = this.src;
    while (from < to && isSpace(s.charCodeAt(from))) from++;
    if (from === to) return; // indentation
    while (isSpace(s.charCodeAt(to - 1))) to--;
    const top = this.stack[this.stack.length - 1];
    if (top && top !== SKIPPED) {
      const raw = s.slice(from, to);
      addText(top, decodeEntities(this.entities === null ? raw : this.entities.expand(raw)));
    }
  }

  cdata(from: number, to: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top && top !== SKIPPED) addText(top, this.src.slice(from, to));
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
      if (this.entities !== null) value = this.entities.expand(value);
      if (attrs === null) attrs = {};
      attrs[this.canonical(name)] = value;
    }
    return attrs;
  }
}
