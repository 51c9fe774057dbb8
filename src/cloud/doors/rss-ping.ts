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
import { decodeEntities } from '../../feed/text.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
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

function elementText(xml: string, name: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${name}(\\s[^>]*)?>([\\s\\S]*?)</${name}\\s*>`, 'g');
  for (const m of xml.matchAll(re)) out.push(textOf(m[2] ?? ''));
  return out;
}

/** Element content as text: CDATA kept as is, entities decoded. */
function textOf(inner: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(inner);
  return cdata ? cdata[1]! : decodeEntities(inner);
}

export function parseRssPing(xml: string): RssPingDocument | { error: string } {
  const root = /<rss_ping(\s[^>]*)?>/.exec(xml);
  if (!root) return { error: 'This is not an RSS Ping document (no <rss_ping> element).' };
  const version = /\bversion\s*=\s*["']([^"']*)["']/.exec(root[1] ?? '')?.[1];
  if (version !== undefined && version.trim() !== '2')
    return { error: `RSS Ping version ${version} is not supported (version 2 is).` };
  const feedUris = [...new Set(elementText(xml, 'feed_uri').map((s) => s.trim()))].filter(Boolean);
  if (feedUris.length === 0) return { error: 'The RSS Ping names no feed_uri.' };
  if (feedUris.length > MAX_FEEDS_PER_PING)
    return { error: `The RSS Ping names ${feedUris.length} feeds; at most ${MAX_FEEDS_PER_PING} are read.` };
  for (const u of feedUris)
    if (!isHttpUrl(u)) return { error: `The feed_uri "${u}" is not an http or https address.` };
  const hashEl = /<payload_hash(\s[^>]*)?>([\s\S]*?)<\/payload_hash\s*>/.exec(xml);
  const type =
    /\btype\s*=\s*["']([^"']*)["']/
      .exec(hashEl?.[1] ?? '')?.[1]
      ?.trim()
      .toLowerCase() ?? 'sha1';
  if (type !== 'sha1' && type !== 'md5')
    return { error: `The payload hash type ${type} is not supported (SHA1 or MD5).` };
  const payload = /<payload(\s[^>]*)?>([\s\S]*?)<\/payload\s*>/.exec(xml);
  const siteUri = elementText(xml, 'site_uri')[0]?.trim() ?? '';
  return {
    siteName: elementText(xml, 'site_name')[0]?.trim() ?? '',
    siteUri: isHttpUrl(siteUri) ? siteUri : feedUris[0]!,
    feedUris,
    payload: payload ? payloadText(payload[2] ?? '') : null,
    payloadHash: hashEl
      ? textOf(hashEl[2] ?? '')
          .trim()
          .toLowerCase()
      : null,
    hashType: type,
    payloadHashUri: elementText(xml, 'payload_hash_uri')[0]?.trim() || null,
  };
}

/** Escaped text (Tidings' writer), CDATA, or inline markup kept as written. */
function payloadText(inner: string): string {
  if (/^\s*<!\[CDATA\[/.test(inner) || !inner.includes('<')) return textOf(inner);
  return inner;
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
  const doc = parseRssPing(body.toString('utf8'));
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
