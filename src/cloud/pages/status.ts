/**
 * The operator's pages: a small status page (GET /), the log of recent calls (GET /viewLog, as
 * the reference cloud's, and /viewLog.json), and GET /subscriptions.json in the reference
 * cloud's v2 shape. None of them shows a secret: no password hashes, no account list, no
 * challenges, and callback URLs are masked (a secret-looking query value becomes ***).
 */
import type { CloudElement } from '../../feed/model.ts';
import { escapeXmlAttr } from '../../feed/xml-escape.ts';
import { maskUrl } from '../../net/mask.ts';
import type { CloudLogEntry } from '../core/log.ts';
import type { CloudStore, SubscriptionRow } from '../store/store.ts';
import { escapeHtml, htmlResponse, page } from './html.ts';

export interface StatusInfo {
  store: CloudStore;
  now: number;
  startedAt: number;
  /** Where peers reach the cloud, e.g. https://cloud.example:443/cloud. */
  publicBase: string;
  /** What feeds using this cloud put in their channel. */
  cloudElement: CloudElement;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function statusPage(info: StatusInfo): Promise<Response> {
  const [counts, c] = await Promise.all([info.store.counts(info.now), info.store.counters()]);
  const path = new URL(info.publicBase).pathname.replace(/\/+$/, '');
  const e = info.cloudElement;
  const cloudElement = `<cloud domain="${escapeXmlAttr(e.domain)}" port="${e.port}" path="${escapeXmlAttr(e.path)}" registerProcedure="${escapeXmlAttr(e.registerProcedure)}" protocol="${escapeXmlAttr(e.protocol)}"/>`;
  const rows: [string, string | number][] = [
    ['Up since', new Date(info.startedAt).toISOString()],
    ['Feeds with live subscribers', counts.liveFeeds],
    ['Live subscriptions', counts.liveSubscriptions],
    ['All subscriptions (incl. failing)', counts.allSubscriptions],
    ['Pings', c.pings],
    ['Changes detected', c.changes],
    ['Registrations accepted', c.registrations],
    ['Registrations refused', c.registrationsFailed],
    ['Notifications delivered', c.notifications],
    ['Notifications failed', c.notificationsFailed],
    ['Feeds saved (saveRss)', c.feedsSaved],
  ];
  const table = rows
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(String(v))}</td></tr>`)
    .join('\n');
  const html = page(
    'Tidings cloud',
    `<h1>Tidings cloud</h1>
<p>An rssCloud server and WebSub hub over one list of subscribers. Publishers ping <code>POST ${escapeHtml(path)}/ping</code>
(or publish at the hub, or send weblogUpdates and RSS Ping); readers ask for notifications at
<code>POST ${escapeHtml(path)}/pleaseNotify</code>, over XML-RPC at <code>POST ${escapeHtml(path)}/RPC2</code>, or subscribe
at the hub <code>POST ${escapeHtml(path)}/websub</code>. <a href="${escapeXmlAttr(`${path}/docs`)}">How it works</a>.</p>
<p>For your feed's channel:</p><pre>${escapeHtml(cloudElement)}</pre>
<table>${table}</table>
<p><a href="${escapeXmlAttr(`${path}/viewLog`)}">Recent calls</a> · <a href="${escapeXmlAttr(`${path}/subscriptions.json`)}">subscriptions.json</a> · <a href="${escapeXmlAttr(`${path}/changes.xml`)}">changes.xml</a></p>`,
  );
  return htmlResponse(html);
}

export function logPage(entries: readonly CloudLogEntry[]): Response {
  const rows = entries
    .map(
      (e) =>
        `<tr class="${escapeXmlAttr(e.kind)}"><td>${escapeHtml(new Date(e.at).toISOString().replace('T', ' ').slice(0, 19))}</td>` +
        `<td>${escapeHtml(e.kind)}</td><td>${escapeHtml(e.feedUrl ?? '')}</td><td>${escapeHtml(e.callbackUrl ?? '')}</td>` +
        `<td>${escapeHtml(e.detail ?? '')}</td><td>${e.ms === undefined ? '' : `${(e.ms / 1000).toFixed(3)}s`}</td></tr>`,
    )
    .join('\n');
  return htmlResponse(
    page(
      'Tidings cloud: recent calls',
      `<h1>Recent calls</h1><p>Newest first. <a href="viewLog.json">JSON</a></p>
<table><tr><th>When (UTC)</th><th>What</th><th>Feed</th><th>Subscriber</th><th>Detail</th><th>Took</th></tr>
${rows || '<tr><td colspan="6">Nothing yet.</td></tr>'}</table>`,
    ),
  );
}

export function logJson(entries: readonly CloudLogEntry[]): Response {
  return json({ entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) });
}

/** The reference cloud's /subscriptions.json: `{version: 2, feeds: {url: {resource, subscriptions}}}`. */
export async function subscriptionsJson(store: CloudStore): Promise<Response> {
  const feeds: Record<string, { resource: unknown; subscriptions: unknown[] }> = {};
  const entry = (url: string) => {
    const key = maskUrl(url);
    feeds[key] ??= { resource: null, subscriptions: [] };
    return feeds[key];
  };
  const [resources, subscriptions] = await Promise.all([store.allResources(), store.allSubscriptions()]);
  for (const r of resources) {
    entry(r.url).resource = {
      lastHash: r.lastHash,
      lastSize: r.lastSize,
      ctChecks: r.ctChecks,
      whenLastCheck: iso(r.whenLastCheck),
      ctUpdates: r.ctUpdates,
      whenLastUpdate: iso(r.whenLastUpdate),
    };
  }
  for (const s of subscriptions) entry(s.feedUrl).subscriptions.push(subscriptionJson(s, 'operator'));
  return json({ version: 2, feeds });
}

/**
 * A subscription in the reference cloud's JSON. For the operator's page the callback is masked,
 * a WebSub secret never shown, and `notifyProcedure` always present (false when none, as the
 * reference's v2 file); for the test API (`'test'`) everything as stored, `notifyProcedure` only
 * when there is one (its core model's shape).
 */
export function subscriptionJson(s: SubscriptionRow, audience: 'operator' | 'test') {
  const operator = audience === 'operator';
  return {
    url: operator ? maskUrl(s.callbackUrl) : s.callbackUrl,
    protocol: s.protocol,
    ...(operator ? { notifyProcedure: s.notifyProcedure ?? false } : {}),
    ctUpdates: s.ctUpdates,
    ctErrors: s.ctErrors,
    ctConsecutiveErrors: s.ctConsecutiveErrors,
    whenCreated: iso(s.whenCreated),
    whenLastUpdate: iso(s.whenLastUpdate),
    whenLastError: iso(s.whenLastError),
    whenExpires: iso(s.whenExpires),
    ...(!operator && s.notifyProcedure !== null ? { notifyProcedure: s.notifyProcedure } : {}),
    ...(s.protocol === 'websub'
      ? {
          details: {
            leaseSeconds: s.leaseSeconds,
            ...(operator && s.state === 'pending' ? { pending: true } : {}),
            ...(!operator && s.secret ? { secret: s.secret } : {}),
          },
        }
      : {}),
  };
}

function json(value: unknown): Response {
  return new Response(JSON.stringify(value, null, 2), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
