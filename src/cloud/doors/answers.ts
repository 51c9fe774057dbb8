/**
 * Writing answers in the reference cloud's forms: `<notifyResult success=".." msg=".."/>` and
 * `<result .../>` as XML by default, `{"success":..,"msg":".."}` for Accept: application/json,
 * and XML-RPC methodResponses (a value, or a fault with code 4). HTTP status is 200 for all.
 */

import { escapeXmlAttr } from '../../feed/xml-escape.ts';
import { encodeFault, encodeMethodResponse, type XmlRpcValue } from '../../wire/xmlrpc.ts';
import { FAULT_CODE } from '../core/messages.ts';
import type { Outcome } from '../core/types.ts';

/**
 * JSON only when the caller prefers it over XML, as the reference's `req.accepts('xml', 'json')`:
 * the best match of each by quality, then specificity (exact over type/* over *\/*), then
 * order; XML on a tie or without an Accept header.
 */
export function wantsJson(accept: string | null): boolean {
  if (!accept) return false;
  type Match = [q: number, specificity: number, order: number];
  let xml: Match = [0, -1, 0];
  let json: Match = [0, -1, 0];
  const better = (a: Match, b: Match) =>
    a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] > b[2];
  accept.split(',').forEach((part, i) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (q <= 0) return;
    const t = type.trim();
    const [main, sub = ''] = t.split('/');
    const order = -i;
    const xmlSpec =
      t === '*/*'
        ? 0
        : sub === '*' && (main === 'text' || main === 'application')
          ? 1
          : sub === 'xml' || sub.endsWith('+xml')
            ? 2
            : -1;
    const jsonSpec =
      t === '*/*'
        ? 0
        : sub === '*' && main === 'application'
          ? 1
          : t === 'application/json' || sub.endsWith('+json')
            ? 2
            : -1;
    if (xmlSpec >= 0 && better([q, xmlSpec, order], xml)) xml = [q, xmlSpec, order];
    if (jsonSpec >= 0 && better([q, jsonSpec, order], json)) json = [q, jsonSpec, order];
  });
  return json[1] >= 0 && better(json, xml);
}

export function restAnswer(
  element: 'notifyResult' | 'result',
  outcome: Outcome,
  accept: string | null,
): Response {
  if (wantsJson(accept)) {
    return new Response(JSON.stringify({ success: outcome.success, msg: outcome.msg }), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  const xml = `<?xml version="1.0"?>\n<${element} success="${outcome.success ? 'true' : 'false'}" msg="${escapeXmlAttr(outcome.msg)}"/>`;
  return new Response(xml, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
}

/**
 * An answer naming what a peer sent, or what a feed's server said, is always written: the codec
 * drops from its strings what XML 1.0 cannot hold (escapeXmlText), faults' included.
 */
export function rpcAnswer(value: XmlRpcValue): Response {
  return xmlResponse(encodeMethodResponse(value));
}

export function rpcFault(message: string, code = FAULT_CODE): Response {
  return xmlResponse(encodeFault(code, message));
}

function xmlResponse(xml: string): Response {
  return new Response(xml, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
}

export function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}
