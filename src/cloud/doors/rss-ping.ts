/**
 * RSS Ping v2 ("fat ping", seed "RSS Ping"): `POST {base}/rssPing` with an `<rss_ping version="2">`
 * document naming the site, one or more `feed_uri`, and optionally one item as `payload` with its
 * hash (`payload_hash type="SHA1|MD5"`) and where that hash can be checked (`payload_hash_uri`).
 *
 * The payload is checked before anything else: its hash must be the declared one, and what is
 * published at payload_hash_uri must be that hash (or the payload itself, as Tidings' writer
 * publishes it). A payload that does not check out is forged: the whole ping is refused (403) and
 * nothing is read. Otherwise each feed_uri is treated as published: the same routine as /ping
 * (core/site-changes.ts), the feed read once and compared, its subscribers told by their protocol.
 */
import { createHash } from 'node:crypto';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
import { childNamed, readXmlSliced, type XmlNode, type XmlReadProblem } from '../../wire/xml-tree.ts';
import { type SiteChangeDeps, siteChanged } from '../core/site-changes.ts';
import { plain } from './answers.ts';
import { isHttpUrl } from './params.ts';

export interface RssPingDocument {
  siteName: string;
  siteUri: string;
  feedUris: string[];
  payload: string | null;
  payloadHash: string | null;
  hashType: 'sha1' | 'md5';
  payloadHashUri: string | null;
}

/** Feeds one document may name (each is a read). */
export const MAX_FEEDS_PER_PING = 10;
/** A document is a few names and one item: larger ones are refused before they are read (413). */
export const MAX_RSS_PING_BYTES = 256 * 1024;
/** rss_ping > payload > item > ... : deeper than any item needs. */
const MAX_DEPTH = 64;

/**
 * The document read by a real XML parser (src/wire/xml-tree.ts: strict, linear, a slice at a time),
 * or the reason it is not an RSS Ping v2 document.
 */
export async function parseRssPing(xml: string): Promise<RssPingDocument | { error: string }> {
  if (/<!DOCTYPE/i.test(xml)) return { error: 'An RSS Ping document may not contain a DOCTYPE.' };
  const read = await readXmlSliced(xml, { maxDepth: MAX_DEPTH, budgetMs: 1000 });
  if (!read.ok) return { error: `This is not a well-formed RSS Ping document: ${problemText(read.problem)}` };
  const root = read.root;
  if (root?.name !== 'rss_ping')
    return { error: 'This is not an RSS Ping document (no <rss_ping> element).' };
  const version = root.attributes.version;
  if (version !== undefined && version.trim() !== '2')
    return { error: `RSS Ping version ${clip(version)} is not supported (version 2 is).` };
  const texts = (name: string) => root.children.filter((c) => c.name === name).map((c) => c.text.trim());
  const feedUris = [...new Set(texts('feed_uri'))].filter(Boolean);
  if (feedUris.length === 0) return { error: 'The RSS Ping names no feed_uri.' };
  if (feedUris.length > MAX_FEEDS_PER_PING)
    return { error: `The RSS Ping names ${feedUris.length} feeds; at most ${MAX_FEEDS_PER_PING} are read.` };
  for (const u of feedUris)
    if (!isHttpUrl(u)) return { error: `The feed_uri "${clip(u)}" is not an http or https address.` };
  const hashEl = childNamed(root, 'payload_hash');
  const type = (hashEl?.attributes.type ?? 'sha1').trim().toLowerCase();
  if (type !== 'sha1' && type !== 'md5')
    return { error: `The payload hash type ${clip(type)} is not supported (SHA1 or MD5).` };
  const payload = childNamed(root, 'payload');
  const siteUri = texts('site_uri')[0] ?? '';
  return {
    siteName: texts('site_name')[0] ?? '',
    siteUri: isHttpUrl(siteUri) ? siteUri : feedUris[0]!,
    feedUris,
    payload: payload ? payloadText(xml, payload) : null,
    payloadHash: hashEl ? hashEl.text.trim().toLowerCase() : null,
    hashType: type,
    payloadHashUri: texts('payload_hash_uri')[0] || null,
  };
}

