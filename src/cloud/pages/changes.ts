/**
 * GET /changes.xml: the sites that changed in the last hour, newest first, in weblogs.com's form
 * (at most 1,000), from the names the ping doors keep on each resource.
 */
import { escapeXmlAttr } from '../../feed/xml-escape.ts';
import type { CloudStore } from '../store/store.ts';

const CHANGES_WINDOW_MS = 60 * 60 * 1000;
const MAX_CHANGES = 1000;

/** GET /changes.xml: the resources that changed in the last hour, newest first (weblogs.com's form). */
export async function changesXml(store: CloudStore, now: number): Promise<Response> {
  const rows = await store.recentChanges(now - CHANGES_WINDOW_MS, MAX_CHANGES);
  const lines = rows.map((r) => {
    const when = Math.max(0, Math.round((now - r.whenLastUpdate) / 1000));
    return `\t<weblog name="${escapeXmlAttr(r.siteName ?? r.siteUrl ?? r.url)}" url="${escapeXmlAttr(r.siteUrl ?? r.url)}" rssUrl="${escapeXmlAttr(r.url)}" when="${when}"/>`;
  });
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<weblogUpdates version="2" updated="${new Date(now).toUTCString()}" count="${rows.length}">
${lines.join('\n')}${lines.length ? '\n' : ''}</weblogUpdates>
`;
  return new Response(xml, {
    status: 200,
    headers: { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'max-age=60' },
  });
}
