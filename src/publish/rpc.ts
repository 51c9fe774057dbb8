/** One XML-RPC call over the one HTTP client, with the headers the reference cloud accepts. */
import type { HttpClient } from '../net/http-client-types.ts';
import {
  decodeMethodResponse,
  encodeMethodCall,
  XMLRPC_REQUEST_HEADERS,
  type XmlRpcValue,
} from '../wire/xmlrpc.ts';

export type CallOutcome = { ok: true; value: XmlRpcValue } | { ok: false; message: string; fault?: boolean };

export async function xmlRpcCall(
  http: HttpClient,
  endpoint: string,
  method: string,
  params: XmlRpcValue[],
  timeoutMs = 15_000,
): Promise<CallOutcome> {
  const res = await http.request({
    method: 'POST',
    url: endpoint,
    headers: { ...XMLRPC_REQUEST_HEADERS },
    body: encodeMethodCall(method, params),
    timeoutMs,
    maxBodyBytes: 256 * 1024,
  });
  if (!res.ok) return { ok: false, message: res.error.message };
  if (res.value.status < 200 || res.value.status >= 300) {
    return { ok: false, message: `${method} answered HTTP ${res.value.status}.` };
  }
  const answer = decodeMethodResponse(res.value.body);
  if (!answer.ok) return { ok: false, message: answer.error.message };
  if (answer.value.kind === 'fault') {
    return {
      ok: false,
      fault: true,
      message: `${answer.value.faultString} (fault ${answer.value.faultCode})`,
    };
  }
  return { ok: true, value: answer.value.value };
}

/**
 * Where a cloud's rssCloud.saveRss answers: the address as given when it names an endpoint
 * (`https://cloud.example/RPC2`), and the cloud's XML-RPC path `/RPC2` under it when it is the
 * cloud's base address (`https://cloud.example`, `https://cloud.example/`, `https://host/cloud/`),
 * as a person copies it from the cloud's home page.
 */
export function saveRssEndpoint(cloudUrl: string): string {
  const url = new URL(cloudUrl);
  if (url.pathname.endsWith('/')) url.pathname += 'RPC2';
  return url.href;
}
