/**
 * Whom a post pings, after its save succeeded (RSSCLOUD.md "Pinging", "Pings to the wider web"):
 * the cloud in the feed's <cloud> (REST /ping or XML-RPC rssCloud.ping), weblogUpdates.ping /
 * extendedPing (answer struct flerror/message), an HTTP GET ping, and RSS Ping v2 fat pings.
 * Each returns a readable outcome; the outbox decides about retries.
 */
import { createHash } from 'node:crypto';
import type { CloudElement } from '../feed/model.ts';
import { escapeXmlText, xmlAttrs } from '../feed/xml-escape.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { xmlRpcCall } from './rpc.ts';

export interface PingOutcome {
  ok: boolean;
  message: string;
}

const TIMEOUT_MS = 15_000;

/** Where to ping the cloud a <cloud> element names: REST /ping beside its pleaseNotify path, or its RPC2 path. */
export function cloudPingEndpoint(cloud: CloudElement): { url: string; rpc: boolean } {
  const protocol = cloud.protocol.toLowerCase();
  const https = protocol === 'https-post' || cloud.port === 443;
  const host = cloud.domain.includes(':') ? `[${cloud.domain}]` : cloud.domain;
  const port = (https && cloud.port === 443) || (!https && cloud.port === 80) ? '' : `:${cloud.port}`;
  const base = `${https ? 'https' : 'http'}://${host}${port}`;
  if (protocol === 'xml-rpc') return { url: `${base}${cloud.path || '/RPC2'}`, rpc: true };
  // The reference cloud: /pleaseNotify and /ping side by side (a mount prefix is kept).
  const path = cloud.path.replace(/\/[^/]*$/, '') + '/ping';
  return { url: `${base}${path}`, rpc: false };
}

export async function pingCloud(
  http: HttpClient,
  endpoint: { url: string; rpc: boolean },
  feedUrl: string,
): Promise<PingOutcome> {
  if (endpoint.rpc) {
    const r = await xmlRpcCall(http, endpoint.url, 'rssCloud.ping', [feedUrl], TIMEOUT_MS);
    if (!r.ok) return { ok: false, message: r.message };
    return r.value === true
      ? { ok: true, message: 'rssCloud.ping answered true.' }
      : { ok: false, message: `rssCloud.ping answered ${JSON.stringify(r.value)}.` };
  }
  const res = await http.request({
    method: 'POST',
    url: endpoint.url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json, application/xml;q=0.9, text/xml;q=0.8',
    },
    body: new URLSearchParams({ url: feedUrl }).toString(),
    timeoutMs: TIMEOUT_MS,
    maxBodyBytes: 64 * 1024,
  });
  if (!res.ok) return { ok: false, message: res.error.message };
  const text = Buffer.from(res.value.body).toString('utf8');
  const answer = readRestAnswer(text);
  if (res.value.status < 200 || res.value.status >= 300) {
    return { ok: false, message: answer?.msg || `The cloud answered HTTP ${res.value.status}.` };
  }
  if (!answer) return { ok: false, message: `The cloud's answer was not understood: ${text.slice(0, 120)}` };
  return { ok: answer.success, message: answer.msg };
}

/** `{"success":true,"msg":"..."}` or `<result success="true" msg="..."/>`. */
export function readRestAnswer(text: string): { success: boolean; msg: string } | null {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const j = JSON.parse(t) as { success?: unknown; msg?: unknown };
      if (typeof j.success === 'boolean')
        return { success: j.success, msg: typeof j.msg === 'string' ? j.msg : '' };
    } catch {
      return null;
    }
    return null;
  }
  const success = /\bsuccess\s*=\s*["']([^"']*)["']/i.exec(t)?.[1];
  if (success === undefined) return null;
  const msg = /\bmsg\s*=\s*"([^"]*)"|\bmsg\s*=\s*'([^']*)'/i.exec(t);
  return { success: success.toLowerCase() === 'true', msg: decodeXml(msg?.[1] ?? msg?.[2] ?? '') };
}

const decodeXml = (s: string) =>
  s.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e] ?? '',
  );

export interface SiteNames {
  name: string;
  siteUrl: string;
  feedUrl: string;
  tags: string[];
}

