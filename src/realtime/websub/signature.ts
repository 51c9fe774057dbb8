/**
 * X-Hub-Signature (WebSub §8): `{sha1|sha256|sha384|sha512}={hex HMAC of the body}` keyed with
 * the hub.secret we gave. Compared in constant time; any other method, a malformed value or a
 * missing header is "bad" (the caller answers 2xx and ignores the body, as the spec says).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = { ok: true; method: string } | { ok: false; why: string };

const METHODS = new Set(['sha1', 'sha256', 'sha384', 'sha512']);

export function checkSignature(header: string | null, secret: string, body: Uint8Array): SignatureCheck {
  if (header === null || header.trim() === '') return { ok: false, why: 'no X-Hub-Signature' };
  const m = /^\s*([A-Za-z0-9]+)=([0-9A-Fa-f]+)\s*$/.exec(header);
  if (!m) return { ok: false, why: 'a malformed X-Hub-Signature' };
  const method = m[1]!.toLowerCase();
  if (!METHODS.has(method)) return { ok: false, why: `an unknown signature method "${method}"` };
  const expected = createHmac(method, secret).update(body).digest();
  const given = Buffer.from(m[2]!, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, why: `a ${method} signature that does not match` };
  }
  return { ok: true, method };
}

/** What a hub sends (tests and our own hub's double). */
export function signBody(
  method: 'sha1' | 'sha256' | 'sha384' | 'sha512',
  secret: string,
  body: Uint8Array | string,
): string {
  return `${method}=${createHmac(method, secret).update(body).digest('hex')}`;
}
