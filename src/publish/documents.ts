/** The documents a site is made of, rendered once per save from the one model. */
import { createHash } from 'node:crypto';
import type { SiteInput } from './site.ts';
import { writePostsAtom } from './write-atom.ts';
import { writeHome } from './write-home.ts';
import { writePostsJson } from './write-json.ts';
import { writePostsRss } from './write-rss.ts';

export interface SiteDocument {
  /** Path under the site's base, e.g. /feed.xml. */
  path: string;
  body: Uint8Array;
  contentType: string;
  etag: string;
}

export const DOC_PATHS = {
  rss: '/feed.xml',
  atom: '/feed.atom',
  json: '/feed.json',
  home: '/index.html',
  blogroll: '/blogroll.opml',
};

export function siteUrls(base: string) {
  const b = base.replace(/\/+$/, '');
  return { rss: b + DOC_PATHS.rss, atom: b + DOC_PATHS.atom, json: b + DOC_PATHS.json, home: `${b}/` };
}

export function renderSite(site: SiteInput, blogrollOpml: string | null): SiteDocument[] {
  const docs: [string, string, string][] = [
    [DOC_PATHS.rss, writePostsRss(site), 'application/rss+xml; charset=utf-8'],
    [DOC_PATHS.atom, writePostsAtom(site), 'application/atom+xml; charset=utf-8'],
    [DOC_PATHS.json, writePostsJson(site), 'application/feed+json; charset=utf-8'],
    [DOC_PATHS.home, writeHome(site), 'text/html; charset=utf-8'],
  ];
  if (blogrollOpml) docs.push([DOC_PATHS.blogroll, blogrollOpml, 'text/x-opml; charset=utf-8']);
  return docs.map(([path, text, contentType]) => siteDocument(path, text, contentType));
}

export function siteDocument(path: string, text: string, contentType: string): SiteDocument {
  const body = Buffer.from(text, 'utf8');
  return { path, body, contentType, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}
