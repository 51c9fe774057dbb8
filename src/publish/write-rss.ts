/**
 * The posts as RSS 2.0: channel with <cloud>, atom:link self, source:cloud; items title-less (as
 * LifeLiner and micro.blog write them) with guid isPermaLink="false", pubDate, description (the
 * text as HTML, escaped), enclosure, categories and the outline as nested <rssCloud:item>.
 */
import { rfc822 } from '../feed/write-rss.ts';
import { escapeXmlText, xmlAttrs, xmlElement } from '../feed/xml-escape.ts';
import type { PostContent } from './post.ts';
import { enclosureUrl, lastChange, RSSCLOUD_ITEM_NS, type SiteInput } from './site.ts';
import { postHtml } from './text.ts';

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const SOURCE_NS = 'http://source.scripting.com/';
const RSS_DOCS = 'https://www.rssboard.org/rss-specification';
const TTL_MIN = 60;

export function writePostsRss(site: SiteInput): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss${xmlAttrs([
      ['version', '2.0'],
      ['xmlns:atom', ATOM_NS],
      ['xmlns:source', SOURCE_NS],
      ['xmlns:rssCloud', RSSCLOUD_ITEM_NS],
    ])}>`,
    '  <channel>',
  ];
  const c = '    ';
  const built = rfc822(lastChange(site.posts) || null);
  out.push(`${c}${xmlElement('title', site.title)}`);
  out.push(`${c}${xmlElement('link', site.link)}`);
  out.push(`${c}${xmlElement('description', site.description)}`);
  out.push(`${c}${xmlElement('language', site.language)}`);
  if (built) out.push(`${c}${xmlElement('pubDate', built)}`, `${c}${xmlElement('lastBuildDate', built)}`);
  out.push(`${c}${xmlElement('generator', site.generator)}`);
  out.push(`${c}${xmlElement('docs', RSS_DOCS)}`);
  out.push(`${c}${xmlElement('ttl', String(TTL_MIN))}`);
  if (site.cloud) {
    const cl = site.cloud;
    out.push(
      `${c}<cloud${xmlAttrs([
        ['domain', cl.domain],
        ['port', cl.port],
        ['path', cl.path],
        ['registerProcedure', cl.registerProcedure],
        ['protocol', cl.protocol],
      ])}/>`,
    );
  }
  if (site.urls.rss) {
    out.push(
      `${c}<atom:link${xmlAttrs([
        ['href', site.urls.rss],
        ['rel', 'self'],
        ['type', 'application/rss+xml'],
      ])}/>`,
    );
  }
  for (const hub of site.hubs)
    out.push(
      `${c}<atom:link${xmlAttrs([
        ['href', hub],
        ['rel', 'hub'],
      ])}/>`,
    );
  // source:cloud helps readers that look there for the cloud (only REST clouds have such a URL).
  if (site.cloud && /post$/i.test(site.cloud.protocol)) {
    const cl = site.cloud;
    const scheme = cl.protocol.toLowerCase() === 'https-post' || cl.port === 443 ? 'https' : 'http';
    const port =
      (scheme === 'https' && cl.port === 443) || (scheme === 'http' && cl.port === 80) ? '' : `:${cl.port}`;
    const host = cl.domain.includes(':') ? `[${cl.domain}]` : cl.domain;
    out.push(`${c}${xmlElement('source:cloud', `${scheme}://${host}${port}${cl.path}`)}`);
  }
  if (site.blogroll) out.push(`${c}${xmlElement('source:blogroll', site.blogroll)}`);
  for (const post of site.posts) {
    out.push('    <item>');
    writeItemBody(out, '      ', post, site.mediaBase, { guid: post.guid, pubDate: post.createdAt });
    out.push('    </item>');
  }
  out.push('  </channel>', '</rss>', '');
  return out.join('\n');
}

/** One item's elements (also the RSS Ping payload fragment). */
export function writeItemBody(
  out: string[],
  indent: string,
  post: PostContent,
  mediaBase: string | null,
  top: { guid: string; pubDate: number } | null,
): void {
  out.push(`${indent}${xmlElement('description', postHtml(post.text))}`);
  if (post.link) out.push(`${indent}${xmlElement('link', post.link)}`);
  if (top) {
    const date = rfc822(top.pubDate);
    if (date) out.push(`${indent}${xmlElement('pubDate', date)}`);
    out.push(`${indent}<guid isPermaLink="false">${escapeXmlText(top.guid)}</guid>`);
  }
  const url = post.enclosure ? enclosureUrl(post.enclosure, mediaBase) : null;
  if (post.enclosure && url) {
    out.push(
      `${indent}<enclosure${xmlAttrs([
        ['url', url],
        ['length', post.enclosure.length],
        ['type', post.enclosure.type],
      ])}/>`,
    );
  }
  for (const tag of post.tags) out.push(`${indent}${xmlElement('category', tag)}`);
  for (const child of post.children) {
    out.push(`${indent}<rssCloud:item>`);
    writeItemBody(out, `${indent}  `, child, mediaBase, null);
    out.push(`${indent}</rssCloud:item>`);
  }
}

/** One post as an RSS 2.0 <item> fragment (the RSS Ping v2 payload). */
export function itemFragment(
  post: PostContent & { guid: string; createdAt: number },
  mediaBase: string | null,
): string {
  const out = ['<item>'];
  writeItemBody(out, '  ', post, mediaBase, { guid: post.guid, pubDate: post.createdAt });
  out.push('</item>');
  return out.join('\n');
}
