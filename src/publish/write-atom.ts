/**
 * The posts as Atom 1.0. Atom has no nesting, so the outline's sub-items are left to RSS (readers
 * of the Atom feed see the top item, as the issue allows for readers that do not know rssCloud:item).
 */
import { escapeXmlText, xmlAttrs, xmlElement } from '../feed/xml-escape.ts';
import { enclosureUrl, lastChange, type SiteInput } from './site.ts';
import { postHtml } from './text.ts';

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
    out.push(`${e}${xmlElement('id', post.guid)}`);
    // Atom wants a title: an empty one, as title-less posts (micro.blog) write it.
    out.push(`${e}<title type="text"></title>`);
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