function problemText(p: XmlReadProblem): string {
  switch (p.kind) {
    case 'malformed':
      return `${p.detail} (line ${p.line}).`;
    case 'unknownEntity':
      return `it names an unknown entity (line ${p.line}).`;
    case 'tooDeep':
      return `its elements are nested more than ${p.maxDepth} deep.`;
    case 'tooSlow':
      return `it could not be read within ${p.budgetMs} ms.`;
  }
}

const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}...` : s);

/**
 * The payload as its hash was taken: escaped text (Tidings' writer) decoded, one CDATA section's
 * content, or inline markup kept as written.
 */
function payloadText(xml: string, el: XmlNode): string {
  const raw = xml.slice(el.contentFrom, el.contentTo);
  if (el.children.length > 0) return raw;
  const trimmed = raw.trim();
  // One CDATA section (with blank lines around it): its content exactly.
  if (trimmed.startsWith('<![CDATA[') && trimmed.indexOf(']]>') === trimmed.length - 3)
    return trimmed.slice(9, -3);
  return el.text;
}

const digest = (type: 'sha1' | 'md5', data: string | Uint8Array) =>
  createHash(type).update(data).digest('hex');

/** Null when the payload checks out (or there is none); else why it is not trusted. */
export async function checkPayload(http: HttpClient, doc: RssPingDocument): Promise<string | null> {
  if (doc.payload === null) return null;
  const computed = digest(doc.hashType, doc.payload);
  if (doc.payloadHash !== null && doc.payloadHash !== computed)
    return `The payload's ${doc.hashType.toUpperCase()} is ${computed}, not the ${doc.payloadHash} the ping declares.`;
  // Without a place to check it, the payload is not trusted, only ignored: the feeds are read anyway.
  if (doc.payloadHashUri === null) return null;
  if (!isHttpUrl(doc.payloadHashUri))
    return `The payload_hash_uri "${doc.payloadHashUri}" is not an http or https address.`;
  const res = await http.request({
    method: 'GET',
    url: doc.payloadHashUri,
    maxRedirects: 3,
    maxBodyBytes: 1024 * 1024,
  });
  if (!res.ok)
    return `The payload's hash could not be checked at ${maskUrl(doc.payloadHashUri)}: ${res.error.message}`;
  if (res.value.status !== 200)
    return `The payload's hash could not be checked: ${maskUrl(doc.payloadHashUri)} answered HTTP ${res.value.status}.`;
  const published = res.value.body;
  const asText = Buffer.from(published).toString('utf8').trim().toLowerCase();
  if (asText === computed || digest(doc.hashType, published) === computed) return null;
  return `What ${maskUrl(doc.payloadHashUri)} publishes does not match the payload: it is not trusted.`;
}

/** POST /rssPing. */
export async function handleRssPing(deps: SiteChangeDeps, body: Buffer): Promise<Response> {
  const doc = await parseRssPing(body.toString('utf8'));
  if ('error' in doc) {
    deps.log.add({ kind: 'rssPingFailed', detail: doc.error });
    return plain(400, doc.error);
  }
  const forged = await checkPayload(deps.http, doc);
  if (forged) {
    deps.log.add({ kind: 'rssPingFailed', feedUrl: doc.feedUris[0]!, detail: forged });
    return plain(403, forged);
  }
  deps.log.add({
    kind: 'rssPing',
    feedUrl: doc.feedUris[0]!,
    detail: `${doc.feedUris.length} feed(s)${doc.payload !== null ? ', payload checked' : ''}`,
  });
  const outcomes = await Promise.all(
    doc.feedUris.map((feedUrl) => siteChanged(deps, { name: doc.siteName, siteUrl: doc.siteUri, feedUrl })),
  );
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length === outcomes.length) return plain(422, failed.map((f) => f.message).join('\n'));
  return plain(200, 'Thanks for the ping.');
}
