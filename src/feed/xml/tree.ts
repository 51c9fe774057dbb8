/**
 * XML text to a small element tree the format readers walk. One pass: the structure check
 * (wellformed.ts) walks the tags and the TreeBuilder (build.ts) makes elements as it goes; no
 * value coercion, no entity work on markup.
 *
 * The speed trick: the leaf elements below (title, description, content:encoded ...) are read
 * whole. The check finds where each one's content starts and ends and hands that range over raw:
 * nothing walks HTML bodies character by character, and text.ts decodes each field exactly once,
 * CDATA and entities alike.
 */
import type { Deadline } from '../deadline.ts';
import { decodeEntities, dropControls, htmlFromRaw, oneLine, orNull, textFromRaw } from '../text.ts';
import { type ItemOverflow, TreeBuilder, type XmlElement } from './build.ts';
import type { Mended } from './mend.ts';
import { collectPrefixes, embeddedMarkupPrefixes, nameRewriter, type XmlFamily } from './namespaces.ts';
import { checkStructure, type XmlProblem } from './wellformed.ts';

export type { ItemOverflow, XmlElement };

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
  'dc:author',
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

/**
 * `repaired`: the document was cut off at its end and has been closed (wellformed.ts); `mended`:
 * end tags that did not match were forgiven (mend.ts); `trailing`: where junk after the root
 * element starts (left unread), or null.
 */
export type XmlParseResult =
  | {
      ok: true;
      root: XmlElement;
      repaired: boolean;
      mended: Mended | null;
      trailing: number | null;
      overflow: ItemOverflow | null;
      skipped: number;
    }
  | { ok: false; problem: XmlProblem };

/** Parses a whole document (already known to be XML of the given family) into its root element. */
export function parseXml(
  text: string,
  family: XmlFamily,
  deadline: Deadline,
  maxItems = Number.POSITIVE_INFINITY,
): XmlParseResult {
  const builder = new TreeBuilder(
    text,
    nameRewriter(collectPrefixes(text, family)),
    LEAVES,
    embeddedMarkupPrefixes(text),
    maxItems,
  );
  const check = checkStructure(text, (name) => LEAVES.has(builder.canonical(name)), deadline, builder);
  if (check.problem) return { ok: false, problem: check.problem };
  if (builder.root === null)
    return { ok: false, problem: { message: 'There is no root element', line: 1, column: 1 } };
  return {
    ok: true,
    root: builder.root,
    repaired: check.repaired !== null,
    mended: check.mended,
    trailing: check.trailing,
    overflow: builder.overflow(),
    skipped: builder.dropped,
  };
}

// ---- Reading helpers for the format readers ----

export function child(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) if (c.name === name) return c;
  return undefined;
}

/**
 * An attribute's value, entities decoded and trimmed; null when absent or empty. C0 control
 * characters are dropped here and in text() (as references, by decodeEntities): per field,
 * because a pass over the whole document would cost as much as parsing it.
 */
export function attr(el: XmlElement | undefined, name: string): string | null {
  const v = el?.attrs?.[name];
  if (v === undefined) return null;
  const t = dropControls(decodeEntities(v)).trim();
  return t === '' ? null : t;
}

/** An element's text as plain text (trimmed, C0 controls dropped); null when absent or empty. */
export function text(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  const t = dropControls(el.raw && !el.cdata ? textFromRaw(el.text) : el.text).trim();
  return t === '' ? null : t;
}

/**
 * All the text inside an element, its children's included, in document order, on one line:
 * markup someone put where text belongs (`<author><p>Ann</p></author>`) gives its text.
 */
export function textContent(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  const parts: string[] = [];
  collectText(el, parts);
  return orNull(oneLine(dropControls(parts.join(' '))));
}

function collectText(el: XmlElement, parts: string[]): void {
  const own = el.raw ? text(el) : el.text;
  if (own) parts.push(own);
  for (const c of el.children) collectText(c, parts);
}

/** An element's content as the HTML the feed gave; null when absent or empty. */
export function html(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  const h = el.raw && !el.cdata ? htmlFromRaw(el.text) : el.text.trim();
  return h === '' ? null : h;
}
