/**
 * URLs as they may appear in messages, logs and the UI: a userinfo password and the values of
 * query (and fragment) parameters that look secret become '***'. Every error message that mentions
 * a URL goes through `maskUrl` first (common/errors.ts: nothing there may carry a credential).
 */

const SECRET_KEYS = new Set([
  'token',
  'key',
  'apikey',
  'api_key',
  'api-key',
  'password',
  'passwd',
  'pwd',
  'pass',
  'secret',
  'sig',
  'signature',
  'auth',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'session',
  'sessionid',
]);

/** `client_secret`, `private-token`, `x.api_key`... but not `monkey` or `passage`. */
const SECRET_SUFFIX = /[_.-](token|key|secret|password|passwd|pass|sig|signature|auth)$/;

export const MASK = '***';

export function isSecretParam(name: string): boolean {
  const key = name.toLowerCase();
  return SECRET_KEYS.has(key) || SECRET_SUFFIX.test(key);
}

/** Masks secret values in an `a=1&b=2` string, keeping everything else byte for byte. */
function maskParams(params: string): string {
  return params
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawKey = eq === -1 ? part : part.slice(0, eq);
      if (eq === -1 || part.length === eq + 1) return part;
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw key.
      }
      return isSecretParam(key) ? `${rawKey}=${MASK}` : part;
    })
    .join('&');
}

/** The URL with secrets hidden. Never throws; strings that are not URLs are masked by pattern. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return maskByPattern(url);
  }
  if (parsed.password) parsed.password = MASK;
  let out = parsed.href;
  // Rebuild query and fragment by hand: URLSearchParams would re-encode every other parameter.
  const hashAt = out.indexOf('#');
  let hash = '';
  if (hashAt !== -1) {
    hash = out.slice(hashAt + 1);
    out = out.slice(0, hashAt);
  }
  const queryAt = out.indexOf('?');
  if (queryAt !== -1) out = out.slice(0, queryAt + 1) + maskParams(out.slice(queryAt + 1));
  if (hashAt !== -1) out += '#' + (hash.includes('=') ? maskParams(hash) : hash);
  return out;
}

function maskByPattern(text: string): string {
  return (
    text
      .replace(/(\/\/[^/:@\s]*:)[^@/\s]*@/g, `$1${MASK}@`)
      // A key stops at the next separator: `[^=&#\s]+` ran from every `;` to the end of a string of
      // them (quadratic: 20,000 took 1.7 s, and a megabyte of them reached this through a ping).
      .replace(/([?&#;])([^=&#;?\s]+)=([^&#\s]*)/g, (whole, sep: string, key: string) =>
        isSecretParam(key) ? `${sep}${key}=${MASK}` : whole,
      )
  );
}
