/**
 * Writing answers in the reference cloud's forms: `<notifyResult success=".." msg=".."/>` and
 * `<result .../>` as XML by default, `{"success":..,"msg":".."}` for Accept: application/json,
 * and XML-RPC methodResponses (a value, or a fault with code 4). HTTP status is 200 for all.
 */
import { encodeFault, encodeMethodResponse, type XmlRpcValue } from '../xmlrpc.ts';
import { FAULT_CODE } from './messages.ts';

export interface Outcome {
  success: boolean;
  msg: string;
}

/** JSON only when the caller prefers it over XML (the reference's `req.accepts('xml', 'json')`). */
export function wantsJson(accept: string | null): boolean {
  if (!accept) return false;
  let xml = -1;
  let json = -1;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    const t = type.trim();
    if (t === 'application/json' || t.endsWith('+json')) json = Math.max(json, q);
    else if (t === 'text/xml' || t === 'application/xml' || t.endsWith('+xml')) xml = Math.max(xml, q);
    else if (t === '*/*' || t === 'application/*' || t === 'text/*') xml = Math.max(xml, q);
  }
  return json > 0 && json > xml;
}

export function restAnswer(element: 'notifyResult' | 'result', outcome: Outcome, accept: string | null): Response {
  if (wantsJson(accept)) {
    return new Response(JSON.stringify({ success: outcome.success, msg: outcome.msg }), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  const xml = `<?xml version="1.0"?>\n<${element} success="${outcome.success ? 'true' : 'false'}" msg="${escapeAttr(outcome.msg)}"/>`;
  return new Response(xml, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
}

export function rpcAnswer(value: XmlRpcValue): Response {
  return xmlResponse(encodeMethodResponse(value));
}

export function rpcFault(message: string, code = FAULT_CODE): Response {
  return xmlResponse(encodeFault(code, message));
}

function xmlResponse(xml: string): Response {
  return new Response(xml, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
}

export function escapeAttr(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}
