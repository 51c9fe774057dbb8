/**
 * RSS 2.0 out: the composer's feed and the feeds other rooms' tests serve.
 *
 * Output is a pure function of the input (no clock, no random, fixed element and attribute
 * order), because a cloud decides "changed" by hashing the body: the same content must give the
 * same bytes. Every string goes through xml-escape.ts, so any input stays well-formed.
 */
import type { CloudElement } from './model.ts';
import { escapeXmlText, xmlAttrs, xmlElement } from './xml-escape.ts';

export interface RssChannelInput {
  title: string;
  link: string;
  description: string;
  language?: string | null;
  generator?: string | null;
  /** Milliseconds since the epoch. */
  lastBuildDate?: number | null;
  /** Minutes. */
  ttl?: number | null;
  cloud?: CloudElement | null;
  /** The feed's own public URL: `<atom:link rel="self">`. */
  selfUrl?: string | null;
  /** WebSub hubs: `<atom:link rel="hub">`. */
  hubs?: string[];
  /** `<source:cloud>`: the cloud's pleaseNotify URL, for readers that look there. */
  sourceCloudUrl?: string | null;
  items: RssItemInput[];
}

export interface RssItemInput {
  title?: string | null;
  link?: string | null;
  /** HTML, written escaped (not CDATA). */
  description?: string | null;
  guid: string;
  /** Defaults to true when the guid is an http(s) URL, false otherwise. */
  guidIsPermaLink?: boolean;
  /** Milliseconds since the epoch. */
  pubDate?: number | null;
  enclosure?: { url: string; type: string; length: number } | null;
  categories?: string[];
  comments?: string | null;
}

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const SOURCE_NS = 'http://source.scripting.com/';
const RSS_DOCS = 'https://cyber.harvard.edu/rss/rss.html';

export function writeRss(channel: RssChannelInput): string {
  const hubs = channel.hubs ?? [];
  const useAtom = Boolean(channel.selfUrl) || hubs.length > 0;
  const useSource = Boolean(channel.sourceCloudUrl);
  const ns = xmlAttrs([
    ['version', '2.0'],
    ['xmlns:atom', useAtom ? ATOM_NS : null],
    ['xmlns:source', useSource ? SOURCE_NS : null],
  ]);

  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', `<rss${ns}>`, '  <channel>'];
  const el = (indent: string, name: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) out.push(`${indent}${xmlElement(name, value)}`);
  };
  const c = '    ';
  el(c, 'title', channel.title);
  el(c, 'link', channel.link);
  el(c, 'description', channel.description);
  el(c, 'language', channel.language || null);
  el(c, 'generator', channel.generator || null);
  el(c, 'lastBuildDate', rfc822(channel.lastBuildDate));
  el(c, 'docs', RSS_DOCS);
  el(c, 'ttl', wholeNumber(channel.ttl));
  if (channel.cloud) {
    const cloud = channel.cloud;
    const a = xmlAttrs([
      ['domain', cloud.domain],
      ['port', wholeNumber(cloud.port) ?? '80'],
      ['path', cloud.path],
      ['registerProcedure', cloud.registerProcedure],
      ['protocol', cloud.protocol],
    ]);
    out.push(`${c}<cloud${a}/>`);
  }
  if (channel.selfUrl) {
    const a = xmlAttrs([
      ['href', channel.selfUrl],
      ['rel', 'self'],
      ['type', 'application/rss+xml'],
    ]);
    out.push(`${c}<atom:link${a}/>`);
  }
  for (const hub of hubs) {
    out.push(
      `${c}<atom:link${xmlAttrs([
        ['href', hub],
        ['rel', 'hub'],
      ])}/>`,
    );
  }
  if (channel.sourceCloudUrl) el(c, 'source:cloud', channel.sourceCloudUrl);

  for (const item of channel.items) writeItem(item, out);
  out.push('  </channel>', '</rss>', '');
  return out.join('\n');
}

function writeItem(item: RssItemInput, out: string[]): void {
  const i = '      ';
  const el = (name: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) out.push(`${i}${xmlElement(name, value)}`);
  };
  out.push('    <item>');
  const hasTitle = item.title !== null && item.title !== undefined;
  el('title', item.title);
  el('link', item.link);
  // RSS 2.0 wants a title or a description: an item with neither gets an empty description.
  el('description', item.description ?? (hasTitle ? null : ''));
  el('pubDate', rfc822(item.pubDate));
  const permaLink = item.guidIsPermaLink ?? /^https?:\/\//i.test(item.guid);
  out.push(
    `${i}<guid${xmlAttrs([['isPermaLink', permaLink ? 'true' : 'false']])}>${escapeXmlText(item.guid)}</guid>`,
  );
  if (item.enclosure) {
    const e = item.enclosure;
    const a = xmlAttrs([
      ['url', e.url],
      ['length', wholeNumber(e.length) ?? '0'],
      ['type', e.type],
    ]);
    out.push(`${i}<enclosure${a}/>`);
  }
  for (const category of item.categories ?? []) el('category', category);
  el('comments', item.comments);
  out.push('    </item>');
}

/** RFC 822 as `toUTCString()` writes it ("Tue, 15 Nov 1994 08:12:31 GMT"); null when unusable. */
export function rfc822(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toUTCString();
}

function wholeNumber(n: number | null | undefined): string | null {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return null;
  return String(Math.trunc(n));
}
