/**
 * Reading requests: the REST form bodies and XML-RPC parameter lists of pleaseNotify, ping and
 * saveRss, turned into one shape each, with the reference cloud's messages for what is wrong.
 * Pure functions: no I/O, so every form a peer may send is tested without sockets.
 */
import type { XmlRpcValue } from '../../wire/xmlrpc.ts';
import { messages } from '../core/messages.ts';
import type { NotifyProtocol, PleaseNotifyParams, SaveRssParams } from '../core/types.ts';

/** An absolute http or https URL (a relative one, or any other scheme, is not). */
export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const PROTOCOLS: readonly NotifyProtocol[] = ['http-post', 'https-post', 'xml-rpc'];

/** The callback's host: the named domain, else the caller's address (RSSCLOUD.md "Callback address"). */
export function parseRestPleaseNotify(
  form: URLSearchParams,
  sourceAddress: string,
): Parsed<PleaseNotifyParams> {
  const missing = ['port', 'path', 'protocol'].filter((k) => !form.has(k));
  if (missing.length > 0) return { ok: false, message: messages.missingParams(missing) };
  const protocol = readProtocol(form.get('protocol') ?? '');
  if (!protocol.ok) return protocol;
  const urls: string[] = [];
  for (const [key, value] of form) {
    if (key.toLowerCase().startsWith('url') && value.trim() !== '') urls.push(value.trim());
  }
  const domain = (form.get('domain') ?? '').trim();
  return finish(
    protocol.value,
    form.get('notifyProcedure'),
    form.get('port') ?? '',
    form.get('path') ?? '',
    urls,
    domain,
    sourceAddress,
  );
}

/** rssCloud.pleaseNotify (notifyProcedure, port, path, protocol, urlList [, domain]). */
export function parseRpcPleaseNotify(
  params: readonly XmlRpcValue[],
  sourceAddress: string,
  method = 'pleaseNotify',
): Parsed<PleaseNotifyParams> {
  if (params.length < 5) return { ok: false, message: messages.notEnoughParams(method) };
  if (params.length > 6) return { ok: false, message: messages.tooManyParams(method) };
  const [procedure, port, path, protocolValue, urlList, domain] = params;
  const protocol = readProtocol(scalar(protocolValue));
  if (!protocol.ok) return protocol;
  const list = Array.isArray(urlList) ? urlList : urlList === null || urlList === undefined ? [] : [urlList];
  const urls = list.map((u: XmlRpcValue) => scalar(u).trim()).filter((u: string) => u !== '');
  return finish(
    protocol.value,
    scalar(procedure),
    scalar(port),
    scalar(path),
    urls,
    scalar(domain).trim(),
    sourceAddress,
  );
}

export function parseRestPing(form: URLSearchParams): Parsed<string> {
  const url = form.get('url');
  if (url === null) return { ok: false, message: messages.missingParams(['url']) };
  return { ok: true, value: url.trim() };
}

export function parseRpcPing(params: readonly XmlRpcValue[]): Parsed<string> {
  if (params.length < 1) return { ok: false, message: messages.notEnoughParams('ping') };
  if (params.length > 1) return { ok: false, message: messages.tooManyParams('ping') };
  return { ok: true, value: scalar(params[0]).trim() };
}

export function parseRpcSaveRss(params: readonly XmlRpcValue[]): Parsed<SaveRssParams> {
  if (params.length < 3) return { ok: false, message: messages.notEnoughParams('saveRss') };
  if (params.length > 3) return { ok: false, message: messages.tooManyParams('saveRss') };
  return {
    ok: true,
    value: { username: scalar(params[0]).trim(), password: scalar(params[1]), text: scalar(params[2]) },
  };
}

/**
 * The caller's address: the socket's, or (only when the operator says a proxy is in front) the
 * last X-Forwarded-For entry, the one our proxy appended; entries before it are the client's word.
 */
export function sourceAddressOf(remoteAddress: string, headers: Headers, trustProxy: boolean): string {
  if (trustProxy) {
    const entries = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const last = entries.at(-1);
    if (last) return last;
  }
  return remoteAddress;
}

/** `{scheme}://{host}:{port}{path}`; https for https-post or port 443 (RSSCLOUD.md). */
export function buildCallbackUrl(
  protocol: NotifyProtocol,
  host: string,
  port: string,
  path: string,
): string | null {
  let h = host.trim();
  if (h.toLowerCase().startsWith('::ffff:') && h.includes('.')) h = h.slice(7);
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  const p = port.trim();
  if (!/^\d{1,5}$/.test(p) || Number(p) < 1 || Number(p) > 65535) return null;
  const scheme = protocol === 'https-post' || p === '443' ? 'https' : 'http';
  const rel = path.startsWith('/') ? path : `/${path}`;
  try {
    const url = new URL(`${scheme}://${h}:${p}${rel}`);
    // A "domain" carrying its own path, user or query would smuggle a different target.
    if (url.username || url.password || url.hostname === '') return null;
    return url.href;
  } catch {
    return null;
  }
}

function finish(
  protocol: NotifyProtocol,
  procedure: string | null,
  port: string,
  path: string,
  urls: string[],
  domain: string,
  sourceAddress: string,
): Parsed<PleaseNotifyParams> {
  if (urls.length === 0) return { ok: false, message: messages.noResources };
  const diffDomain = domain !== '';
  const host = diffDomain ? domain : sourceAddress;
  const validHost = /^[A-Za-z0-9.\-:[\]%]+$/.test(host);
  return {
    ok: true,
    value: {
      protocol,
      notifyProcedure: protocol === 'xml-rpc' && procedure ? procedure.trim() : null,
      callbackUrl: validHost ? buildCallbackUrl(protocol, host, port, path) : null,
      diffDomain,
      urls: [...new Set(urls)],
    },
  };
}

function readProtocol(value: string): Parsed<NotifyProtocol> {
  const p = value.trim().toLowerCase();
  const known = PROTOCOLS.find((x) => x === p);
  return known ? { ok: true, value: known } : { ok: false, message: messages.invalidProtocol(value) };
}

/** An XML-RPC scalar as text (ints arrive as numbers, untyped values as strings). */
function scalar(v: XmlRpcValue | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Date) return v.toISOString();
  return '';
}
