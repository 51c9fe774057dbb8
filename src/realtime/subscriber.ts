/**
 * The pleaseNotify client (RSSCLOUD.md "Asking for notifications"): one request to the cloud a
 * feed's <cloud> element names, in the protocol it names, asking to be called back at our
 * receiver. It never throws: every outcome is { ok, message } with the cloud's own words kept
 * for the activity log and the feed's status line.
 *
 * - http-post / https-post: a form POST in the order the texts give (notifyProcedure, port,
 *   path, protocol, url1, domain); the answer is XML <notifyResult success msg/> or, from the
 *   reference cloud when JSON is preferred, {"success":..,"msg":".."}. Both are read.
 * - xml-rpc: registerProcedure(notifyProcedure, port, path, protocol, [url], domain) through the
 *   one codec; the answer is boolean true or a fault.
 * - soap (or anything else): no live cloud speaks it, so nothing is sent.
 */
import { XMLParser } from 'fast-xml-parser';
import type { CloudElement } from '../feed/model.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { maskUrl } from '../net/mask.ts';
import {
  decodeMethodResponse,
  encodeMethodCall,
  XMLRPC_REQUEST_HEADERS,
  xmlRpcTyped,
} from '../wire/xmlrpc.ts';

export interface Callback {
  scheme: 'http' | 'https';
  /** The host name clouds call back (sent as `domain`); null sends none (the cloud uses our address). */
  host: string | null;
  port: number;
  /** Our receiver's path, starting with '/'. */
  path: string;
}

export interface NotifyRequestResult {
  ok: boolean;
  /** The cloud's message, or ours when it could not be asked or read. */
  message: string;
  latencyMs: number;
  /** The protocol the request was made in (the element's, lower-cased). */
  protocol: string;
  /** Where the request went (masked), '' when none was sent. */
  endpoint: string;
  /** The procedure called: pleaseNotify (REST) or the registerProcedure. */
  procedure: string;
  /** True when no request can ever succeed with this element (soap, unknown protocol, no address). */
  unsupported: boolean;
}

export interface RequestOptions {
  /** What XML-RPC clouds should call us with (our receiver's notifyProcedure). */
  notifyProcedure: string;
  /** Default 30 s: the cloud verifies us (through the tunnel) before it answers. */
  timeoutMs?: number;
  /** Aborts the request (app shutdown). */
  signal?: AbortSignal;
}

export const SOAP_MESSAGE = 'The cloud speaks SOAP, which no live cloud implements: polling instead.';
const ANSWER_CAP_BYTES = 64 * 1024;
// XML first: every cloud speaks it. JSON is read too when a cloud prefers it.
const ACCEPT = 'text/xml, application/xml, application/json;q=0.9, */*;q=0.5';

/** The scheme, endpoint and protocol a <cloud> element means, or why it cannot be used. */
export function cloudEndpoint(
  cloud: CloudElement,
):
  | { ok: true; url: string; protocol: 'http-post' | 'https-post' | 'xml-rpc' }
  | { ok: false; message: string } {
  const protocol = cloud.protocol.trim().toLowerCase();
  if (protocol === 'soap') return { ok: false, message: SOAP_MESSAGE };
  if (protocol !== 'http-post' && protocol !== 'https-post' && protocol !== 'xml-rpc') {
    return {
      ok: false,
      message: `The cloud asks for the protocol "${cloud.protocol}", which rssCloud does not define: polling instead.`,
    };
  }
  const port = Number(cloud.port);
  const scheme = protocol === 'https-post' || port === 443 ? 'https' : 'http';
  const path = cloud.path.startsWith('/') ? cloud.path : `/${cloud.path}`;
  const host = cloud.domain.trim();
  try {
    if (!host || !Number.isInteger(port) || port < 1 || port > 65535) throw new Error('bad');
    const url = new URL(
      `${scheme}://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${path}`,
    );
    return { ok: true, url: url.href, protocol };
  } catch {
    return {
      ok: false,
      message: `The feed's <cloud> element (domain "${cloud.domain}", port "${cloud.port}") is not an address: polling instead.`,
    };
  }
}

/** How we want to be called back: https needs https-post (the reference cloud dials http otherwise). */
export function callbackProtocol(
  cloudProtocol: string,
  callback: Callback,
): 'http-post' | 'https-post' | 'xml-rpc' {
  if (callback.scheme === 'https') return 'https-post';
  return cloudProtocol === 'xml-rpc' ? 'xml-rpc' : 'http-post';
}

