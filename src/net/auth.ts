/**
 * Authorization headers for private feeds: HTTP Basic and Atom WSSE (UsernameToken with a
 * PasswordDigest, as in the Atom API's WSSE profile). Values built here are only ever put on
 * requests to the feed's own origin (see redirects.ts) and never logged.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Credentials } from './types.ts';

export function basicAuthorization(username: string, password: string): string {
  return 'Basic ' + Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

/** base64(sha1(nonce + created + password)) over the RAW nonce bytes, as the WSSE profile says. */
export function wssePasswordDigest(nonce: Uint8Array, created: string, password: string): string {
  return createHash('sha1').update(nonce).update(created, 'utf8').update(password, 'utf8').digest('base64');
}

/** Quotes a value for the X-WSSE header (backslash-escapes quotes and backslashes). */
function quote(value: string): string {
  return '"' + value.replace(/["\\]/g, (c) => '\\' + c) + '"';
}

export function wsseHeaders(
  username: string,
  password: string,
  now: number,
  nonce: Uint8Array = randomBytes(16),
): Record<string, string> {
  const created = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const digest = wssePasswordDigest(nonce, created, password);
  return {
    authorization: 'WSSE profile="UsernameToken"',
    'x-wsse':
      `UsernameToken Username=${quote(username)}, PasswordDigest=${quote(digest)}, ` +
      `Nonce=${quote(Buffer.from(nonce).toString('base64'))}, Created=${quote(created)}`,
  };
}

/** Headers that authenticate one request (WSSE gets a fresh nonce every call). */
export function authHeaders(credentials: Credentials, now: number): Record<string, string> {
  if (credentials.scheme === 'basic') {
    return { authorization: basicAuthorization(credentials.username, credentials.password) };
  }
  return wsseHeaders(credentials.username, credentials.password, now);
}

/** Pulls `user:pass@` out of a URL into Basic credentials, returning the URL without them. */
export function splitUserinfo(url: URL): { url: URL; credentials: Credentials | null } {
  if (!url.username && !url.password) return { url, credentials: null };
  const clean = new URL(url.href);
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  clean.username = '';
  clean.password = '';
  return { url: clean, credentials: { scheme: 'basic', username, password } };
}
