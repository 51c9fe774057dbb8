/**
 * OPML 1.0/2.0 subscription lists in and out, folders kept as 'A/B' paths.
 *
 * Reading is tolerant where real exports differ (attribute case, type rss/atom/absent, title in
 * text or title, HTML entities like &eacute; that sloppy exporters leave undeclared) and strict
 * where safety matters: the DOCTYPE is blanked and the parser expands no entity (billion laughs
 * stays inert text); character references and the XML/HTML 4 names are decoded once, by text.ts.
 * Writing is OPML 2.0 and never carries URL credentials.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { decodeEntities } from './text.ts';
import { xmlAttrs, xmlElement } from './xml-escape.ts';

export interface OpmlSubscription {
  url: string;
  title: string | null;
  siteUrl: string | null;
  /** Path 'A/B' for nested outlines; null at the top level. */
  folder: string | null;
}

export interface OpmlDocument {
  title: string | null;
  subscriptions: OpmlSubscription[];
}

type Node = Record<string, unknown>;

const CDATA = '#cdata';
const TEXT = '#text';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Entities stay as written (no DOCTYPE expansion at all); text.ts decodes them, once.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: CDATA,
  allowBooleanAttributes: true,
  transformTagName: (name) => name.toLowerCase(),
  transformAttributeName: (name) => name.toLowerCase(),
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && (name === 'outline' || name === CDATA),
});

export function parseOpml(text: string): Result<OpmlDocument> {
  const xml = blankDoctype(text.replace(/^\uFEFF/, ''));
  const rootName = firstElementName(xml);
  if (rootName === null || rootName.toLowerCase() !== 'opml') {
    return fail(
      tidingsError(
        'opml.notOpml',
        rootName === null
          ? 'This file is not OPML: it holds no XML at all.'
          : `This file is not OPML: it starts with <${rootName}>, not <opml>.`,
        rootName === null ? undefined : { root: rootName },
      ),
    );
  }
  const valid = XMLValidator.validate(xml, { allowBooleanAttributes: true });
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    return fail(
      tidingsError('opml.malformed', `This OPML file is damaged (line ${line}, column ${col}): ${msg}`, {
        line,
        col,
        detail: msg,
      }),
    );
  }
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return fail(tidingsError('opml.malformed', `This OPML file could not be read: ${detail}`, { detail }, e));
  }
  const opml = asNode(doc.opml);
  // `<body/>` parses as '': present but empty.
  const body = opml && opml.body !== undefined ? (asNode(opml.body) ?? {}) : null;
  if (!opml || !body) {
    return fail(tidingsError('opml.notOpml', 'This file is not OPML: it has no <body> of outlines.'));
  }
  const head = asNode(opml.head);
  const title = head ? cleanText(nodeText(head.title)) : null;

  const subscriptions: OpmlSubscription[] = [];
  const seen = new Set<string>();
  collect(outlinesOf(body), [], subscriptions, seen);
  return ok({ title, subscriptions });
}

/** Walks outlines in document order; depth is bounded by the parser's nesting limit. */
function collect(outlines: Node[], path: string[], out: OpmlSubscription[], seen: Set<string>): void {
  for (const outline of outlines) {
    const url = cleanText(attr(outline, '@xmlurl'));
    const children = outlinesOf(outline);
    if (url !== null) {
      if (!seen.has(url)) {
        seen.add(url);
        const text = cleanText(attr(outline, '@text'));
        // A text that merely repeats the URL (what writeOpml writes for an untitled feed) is no title.
        const title = (text !== url ? text : null) ?? cleanText(attr(outline, '@title'));
        out.push({
          url,
          title,
          siteUrl: cleanText(attr(outline, '@htmlurl')),
          folder: path.length > 0 ? path.join('/') : null,
        });
      }
      // A feed outline that holds outlines (rare): its children sit beside it, not inside a feed.
      if (children.length > 0) collect(children, path, out, seen);
    } else if (children.length > 0) {
      const name = cleanText(attr(outline, '@text')) ?? cleanText(attr(outline, '@title'));
      // An unnamed folder adds no level: its feeds belong to the enclosing folder.
      collect(children, name === null ? path : [...path, name], out, seen);
    }
  }
}

function outlinesOf(node: Node): Node[] {
  const list = node.outline;
  if (!Array.isArray(list)) return [];
  // `<outline/>` parses as '' and `<outline>text</outline>` as a string: only objects are outlines
  // with attributes; a bare one still counts as an (empty) node.
  return list.map((o) => asNode(o) ?? {});
}

function asNode(v: unknown): Node | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : null;
}

function attr(node: Node, name: string): string | null {
  const v = node[name];
  return typeof v === 'string' ? decodeEntities(v) : null;
}

/** The text of an element: entity-decoded text plus CDATA sections (kept raw). */
function nodeText(v: unknown): string | null {
  if (typeof v === 'string') return decodeEntities(v);
  const node = asNode(v);
  if (!node) return null;
  let out = typeof node[TEXT] === 'string' ? decodeEntities(node[TEXT]) : '';
  const cdata = node[CDATA];
  if (Array.isArray(cdata)) for (const c of cdata) if (typeof c === 'string') out += c;
  return out;
}