export async function requestNotification(
  http: HttpClient,
  cloud: CloudElement,
  feedUrl: string,
  callback: Callback,
  opts: RequestOptions,
): Promise<NotifyRequestResult> {
  const endpoint = cloudEndpoint(cloud);
  const base = { protocol: cloud.protocol.trim().toLowerCase(), latencyMs: 0 };
  if (!endpoint.ok) {
    return { ...base, ok: false, message: endpoint.message, endpoint: '', procedure: '', unsupported: true };
  }
  const wanted = callbackProtocol(endpoint.protocol, callback);
  const notifyProcedure = wanted === 'xml-rpc' ? opts.notifyProcedure : '';
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const where = maskUrl(endpoint.url);

  if (endpoint.protocol === 'xml-rpc') {
    const procedure = cloud.registerProcedure.trim() || 'rssCloud.pleaseNotify';
    let body: string;
    try {
      const params = [
        notifyProcedure,
        xmlRpcTyped('i4', callback.port),
        callback.path,
        wanted,
        [feedUrl],
        ...(callback.host ? [callback.host] : []),
      ];
      body = encodeMethodCall(procedure, params);
    } catch (e) {
      const message = `The cloud's registerProcedure "${procedure}" cannot be called: ${(e as Error).message}`;
      return { ...base, ok: false, message, endpoint: where, procedure, unsupported: true };
    }
    const res = await http.request({
      method: 'POST',
      url: endpoint.url,
      body,
      headers: { ...XMLRPC_REQUEST_HEADERS },
      timeoutMs: opts.timeoutMs ?? 30_000,
      maxBodyBytes: ANSWER_CAP_BYTES,
      signal: opts.signal,
    });
    const result = { ...base, endpoint: where, procedure, unsupported: false };
    if (!res.ok) return { ...result, ok: false, message: res.error.message, latencyMs: elapsed() };
    if (res.value.status < 200 || res.value.status > 299) {
      return {
        ...result,
        ok: false,
        message: `The cloud answered HTTP ${res.value.status}.`,
        latencyMs: elapsed(),
      };
    }
    const answer = decodeMethodResponse(res.value.body, { maxBytes: ANSWER_CAP_BYTES });
    if (!answer.ok) {
      return {
        ...result,
        ok: false,
        message: `The cloud's answer could not be read: ${answer.error.message}`,
        latencyMs: elapsed(),
      };
    }
    const v = answer.value;
    if (v.kind === 'fault')
      return {
        ...result,
        ok: false,
        message: v.faultString || `Fault ${v.faultCode}.`,
        latencyMs: elapsed(),
      };
    const accepted = v.value === true;
    return {
      ...result,
      ok: accepted,
      message: accepted
        ? 'The cloud accepted the request.'
        : `The cloud answered ${JSON.stringify(v.value)}, not true.`,
      latencyMs: elapsed(),
    };
  }

  const form = new URLSearchParams();
  form.append('notifyProcedure', notifyProcedure);
  form.append('port', String(callback.port));
  form.append('path', callback.path);
  form.append('protocol', wanted);
  form.append('url1', feedUrl);
  if (callback.host) form.append('domain', callback.host);
  const res = await http.request({
    method: 'POST',
    url: endpoint.url,
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: ACCEPT },
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxBodyBytes: ANSWER_CAP_BYTES,
    signal: opts.signal,
  });
  const result = { ...base, endpoint: where, procedure: 'pleaseNotify', unsupported: false };
  if (!res.ok) return { ...result, ok: false, message: res.error.message, latencyMs: elapsed() };
  const text = new TextDecoder().decode(res.value.body);
  const answer = parseRestAnswer(text);
  if (res.value.status < 200 || res.value.status > 299) {
    const detail = answer ? `: ${answer.msg}` : '.';
    return {
      ...result,
      ok: false,
      message: `The cloud answered HTTP ${res.value.status}${detail}`,
      latencyMs: elapsed(),
    };
  }
  if (!answer) {
    return {
      ...result,
      ok: false,
      message: `The cloud's answer could not be read: "${clip(text.trim())}".`,
      latencyMs: elapsed(),
    };
  }
  const message =
    answer.msg || (answer.success ? 'The cloud accepted the request.' : 'The cloud refused the request.');
  return { ...result, ok: answer.success, message, latencyMs: elapsed() };
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
});

/** `<notifyResult success="true" msg="..."/>` (any element with those attributes) or JSON. */
export function parseRestAnswer(text: string): { success: boolean; msg: string } | null {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('{')) {
    try {
      const v = JSON.parse(trimmed) as { success?: unknown; msg?: unknown };
      if (typeof v !== 'object' || v === null || !('success' in v)) return null;
      return { success: truthy(v.success), msg: typeof v.msg === 'string' ? v.msg : '' };
    } catch {
      return null;
    }
  }
  if (!trimmed.startsWith('<') || /<!DOCTYPE|<!ENTITY/i.test(trimmed)) return null;
  try {
    const doc = xmlParser.parse(trimmed) as Record<string, unknown>;
    const root = (doc.notifyResult ?? doc.result ?? Object.values(doc)[0]) as
      | Record<string, unknown>
      | undefined;
    if (!root || typeof root !== 'object' || !('success' in root)) return null;
    return { success: truthy(root.success), msg: typeof root.msg === 'string' ? root.msg : '' };
  } catch {
    return null;
  }
}

function truthy(v: unknown): boolean {
  return v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
