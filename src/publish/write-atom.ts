/**
 * The posts as Atom 1.0. Atom has no nesting, so the outline's sub-items are left to RSS (readers
 * of the Atom feed see the top item, as the issue allows for readers that do not know rssCloud:item).
 */
import { escapeXmlText, xmlAttrs, xmlElement } from '../feed/xml-escape.ts';
import { enclosureUrl, lastChange, type SiteInput } from './site.ts';
import { postHtml, postTitle } from './text.ts';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function writePostsAtom(site: SiteInput): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed${xmlAttrs([
      ['xmlns', 'http://www.w3.org/2005/Atom'],
      ['xml:lang', site.language],
    ])}>`,
  ];
  const c = '  ';
  out.push(`${c}${xmlElement('title', site.title)}`);
  out.push(`${c}<subtitle>${escapeXmlText(site.description)}</subtitle>`);
  out.push(`${c}${xmlElement('id', site.urls.atom ?? site.link)}`);
  // No posts (all deleted): the epoch, not "now", so the bytes stay a function of the posts.
  out.push(`${c}${xmlElement('updated', iso(lastChange(site.posts)))}`);
  out.push(
    `${c}<link${xmlAttrs([
      ['rel', 'alternate'],
      ['type', 'text/html'],
      ['href', site.link],
    ])}/>`,
  );
  if (site.urls.atom) {
    out.push(
      `${c}<link${xmlAttrs([
        ['rel', 'self'],
        ['type', 'application/atom+xml'],
        ['href', site.urls.atom],
      ])}/>`,
    );
  }
  for (const hub of site.hubs)
    out.push(
      `${c}<link${xmlAttrs([
        ['rel', 'hub'],
        ['href', hub],
      ])}/>`,
    );
  out.push(`${c}<generator>${escapeXmlText(site.generator)}</generator>`);
  // A feed-level author makes every entry valid Atom without repeating it.
  out.push(`${c}<author>${xmlElement('name', site.title)}</author>`);
  for (const post of site.posts) {
    const e = '    ';
    out.push('  <entry>');
    out.push(`${e}${xmlElement('id', atomEntryId(post.guid))}`);
    // atom:entry MUST have a title, and an empty one draws a validator warning on every entry:
    // the post's own words stand in (RSS and JSON Feed, where a title is optional, carry none).
    out.push(`${e}${xmlElement('title', postTitle(post.text))}`);
    out.push(`${e}${xmlElement('published', iso(post.createdAt))}`);
    out.push(`${e}${xmlElement('updated', iso(post.updatedAt))}`);
    out.push(`${e}<content type="html">${escapeXmlText(postHtml(post.text))}</content>`);
    if (post.link)
      out.push(
        `${e}<link${xmlAttrs([
          ['rel', 'alternate'],
          ['href', post.link],
        ])}/>`,
      );
    const url = post.enclosure ? enclosureUrl(post.enclosure, site.mediaBase) : null;
    if (post.enclosure && url) {
      out.push(
        `${e}<link${xmlAttrs([
          ['rel', 'enclosure'],
          ['href', url],
          ['type', post.enclosure.type],
          ['length', post.enclosure.length],
        ])}/>`,
      );
    }
    for (const tag of post.tags) out.push(`${e}<category${xmlAttrs([['term', tag]])}/>`);
    out.push('  </entry>');
  }
  out.push('</feed>', '');
  return out.join('\n');
}

/**
 * An entry's atom:id must be an IRI of a registered scheme. Posts are stored with a
 * `urn:uuid:` guid; those written before were `tidings:<uuid>`, which no scheme registry knows:
 * the same uuid as a `urn:uuid:` (RSS and JSON Feed keep the stored guid, so their readers see no
 * change).
 */
export function atomEntryId(guid: string): string {
  const legacy = /^tidings:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(guid);
  return legacy ? `urn:uuid:${legacy[1]!.toLowerCase()}` : guid;
}
