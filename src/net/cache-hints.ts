/**
 * What a response says about when to come back: Cache-Control max-age, Expires, Retry-After.
 * The scheduler (src/poll/) reads these; here they are only parsed. `now` comes from the
 * client's Clock so Retry-After in seconds becomes an absolute time tests can predict.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CacheHints } from './types.ts';

export function emptyHints(): CacheHints {
  return { maxAgeSec: null, expiresAt: null, retryAfterAt: null };
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** `max-age=N` from Cache-Control (s-maxage is for shared caches, not us); null when absent. */
export function parseMaxAge(cacheControl: string | null): number | null {
  if (!cacheControl) return null;
  for (const directive of cacheControl.split(',')) {
    const [name, value] = directive.trim().split('=', 2);
    if (name?.trim().toLowerCase() !== 'max-age' || value === undefined) continue;
    const n = Number(value.trim().replace(/^"|"$/g, ''));
    if (Number.isFinite(n) && n >= 0) return Math.floor(n);
  }
  return null;
}

/** An HTTP-date as ms since the epoch; null when it is not a date (Expires: 0 and friends). */
export function parseHttpDate(value: string | null): number | null {
  if (!value) return null;
  const text = value.trim();
  // Date.parse alone is far too lenient (it reads "0" as the year 2000): require one of the
  // three HTTP-date shapes (IMF-fixdate, RFC 850, asctime) before handing it over.
  const imfOr850 = /^[A-Za-z]{3,9}, \d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} (GMT|UTC|[+-]\d{4})$/;
  const asctime = /^[A-Za-z]{3} [A-Za-z]{3} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4}$/;
  let t: number;
  if (imfOr850.test(text)) t = Date.parse(text);
  else if (asctime.test(text)) t = Date.parse(`${text} GMT`);
  else return null;
  return Number.isFinite(t) ? t : null;
}

/** Retry-After as seconds (relative to `now`) or an HTTP-date, as ms since the epoch. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return now + Number(text) * 1000;
  return parseHttpDate(text);
}

export interface HintOptions {
  /** max-age and Expires (on ok and notModified results). */
  freshness: boolean;
  /** Retry-After (on 429 and 503). */
  retryAfter: boolean;
}

export function cacheHints(headers: IncomingHttpHeaders, now: number, which: HintOptions): CacheHints {
  return {
    maxAgeSec: which.freshness ? parseMaxAge(headerText(headers['cache-control'])) : null,
    expiresAt: which.freshness ? parseHttpDate(headerText(headers.expires)) : null,
    retryAfterAt: which.retryAfter ? parseRetryAfter(headerText(headers['retry-after']), now) : null,
  };
}
