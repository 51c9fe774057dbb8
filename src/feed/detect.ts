/**
 * Which format a document is, decided from a quick look at its start: JSON by its first
 * character, XML by its root element (name, namespace, version attribute). The one place that
 * knows the version rules; the readers trust its answer.
 */
import type { FeedFormat } from './model.ts';
import { canonicalPrefixForUri } from './xml/namespaces.ts';
import { attributeIn, sniffRootTag } from './xml/prolog.ts';

export type Detection =
  | { kind: 'xml'; family: 'rss' | 'rdf' | 'atom'; format: FeedFormat }
  | { kind: 'redirect' }
  | { kind: 'json' }
  | { kind: 'none'; reason: string };

const RSS_VERSIONS: Readonly<Record<string, FeedFormat>> = {
  '0.9': 'rss0.90',
  '0.90': 'rss0.90',
  '0.91': 'rss0.91',
  '0.92': 'rss0.92',
  '0.93': 'rss0.93',
  '0.94': 'rss0.94',
};

const NETSCAPE_RSS_090 = 'my.netscape.com/rdf/simple/0.9';

export function detectFormat(text: string): Detection {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  if (i === text.length) return { kind: 'none', reason: 'The document is empty.' };
  const first = text[i];
  if (first === '{') return { kind: 'json' };
  if (first !== '<') return { kind: 'none', reason: 'The document is neither XML nor JSON.' };
  const root = sniffRootTag(i === 0 ? text : text.slice(i));
  if (!root) return { kind: 'none', reason: 'The document has no XML root element.' };
  const colon = root.name.indexOf(':');
  const local = colon === -1 ? root.name : root.name.slice(colon + 1);
  switch (local) {
    case 'rss': {
      const version = attributeIn(root.attributes, 'version')?.trim() ?? '';
      return { kind: 'xml', family: 'rss', format: RSS_VERSIONS[version] ?? 'rss2.0' };
    }
    case 'RDF': {
      const is090 = root.attributes.toLowerCase().includes(NETSCAPE_RSS_090);
      return { kind: 'xml', family: 'rdf', format: is090 ? 'rss0.90' : 'rss1.0' };
    }
    case 'feed': {
      const ns = attributeIn(root.attributes, colon === -1 ? 'xmlns' : `xmlns:${root.name.slice(0, colon)}`);
      const v03 = attributeIn(root.attributes, 'version') === '0.3';
      const atomNs = ns !== null && canonicalPrefixForUri(ns) === 'atom';
      // Another namespace is another format, unless the root says it is Atom 0.3: the drafts of
      // 2003 (Echo, Pie, Necho) wrote version="0.3" under namespaces of their own.
      if (ns !== null && !atomNs && !v03) break;
      const is03 = atomNs ? /purl\.org\/atom\/ns/i.test(ns) : v03;
      return { kind: 'xml', family: 'atom', format: is03 ? 'atom0.3' : 'atom1.0' };
    }
    case 'redirect':
      return { kind: 'redirect' };
  }
  const what =
    local.toLowerCase() === 'html' ? 'an HTML page' : `an XML document whose root is <${root.name}>`;
  return { kind: 'none', reason: `The document is ${what}, not a feed.` };
}

const JSON_FEED_VERSION = /jsonfeed\.org\/version\/([\d.]+)\/?$/i;

/** Whether the document names its JSON Feed version (feeds without one are read, with a note). */
export function hasJsonFeedVersion(doc: unknown): boolean {
  const version = (doc as { version?: unknown }).version;
  return typeof version === 'string' && JSON_FEED_VERSION.test(version.trim());
}

/** JSON Feed version from the `version` URL: 1 -> json1.0, 1.1 (or anything newer) -> json1.1. */
export function jsonFeedFormat(doc: unknown): FeedFormat | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const version = (doc as { version?: unknown }).version;
  if (typeof version === 'string') {
    const m = JSON_FEED_VERSION.exec(version.trim());
    if (m) return m[1] === '1' || m[1] === '1.0' ? 'json1.0' : 'json1.1';
  }
  // No (or an odd) version, but shaped like a feed: read it with the newest rules.
  return Array.isArray((doc as { items?: unknown }).items) ? 'json1.1' : null;
}
