/** The posts as JSON Feed 1.1 (sub-items stay in RSS; see write-atom.ts). */
import { enclosureUrl, type SiteInput } from './site.ts';
import { postHtml } from './text.ts';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function writePostsJson(site: SiteInput): string {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: site.title,
    home_page_url: site.link,
    ...(site.urls.json ? { feed_url: site.urls.json } : {}),
    description: site.description,
    ...(site.hubs.length > 0 ? { hubs: site.hubs.map((url) => ({ type: 'WebSub', url })) } : {}),
    language: site.language,
    items: site.posts.map((post) => {
      const url = post.enclosure ? enclosureUrl(post.enclosure, site.mediaBase) : null;
      return {
        id: post.guid,
        ...(post.link ? { url: post.link } : {}),
        content_html: postHtml(post.text),
        date_published: iso(post.createdAt),
        date_modified: iso(post.updatedAt),
        ...(post.tags.length > 0 ? { tags: post.tags } : {}),
        ...(post.enclosure && url
          ? { attachments: [{ url, mime_type: post.enclosure.type, size_in_bytes: post.enclosure.length }] }
          : {}),
      };
    }),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}