function cleanText(s: string | null): string | null {
  if (s === null) return null;
  const t = s.trim();
  return t.length > 0 ? t : null;
}

/**
 * OPML has no use for a DOCTYPE, and its internal subset is where entity tricks live (billion
 * laughs, external entities the parser would refuse outright): blank it out, keeping newlines so
 * error positions still point at the right line.
 */
function blankDoctype(xml: string): string {
  const start = xml.search(/<!DOCTYPE/i);
  if (start === -1) return xml;
  const root = xml.search(/<[A-Za-z_]/);
  if (root !== -1 && root < start) return xml;
  let depth = 0;
  let quote: string | null = null;
  let i = start + 9;
  for (; i < xml.length; i++) {
    const c = xml[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '>' && depth === 0) break;
  }
  if (i >= xml.length) return xml; // unterminated: let the validator say where
  return xml.slice(0, start) + xml.slice(start, i + 1).replace(/[^\n]/g, ' ') + xml.slice(i + 1);
}

/** The name of the first element, skipping the declaration, comments, PIs and a DOCTYPE. */
function firstElementName(xml: string): string | null {
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>|<([A-Za-z_][\w.:-]*)/gi;
  for (let m = re.exec(xml); m !== null; m = re.exec(xml)) {
    if (m[1]) return m[1];
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Writing

export interface OpmlWriteInput {
  title: string;
  /** Milliseconds since the epoch; written as RFC 822 (`toUTCString()`). */
  dateCreated?: number;
  subscriptions: OpmlSubscription[];
}

interface FolderNode {
  name: string;
  /** Feeds and sub-folders in first-appearance order, so the round trip keeps the order. */
  children: (FolderNode | OpmlSubscription)[];
  folders: Map<string, FolderNode>;
}

/**
 * OPML 2.0 with folders as nested outlines. Subscriptions of one folder are gathered under one
 * outline at the place the folder first appears (other readers would show a repeated folder
 * twice), so parseOpml(writeOpml(x)) equals x whenever each folder's feeds are listed together,
 * as the store lists them.
 */
export function writeOpml(doc: OpmlWriteInput): string {
  const root: FolderNode = { name: '', children: [], folders: new Map() };
  for (const sub of doc.subscriptions) {
    let folder = root;
    for (const name of splitFolder(sub.folder)) {
      let next = folder.folders.get(name);
      if (!next) {
        next = { name, children: [], folders: new Map() };
        folder.folders.set(name, next);
        folder.children.push(next);
      }
      folder = next;
    }
    folder.children.push(sub);
  }

  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    ${xmlElement('title', doc.title)}`,
  ];
  if (doc.dateCreated !== undefined && Number.isFinite(doc.dateCreated)) {
    lines.push(`    ${xmlElement('dateCreated', new Date(doc.dateCreated).toUTCString())}`);
  }
  lines.push('  </head>', '  <body>');
  writeChildren(root.children, 2, lines);
  lines.push('  </body>', '</opml>', '');
  return lines.join('\n');
}

function writeChildren(children: (FolderNode | OpmlSubscription)[], depth: number, lines: string[]): void {
  const indent = '  '.repeat(depth);
  for (const child of children) {
    if ('children' in child) {
      const a = xmlAttrs([
        ['text', child.name],
        ['title', child.name],
      ]);
      lines.push(`${indent}<outline${a}>`);
      writeChildren(child.children, depth + 1, lines);
      lines.push(`${indent}</outline>`);
      continue;
    }
    const url = stripUserinfo(child.url);
    // Only web addresses leave: a feed's <link> may say javascript: or data:, and another reader
    // could make it clickable (issue 9). A feed without an http(s) address is not exported.
    if (!isWebUrl(url)) continue;
    const site = child.siteUrl === null ? null : stripUserinfo(child.siteUrl);
    const a = xmlAttrs([
      ['type', 'rss'],
      // OPML requires text; an untitled feed shows its URL (and reads back as untitled).
      ['text', child.title ?? url],
      ['title', child.title],
      ['xmlUrl', url],
      ['htmlUrl', site !== null && isWebUrl(site) ? site : null],
    ]);
    lines.push(`${indent}<outline${a}/>`);
  }
}

const isWebUrl = (u: string) => /^\s*https?:\/\/[^\s]/i.test(u);

/** Same rule as the store's folder paths: '/'-separated, trimmed, empty segments dropped. */
function splitFolder(path: string | null): string[] {
  if (!path) return [];
  return path
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Removes `user:pass@` from a URL without re-serialising it (new URL().href would change the
 * URL's spelling and break the round trip). The last '@' before the path (or a backslash, which WHATWG reads as '/') ends the userinfo.
 */
export function stripUserinfo(url: string): string {
  return url.replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#\\]*@/, '$1');
}
