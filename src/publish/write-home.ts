/**
 * A small HTML home page of the posts, with <link rel="alternate"> tags for RSS, Atom and JSON
 * Feed, so a reader given the site's address finds the feed (autodiscovery).
 */
import type { PostContent } from './post.ts';
import { enclosureUrl, type SiteInput } from './site.ts';
import { postHtml } from './text.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function writeHome(site: SiteInput): string {
  const alt = (type: string, href: string | null, title: string) =>
    href ? `<link rel="alternate" type="${type}" title="${esc(title)}" href="${esc(href)}">` : '';
  const posts = site.posts
    .map((p) => {
      const url = p.enclosure ? enclosureUrl(p.enclosure, site.mediaBase) : null;
      const when = new Date(p.createdAt).toISOString();
      return [
        `<article id="${esc(p.guid)}">`,
        `<p>${postHtml(p.text)}</p>`,
        p.link ? `<p><a href="${esc(p.link)}">${esc(p.link)}</a></p>` : '',
        url ? `<p>${media(url, p.enclosure?.type ?? '')}</p>` : '',
        p.tags.length ? `<p class="tags">${p.tags.map(esc).join(' · ')}</p>` : '',
        outline(p.children, site.mediaBase),
        `<footer><time datetime="${when}">${when.replace('T', ' ').slice(0, 16)} UTC</time></footer>`,
        '</article>',
      ].join('');
    })
    .join('\n');
  return `<!doctype html>
<html lang="${esc(site.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(site.title)}</title>
${alt('application/rss+xml', site.urls.rss, `${site.title} (RSS)`)}
${alt('application/atom+xml', site.urls.atom, `${site.title} (Atom)`)}
${alt('application/feed+json', site.urls.json, `${site.title} (JSON Feed)`)}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ddd;padding:.5rem 0}footer,.tags{color:#555;font-size:.85rem}</style>
</head>
<body>
<h1>${esc(site.title)}</h1>
<p>${esc(site.description)}</p>
${subscribe(site)}
${posts}
</body>
</html>
`;
}

/** Sub-items as nested lists (the outline the RSS carries as rssCloud:item). */
function outline(children: readonly PostContent[], mediaBase: string | null): string {
  if (children.length === 0) return '';
  const items = children.map((c) => {
    const url = c.enclosure ? enclosureUrl(c.enclosure, mediaBase) : null;
    const link = c.link ? ` <a href="${esc(c.link)}">(link)</a>` : '';
    const media = url ? ` <a href="${esc(url)}">(${esc(c.enclosure?.type ?? 'file')})</a>` : '';
    return `<li>${postHtml(c.text)}${link}${media}${outline(c.children, mediaBase)}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

/** Visible links to the feeds, for people (readers use the <link> tags). */
function subscribe(site: SiteInput): string {
  const links = (
    [
      ['RSS', site.urls.rss],
      ['Atom', site.urls.atom],
      ['JSON Feed', site.urls.json],
      ['Blogroll', site.blogroll],
    ] as const
  )
    .filter(([, url]) => url)
    .map(([name, url]) => `<a href="${esc(url!)}">${name}</a>`);
  return links.length ? `<p class="tags">Subscribe: ${links.join(' · ')}</p>` : '';
}

/** The enclosure shown as what it is: a picture, a player, or a link. */
function media(url: string, type: string): string {
  const u = esc(url);
  if (type.startsWith('image/')) return `<img src="${u}" alt="" loading="lazy" style="max-width:100%">`;
  if (type.startsWith('audio/')) return `<audio controls preload="none" src="${u}"></audio>`;
  if (type.startsWith('video/'))
    return `<video controls preload="none" src="${u}" style="max-width:100%"></video>`;
  return `<a href="${u}">${esc(type || 'file')}</a>`;
}
