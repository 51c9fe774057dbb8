/**
 * Namespaces matched by URI, not by the prefix a feed happened to pick. Every element and
 * attribute name is rewritten once, while parsing, to a canonical prefix (`dc:`, `media:` ...);
 * the format's own namespace (RSS 0.90/1.0 in RDF, Atom in an Atom feed) loses its prefix
 * entirely, so readers match plain names like `title`.
 *
 * Declarations are collected from the whole document up front (feeds declare them on the root,
 * sometimes on an item); scoping rules are not modelled because feeds do not rebind prefixes.
 * A prefix that is used but never declared (a common mistake) is taken at its word.
 */

/** The family whose namespace is "home" (unprefixed) for this document. */
export type XmlFamily = 'rss' | 'rdf' | 'atom' | 'other';

/** Canonical prefixes by URI; the key is the URI lowercased, without scheme or trailing / or #. */
const KNOWN: Readonly<Record<string, string>> = {
  'www.w3.org/2005/atom': 'atom',
  'purl.org/atom/ns': 'atom',
  'purl.org/rss/1.0': 'rss',
  'my.netscape.com/rdf/simple/0.9': 'rss',
  'backend.userland.com/rss2': 'rss',
  'backend.userland.com/rss': 'rss',
  'www.w3.org/1999/02/22-rdf-syntax-ns': 'rdf',
  'purl.org/dc/elements/1.1': 'dc',
  'purl.org/dc/terms': 'dcterms',
  'purl.org/rss/1.0/modules/content': 'content',
  'search.yahoo.com/mrss': 'media',
  'www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'purl.org/rss/1.0/modules/syndication': 'sy',
  'source.scripting.com': 'source',
  'www.w3.org/1999/xhtml': 'xhtml',
  'www.w3.org/2000/svg': 'svg',
  'www.w3.org/1998/math/mathml': 'mathml',
  'www.w3.org/xml/1998/namespace': 'xml',
};

/** Prefixes people write without declaring, in spellings that differ from ours. */
const UNDECLARED_ALIASES: Readonly<Record<string, string>> = { rsscloud: 'rssCloud', RSSCloud: 'rssCloud' };

export function canonicalPrefixForUri(uri: string): string | null {
  const key = uri
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/[/#]+$/, '');
  const known = KNOWN[key];
  if (known) return known;
  if (key.includes('rsscloud')) return 'rssCloud';
  return null;
}

/** The document's prefixes mapped to canonical ones ('' = the home namespace, prefix dropped). */
export type PrefixMap = Map<string, string>;

const XMLNS_DECL = /^xmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/** Collects every `xmlns:p="uri"` in the document into a prefix map for that family. */
export function collectPrefixes(text: string, family: XmlFamily): PrefixMap {
  const home = family === 'atom' ? 'atom' : family === 'rss' || family === 'rdf' ? 'rss' : '\u0000';
  const map: PrefixMap = new Map();
  for (const [alias, canonical] of Object.entries(UNDECLARED_ALIASES)) map.set(alias, canonical);
  let i = text.indexOf('xmlns');
  while (i !== -1) {
    const m = XMLNS_DECL.exec(text.slice(i, i + 300));
    if (m?.[1]) {
      const canonical = canonicalPrefixForUri(m[2] ?? m[3] ?? '');
      const target = canonical === home ? '' : canonical;
      // Identity mappings are left out so the common case costs no string building.
      if (target !== null && target !== m[1]) map.set(m[1], target);
      else if (target === m[1]) map.delete(m[1]);
    }
    i = text.indexOf('xmlns', i + 5);
  }
  if (home !== '\u0000' && !map.has(home)) map.set(home, '');
  return map;
}

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** A name rewriter for the parser: `c:encoded` -> `content:encoded`, `atom:title` -> `title`. */
export function nameRewriter(prefixes: PrefixMap): (name: string) => string {
  return (name) => {
    const colon = name.indexOf(':');
    if (colon === -1) {
      // Only names starting with _, c or p can be reserved: skip the lookup for the rest.
      const c = name.charCodeAt(0);
      return (c === 95 || c === 99 || c === 112) && RESERVED.has(name) ? `_${name}` : name;
    }
    const canonical = prefixes.get(name.slice(0, colon));
    if (canonical === undefined) return name;
    return canonical === '' ? name.slice(colon + 1) : `${canonical}${name.slice(colon)}`;
  };
}

/** Namespaces whose elements HTML embeds by their bare names (<p>, <svg>, <math>). */
const EMBEDDED = new Set(['xhtml', 'svg', 'mathml']);

/**
 * The prefixes this document binds to XHTML, SVG or MathML. Markup in those namespaces inside
 * content is given to the renderer as HTML, which knows `<svg>` but not `<s:svg>`.
 */
export function embeddedMarkupPrefixes(text: string): string[] {
  const out: string[] = [];
  let i = text.indexOf('xmlns:');
  while (i !== -1) {
    const m = XMLNS_DECL.exec(text.slice(i, i + 300));
    const canonical = m?.[1] ? canonicalPrefixForUri(m[2] ?? m[3] ?? '') : null;
    if (canonical && EMBEDDED.has(canonical) && !out.includes(m![1]!)) out.push(m![1]!);
    i = text.indexOf('xmlns:', i + 6);
  }
  return out;
}

/**
 * Inline markup with its XHTML/SVG/MathML prefixes dropped (`<s:circle/>` -> `<circle/>`) and
 * their `xmlns:p` declarations removed: the form HTML parses into the same elements.
 */
export function unprefixEmbedded(markup: string, prefixes: string[]): string {
  if (prefixes.length === 0 || markup.indexOf(':') === -1) return markup;
  const alt = prefixes.map((p) => p.replace(/[.-]/g, (c) => `\\${c}`)).join('|');
  if (!new RegExp(`</?(?:${alt}):`).test(markup)) return markup;
  return markup
    .replace(new RegExp(`\\s+xmlns:(?:${alt})\\s*=\\s*(?:"[^"]*"|'[^']*')`, 'g'), '')
    .replace(new RegExp(`<(/?)(?:${alt}):`, 'g'), '<$1');
}
