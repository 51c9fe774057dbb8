/**
 * XML text to a small element tree the format readers walk, built on fast-xml-parser: ordered
 * output (no second "prettify" traversal), no value coercion, no entity work in the parser.
 *
 * The speed trick: the leaf elements below (title, description, content:encoded ...) are read
 * whole. The structure check already finds where each one's content starts and ends, so that
 * content is lifted out and the parser gets a skeleton with a short placeholder in its place:
 * the parser never walks HTML bodies character by character, and text.ts decodes each field
 * exactly once, CDATA and entities alike.
 */
import { XMLParser } from 'fast-xml-parser';
import type { Deadline } from '../deadline.ts';
import { decodeEntities, htmlFromRaw, textFromRaw } from '../text.ts';
import {
  collectPrefixes,
  embeddedMarkupPrefixes,
  nameRewriter,
  unprefixEmbedded,
  type XmlFamily,
} from './namespaces.ts';
import { checkStructure, type XmlProblem } from './wellformed.ts';

export interface XmlElement {
  /** Canonical name: the home namespace unprefixed, others with their canonical prefix. */
  name: string;
  /** Attribute values as written (entities not decoded): read them through `attr`. */
  attrs: Record<string, string> | null;
  children: XmlElement[];
  /** Leaf elements: the raw inner markup. Others: their own character data, decoded. */
  text: string;
  raw: boolean;
}

/** Elements read whole; every element whose text the model uses, and nothing with structure. */
const LEAVES = new Set([
  // RSS 0.9x / 1.0 / 2.0
  'title',
  'link',
  'description',
  'guid',
  'pubDate',
  'lastBuildDate',
  'language',
  'generator',
  'ttl',
  'comments',
  'category',
  'copyright',
  'managingEditor',
  'webMaster',
  'docs',
  'url',
  'hour',
  'day',
  // Atom
  'id',
  'published',
  'updated',
  'issued',
  'modified',
  'created',
  'summary',
  'content',
  'subtitle',
  'tagline',
  'rights',
  'name',
  'email',
  'uri',
  'icon',
  'logo',
  // Namespaces
  'content:encoded',
  'dc:creator',
  'dc:date',
  'dc:subject',
  'dc:rights',
  'dc:title',
  'dc:description',
  'dc:language',
  'dc:publisher',
  'dc:contributor',
  'dcterms:modified',
  'dcterms:issued',
  'dcterms:created',
  'itunes:summary',
  'itunes:author',
  'itunes:subtitle',
  'itunes:duration',
  'itunes:explicit',
  'itunes:keywords',
  'media:title',
  'media:description',
  'media:credit',
  'media:category',
  'media:keywords',
  'sy:updatePeriod',
  'sy:updateFrequency',
  'sy:updateBase',
  'source:cloud',
  'source:markdown',
  'atom:updated',
  'atom:published',
  'atom:id',
  'atom:title',
  'atom:summary',
  'atom:content',
  // Full content in RSS items, as inline XHTML or escaped HTML
  'xhtml:body',
  'body',
  'fullitem',
]);

/** `repaired`: the document was cut off at its end and has been closed (wellformed.ts). */
export type XmlParseResult =
  | { ok: true; root: XmlElement; repaired: boolean }
  | { ok: false; problem: XmlProblem };

/** Parses a whole document (already known to be XML of the given family) into its root element. */
export function parseXml(text: string, family: XmlFamily, deadline: Deadline): XmlParseResult {
  const rewrite = nameRewriter(collectPrefixes(text, family));
  const check = checkStructure(text, (name) => LEAVES.has(rewrite(name)), deadline);
  if (check.problem) return { ok: false, problem: check.problem };
  deadline.check();
  const source = check.repaired ?? text;
  const { skeleton, raws } = liftLeaves(source, check.doctype, check.leaves, embeddedMarkupPrefixes(source));
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: true,
    cdataPropName: '#cdata',
    ignoreDeclaration: true,
    ignorePiTags: true,
    jPath: false,
    maxNestedTags: 256,
    transformTagName: rewrite,
    transformAttributeName: rewrite,
  });
  const nodes = parser.parse(skeleton) as FxpNode[];
  deadline.check();
  for (const node of nodes) {
    const element = toElement(node, raws);
    if (element) return { ok: true, root: element, repaired: check.repaired !== null };
  }
  return { ok: false, problem: { message: 'There is no root element', line: 1, column: 1 } };
}

