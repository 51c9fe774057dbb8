/**
 * Small pieces of reading a request that every door of the cloud shares: the form fields (body
 * first, then the query), and the body within a size cap. Where the cloud is mounted is routes.ts's.
 */

import { stripInvalidXmlChars } from '../../feed/xml-escape.ts';

/** Body text parsed between two yields to the event loop (cut at a `&`). */
const FORM_SLICE_CHARS = 32 * 1024;

/**
 * REST fields from the body, with query parameters filling in what the body lacks (some clients
 * use either). Characters XML 1.0 cannot hold are dropped from every value: nothing a peer sends
 * can make a page or an answer of ours unreadable (a site name with U+0001 in changes.xml).
 * Linear in the body and the query (a megabyte of fields against a query of thousands), and read
 * a slice at a time, giving the event loop back between slices: a megabyte of fields from one
 * caller holds up no other.
 */
export async function formOf(req: Request, body: Buffer): Promise<URLSearchParams> {
  const text = body.toString('utf8');
  const form = new URLSearchParams();
  const named = new Set<string>();
  for (let at = 0; at < text.length; ) {
    let end = at + FORM_SLICE_CHARS;
    if (end < text.length) {
      const amp = text.indexOf('&', end);
      end = amp === -1 ? text.length : amp;
    } else end = text.length;
    // URLSearchParams on each slice decodes exactly as on the whole (a slice ends at a `&`).
    for (const [k, v] of new URLSearchParams(text.slice(at, end))) {
      form.append(k, stripInvalidXmlChars(v));
      named.add(k);
    }
    at = end + 1;
    if (at < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  for (const [k, v] of new URL(req.url).searchParams)
    if (!named.has(k)) form.append(k, stripInvalidXmlChars(v));
  return form;
}

/** The query's parameters, values without characters XML 1.0 cannot hold (as formOf). */
export function queryOf(url: URL): URLSearchParams {
  const query = new URLSearchParams();
  for (const [k, v] of url.searchParams) query.append(k, stripInvalidXmlChars(v));
  return query;
}

/** The body, or null when it is larger than `max` bytes. */
export async function readBody(req: Request, max: number): Promise<Buffer | null> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) return null;
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
