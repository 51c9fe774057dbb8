/**
 * The older ping doors (seed "RSS Feed State"), each one more way into the same "resource
 * changed?" routine as POST /ping (core.ping):
 *
 *   XML-RPC weblogUpdates.ping(name, url)                         answered {flerror, message}
 *   XML-RPC weblogUpdates.extendedPing(name, home, changed, feed[, tags])
 *   GET /pingSiteForm?name=..&url=..                               answered with an HTML page
 *
 * Each is a thin translation into core/site-changes.ts (find the feed when only a site is named,
 * keep the site's name for changes.xml, ping); changes.xml itself is a page (pages/changes.ts).
 */
import { escapeXmlAttr } from '../../feed/xml-escape.ts';
import type { XmlRpcValue } from '../../wire/xmlrpc.ts';
import { type SiteChangeDeps, type SiteSignal, siteChanged } from '../core/site-changes.ts';
import { escapeHtml, htmlResponse, page } from '../pages/html.ts';
import { isHttpUrl } from './params.ts';

/**
 * weblogUpdates.ping(name, url[, ...]) and extendedPing(name, home, changed, feed[, tags]) as a
 * signal, or the reason the parameters do not make one.
 */
export function weblogUpdatesSignal(
  method: 'ping' | 'extendedping',
  params: readonly XmlRpcValue[],
): SiteSignal | { error: string } {
  const text = (i: number) => (typeof params[i] === 'string' ? (params[i] as string).trim() : null);
  const name = text(0);
  const site = text(1);
  if (name === null || !site)
    return { error: `weblogUpdates.${method === 'ping' ? 'ping' : 'extendedPing'} needs a name and a URL.` };
  if (!isHttpUrl(site)) return { error: `The URL "${site}" is not an http or https address.` };
  if (method === 'ping') return { name, siteUrl: site, feedUrl: null };
  const feed = text(3);
  if (feed && !isHttpUrl(feed)) return { error: `The feed URL "${feed}" is not an http or https address.` };
  return { name, siteUrl: site, feedUrl: feed || null };
}

/** The XML-RPC answer weblogs.com gave: `{flerror, message}`. */
export function weblogUpdatesAnswer(outcome: { ok: boolean; message: string }): XmlRpcValue {
  return { flerror: !outcome.ok, message: outcome.ok ? 'Thanks for the ping.' : outcome.message };
}

/** GET /pingSiteForm: without parameters the form; with name and url, the ping and its result. */
export async function pingSiteForm(
  deps: SiteChangeDeps,
  base: string,
  query: URLSearchParams,
): Promise<Response> {
  const name = (query.get('name') ?? '').trim();
  const url = (query.get('url') ?? '').trim();
  const form = `<form method="get" action="${escapeXmlAttr(`${base}/pingSiteForm`)}">
<p><label>Site name <input name="name" value="${escapeXmlAttr(name)}" size="40"></label></p>
<p><label>Site or feed URL <input type="url" name="url" value="${escapeXmlAttr(url)}" size="60" required></label></p>
<p><button type="submit">Ping</button></p></form>`;
  const answer = (status: number, heading: string, text: string) =>
    htmlResponse(
      page(`Tidings cloud: ${heading}`, `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p>${form}`),
      status,
    );
  if (!query.has('url') && !query.has('name'))
    return answer(200, 'Ping a site', 'Tell the cloud your site changed.');
  if (!url || !isHttpUrl(url))
    return answer(400, 'Ping not accepted', 'Give the http or https address of your site or its feed.');
  const outcome = await siteChanged(deps, { name, siteUrl: url, feedUrl: null });
  return outcome.ok
    ? answer(
        200,
        'Thanks for the ping.',
        `${outcome.feedUrl} was read; its subscribers are told when it changed.`,
      )
    : answer(422, 'Ping not accepted', outcome.message);
}
