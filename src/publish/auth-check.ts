/**
 * The server side of private feeds: HTTP Basic, and WSSE UsernameToken (the Atom/Data Feeds
 * profile: PasswordDigest = base64(sha1(nonce + created + password))) with a window on Created
 * and a memory of nonces seen in that window, so a captured header cannot be replayed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export interface Login {
  scheme: 'basic' | 'wsse';
  username: string;
  password: string;
}

export type AuthVerdict = { ok: true } | { ok: false; reason: string };

/** How far Created may be from our clock (either way). */
export const WSSE_WINDOW_MS = 5 * 60 * 1000;

export class NonceMemory {
  private seen = new Map<string, number>();
  /** True the first time a nonce is seen within the window; false for a replay. */
  remember(nonce: string, now: number): boolean {
    for (const [n, at] of this.seen) if (at < now - 2 * WSSE_WINDOW_MS) this.seen.delete(n);
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, now);
    return true;
  }
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

export function checkAuth(headers: Headers, login: Login, now: number, nonces: NonceMemory): AuthVerdict {
  if (login.scheme === 'basic') {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headers.get('authorization') ?? '');
    if (!m) return { ok: false, reason: 'A login is needed.' };
    const text = Buffer.from(m[1]!, 'base64').toString('utf8');
    const i = text.indexOf(':');
    const okUser = i >= 0 && same(text.slice(0, i), login.username);
    const okPass = i >= 0 && same(text.slice(i + 1), login.password);
    return okUser && okPass ? { ok: true } : { ok: false, reason: 'Wrong user name or password.' };
  }
  const token = parseWsse(headers.get('x-wsse') ?? '');
  if (!token) return { ok: false, reason: 'A WSSE UsernameToken is needed.' };
  const created = Date.parse(token.Created ?? '');
  if (!Number.isFinite(created) || Math.abs(now - created) > WSSE_WINDOW_MS) {
    return { ok: false, reason: 'The WSSE token is stale (Created is outside the allowed window).' };
  }
  const nonce = Buffer.from(token.Nonce ?? '', 'base64');
  const expected = createHash('sha1')
    .update(nonce)
    .update(token.Created ?? '', 'utf8')
    .update(login.password, 'utf8')
    .digest('base64');
  if (!same(token.Username ?? '', login.username) || !same(token.PasswordDigest ?? '', expected)) {
    return { ok: false, reason: 'Wrong user name or password.' };
  }
  // Only a valid token burns its nonce (an attacker cannot pre-burn ours with garbage).
  if (!nonces.remember(token.Nonce ?? '', now))
    return { ok: false, reason: 'The WSSE nonce was already used.' };
  return { ok: true };
}

/** `UsernameToken Username="..", PasswordDigest="..", Nonce="..", Created=".."` (quotes may be escaped). */
export function parseWsse(header: string): Record<string, string> | null {
  const m = /^\s*UsernameToken\s+(.*)$/i.exec(header);
  if (!m) return null;
  const out: Record<string, string> = {};
  const re = /(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"/g;
  for (const p of m[1]!.matchAll(re)) out[p[1]!] = p[2]!.replace(/\\(.)/g, '$1');
  return out.Username !== undefined && out.PasswordDigest !== undefined && out.Nonce !== undefined
    ? out
    : null;
}

export function challengeHeader(login: Login): string {
  return login.scheme === 'basic'
    ? 'Basic realm="Tidings feed", charset="UTF-8"'
    : 'WSSE realm="Tidings feed", profile="UsernameToken"';
}