/**
 * A WebSub hub's publish door (RSSCLOUD.md "Publish"): `hub.mode=publish&hub.topic=<feed>`.
 * Hubs answer 202/204 (or 200); the hub's status and words are the outcome shown in My posts.
 */
export async function pingHub(http: HttpClient, hub: string, feedUrl: string): Promise<PingOutcome> {
  const res = await http.request({
    method: 'POST',
    url: hub,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.topic': feedUrl }).toString(),
    timeoutMs: TIMEOUT_MS,
    maxBodyBytes: 64 * 1024,
  });
  if (!res.ok) return { ok: false, message: res.error.message };
  const { status } = res.value;
  const text = Buffer.from(res.value.body).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 160);
  return {
    ok: status >= 200 && status < 300,
    message: `The hub answered HTTP ${status}${text ? `: ${text}` : '.'}`,
  };
}

/** weblogUpdates.extendedPing, falling back to weblogUpdates.ping where it is unknown. */
export async function pingWeblogUpdates(
  http: HttpClient,
  endpoint: string,
  site: SiteNames,
): Promise<PingOutcome> {
  const extended = await xmlRpcCall(
    http,
    endpoint,
    'weblogUpdates.extendedPing',
    [site.name, site.siteUrl, site.siteUrl, site.feedUrl, ...(site.tags.length ? [site.tags.join('|')] : [])],
    TIMEOUT_MS,
  );
  const r =
    extended.ok || !extended.fault
      ? extended
      : await xmlRpcCall(http, endpoint, 'weblogUpdates.ping', [site.name, site.siteUrl], TIMEOUT_MS);
  if (!r.ok) return { ok: false, message: r.message };
  const v = r.value as { flerror?: unknown; message?: unknown } | null;
  if (!v || typeof v !== 'object')
    return { ok: false, message: `weblogUpdates answered ${JSON.stringify(r.value)}.` };
  const message = typeof v.message === 'string' ? v.message : '';
  return {
    ok: v.flerror !== true,
    message: message || (v.flerror === true ? 'flerror is true' : 'Thanks for the ping.'),
  };
}

/** `{endpoint}?name=&url=`: 200 means accepted. */
export async function pingHttpGet(http: HttpClient, endpoint: string, site: SiteNames): Promise<PingOutcome> {
  const q = new URLSearchParams({ name: site.name, url: site.feedUrl }).toString();
  const url = `${endpoint}${endpoint.includes('?') ? '&' : '?'}${q}`;
  const res = await http.request({ method: 'GET', url, timeoutMs: TIMEOUT_MS, maxBodyBytes: 64 * 1024 });
  if (!res.ok) return { ok: false, message: res.error.message };
  return res.value.status === 200
    ? { ok: true, message: 'HTTP 200' }
    : { ok: false, message: `The ping answered HTTP ${res.value.status}.` };
}

export const sha1Hex = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

/** The RSS Ping v2 document: names, the feed, the payload's SHA1 and where it is published. */
export function rssPingDocument(site: SiteNames, payload: string, hashUri: string | null): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss_ping version="2">',
    `  <site_name>${escapeXmlText(site.name)}</site_name>`,
    `  <site_uri>${escapeXmlText(site.siteUrl)}</site_uri>`,
    `  <feed_uri type="RSS 2.0">${escapeXmlText(site.feedUrl)}</feed_uri>`,
    `  <payload_hash${xmlAttrs([['type', 'SHA1']])}>${sha1Hex(payload)}</payload_hash>`,
    ...(hashUri ? [`  <payload_hash_uri>${escapeXmlText(hashUri)}</payload_hash_uri>`] : []),
    `  <payload type="RSS 2.0 fragment">${escapeXmlText(payload)}</payload>`,
    '</rss_ping>',
    '',
  ].join('\n');
}

export async function pingRssPing(
  http: HttpClient,
  endpoint: string,
  document: string,
): Promise<PingOutcome> {
  const res = await http.request({
    method: 'POST',
    url: endpoint,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: document,
    timeoutMs: TIMEOUT_MS,
    maxBodyBytes: 64 * 1024,
  });
  if (!res.ok) return { ok: false, message: res.error.message };
  const ok = res.value.status >= 200 && res.value.status < 300;
  return {
    ok,
    message: ok ? `HTTP ${res.value.status}` : `The RSS Ping receiver answered HTTP ${res.value.status}.`,
  };
}