/** Marks a lifted leaf's content in the skeleton; U+0001 cannot occur in well-formed XML text. */
const PLACEHOLDER = '\u0001';

/**
 * The document without its DOCTYPE (so the parser cannot even see the entities it declares) and
 * with each leaf's content replaced by a placeholder naming its index in `raws`.
 */
function liftLeaves(text: string, doctype: [number, number] | null, leaves: number[], embedded: string[]) {
  const raws: string[] = [];
  let skeleton = '';
  let last = 0;
  if (doctype) {
    skeleton = text.slice(0, doctype[0]);
    last = doctype[1];
  }
  for (let k = 0; k < leaves.length; k += 2) {
    const start = leaves[k]!;
    const end = leaves[k + 1]!;
    let raw = text.slice(start, end);
    if (raw.indexOf('\r') !== -1) raw = raw.replace(/\r\n?/g, '\n'); // XML end-of-line handling
    if (embedded.length > 0) raw = unprefixEmbedded(raw, embedded);
    skeleton += squeeze(text.slice(last, start)) + PLACEHOLDER + raws.length;
    raws.push(raw);
    last = end;
  }
  skeleton += squeeze(text.slice(last));
  return { skeleton, raws };
}

const BETWEEN_TAGS = />\s+</g;

/**
 * Drops whitespace-only runs between tags (indentation), which the parser would otherwise collect
 * one character at a time only to trim away. Left alone where a CDATA section could hold them.
 */
function squeeze(part: string): string {
  return part.indexOf('<![CDATA[') === -1 ? part.replace(BETWEEN_TAGS, '><') : part;
}

/** fast-xml-parser's ordered node: { [tag]: children, ':@'?: attributes } or a text/CDATA entry. */
type FxpNode = Record<string, unknown>;

function toElement(node: FxpNode, raws: string[]): XmlElement | null {
  let name: string | undefined;
  for (const key in node) {
    if (key !== ':@') {
      name = key;
      break;
    }
  }
  if (name === undefined || name === '#text' || name === '#cdata') return null;
  const kids = node[name] as FxpNode[];
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? null;
  if (LEAVES.has(name)) {
    const marker = kids[0]?.['#text'];
    const raw =
      typeof marker === 'string' && marker.charCodeAt(0) === 1 ? raws[Number(marker.slice(1))] : undefined;
    return { name, attrs, children: [], text: raw ?? '', raw: true };
  }
  const children: XmlElement[] = [];
  let text = '';
  for (const kid of kids) {
    const t = kid['#text'];
    if (t !== undefined) {
      text += decodeEntities(String(t));
      continue;
    }
    const cdata = kid['#cdata'] as FxpNode[] | undefined;
    if (cdata !== undefined) {
      text += String(cdata[0]?.['#text'] ?? '');
      continue;
    }
    const child = toElement(kid, raws);
    if (child) children.push(child);
  }
  return { name, attrs, children, text, raw: false };
}

// ---- Reading helpers for the format readers ----

export function child(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) if (c.name === name) return c;
  return undefined;
}

/** An attribute's value, entities decoded and trimmed; null when absent or empty. */
export function attr(el: XmlElement | undefined, name: string): string | null {
  const v = el?.attrs?.[name];
  if (v === undefined) return null;
  const t = decodeEntities(v).trim();
  return t === '' ? null : t;
}

/** An element's text as plain text (trimmed); null when absent or empty. */
export function text(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  const t = el.raw ? textFromRaw(el.text) : el.text.trim();
  return t === '' ? null : t;
}

/** An element's content as the HTML the feed gave; null when absent or empty. */
export function html(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  const h = el.raw ? htmlFromRaw(el.text) : el.text.trim();
  return h === '' ? null : h;
}
