/**
 * When is a feed due again? The ONE place that decides (ARCHITECTURE: "one place that decides when
 * a feed is due"). Pure: the caller passes `now` and, for jitter, `random`.
 *
 * Politeness first, then predictability:
 * - the user's interval is the base;
 * - what the feed declares (ttl, sy:updatePeriod/Frequency) and what the server said (Cache-Control
 *   max-age, Expires) can only make checks rarer: the latest of them wins (as Miniflux does), capped
 *   at 24 h so a silly ttl never silences a feed for weeks;
 * - sy:updateBase aligns checks to the feed's own publishing grid;
 * - errors back off exponentially; Retry-After is obeyed;
 * - while rssCloud notifications are live, polling is only a safety net;
 * - skipHours/skipDays (GMT) push the time out of their windows;
 * - a little forward jitter spreads feeds that share a host.
 */
import type { CacheHints } from '../net/types.ts';
import {
  DAY_NAMES,
  describeSkips,
  isSkippedBy,
  nextHourBoundary,
  skipForward,
  skipRules,
} from './skip-rules.ts';

export { isSkipped } from './skip-rules.ts';

export interface DueInput {
  /** The user's interval, minutes (default 60). */
  intervalMin: number;
  /** The feed's ttl, minutes. */
  ttl: number | null;
  /** GMT hours 0-23. */
  skipHours: number[];
  /** 'Monday' ... 'Sunday'. */
  skipDays: string[];
  sy: { updatePeriod: string | null; updateFrequency: number | null; updateBase: string | null } | null;
  /** From the last fetch's response. */
  cache: CacheHints | null;
  consecutiveErrors: number;
  /** Null when the feed has no rssCloud subscription; `live` while notifications are trusted. */
  realtime: { live: boolean; safetyNetMin: number } | null;
}

export interface Due {
  /** ms since the epoch. */
  at: number;
  /** Short phrase for the UI: "interval 60 min", "ttl 120 min", "skipHours until 06:00 GMT"... */
  reason: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How every safety-net plan's reason starts (see `isSafetyNet`). */
const SAFETY_NET_REASON = 'real-time';

/**
 * The feed's polling was relaxed to the safety net because pushes (rssCloud or WebSub) were
 * expected: its reason says so, and stays in the feed row across restarts.
 */
export function isSafetyNet(reason: string | null): boolean {
  return reason?.startsWith(SAFETY_NET_REASON) ?? false;
}

export const DEFAULT_INTERVAL_MIN = 60;
export const DEFAULT_SAFETY_NET_MIN = 360;
/** Feed and server hints (ttl, sy, max-age, Expires) never push a check further than this. */
export const HINT_CAP_MS = DAY;
/** Exponential back-off stops growing here (unless the user's own interval is longer). */
export const BACKOFF_CAP_MS = DAY;
/** A Retry-After further away than this is taken as a server bug, not a request. */
export const RETRY_AFTER_CAP_MS = 7 * DAY;
/** Nothing is ever due sooner than this after `now`. */
const MIN_DELAY_MS = MINUTE;
const JITTER_FRACTION = 0.05;
const JITTER_MAX_MS = 2 * MINUTE;

const SY_UNITS: Record<string, number> = {
  hourly: HOUR,
  daily: DAY,
  weekly: 7 * DAY,
  monthly: 30 * DAY,
  yearly: 365 * DAY,
};

export function nextDue(input: DueInput, now: number, random: () => number = Math.random): Due {
  const p = periods(input);
  let at = now + p.intervalMs;
  let reason = `interval ${fmtMin(p.intervalMs)}`;
  // Later wins; on a tie the earlier-listed (more ordinary) reason stays unless `orEqual`.
  const later = (t: number, why: string, orEqual = false) => {
    if (t > at || (orEqual && t === at)) {
      at = t;
      reason = why;
    }
  };

  if (p.ttlMs > 0) later(now + p.ttlMs, `ttl ${input.ttl} min` + (p.ttlCapped ? ', capped at 24 h' : ''));

  if (p.sy && p.sy.base !== null) {
    // The feed publishes on a grid: check just after its next slot. If it publishes more often than
    // the user wants to look, take the first slot after the user's interval instead.
    const floor = Math.max(MIN_DELAY_MS, p.ttlMs, p.sy.ms <= p.intervalMs ? p.intervalMs : 0);
    at = nextSlot(p.sy.base, p.sy.ms, now + floor);
    reason = `sy ${p.sy.label} slot ${hhmm(at)} GMT`;
  } else if (p.sy) {
    later(now + p.sy.ms, `sy ${p.sy.label} (${fmtMin(p.sy.ms)}${p.sy.capped ? ', capped at 24 h' : ''})`);
  }

  const cache = input.cache;
  if (cache) {
    const maxAgeAt =
      validNumber(cache.maxAgeSec) && cache.maxAgeSec > 0 ? now + cache.maxAgeSec * 1000 : null;
    const expiresAt = validNumber(cache.expiresAt) ? cache.expiresAt : null;
    const cap = now + HINT_CAP_MS;
    if (maxAgeAt !== null)
      later(
        Math.min(maxAgeAt, cap),
        `max-age ${fmtMin(maxAgeAt - now)}` + (maxAgeAt > cap ? ', capped at 24 h' : ''),
      );
    if (expiresAt !== null)
      later(
        Math.min(expiresAt, cap),
        `Expires ${hhmm(expiresAt)} GMT` + (expiresAt > cap ? ', capped at 24 h' : ''),
      );
  }

  const errors = validNumber(input.consecutiveErrors) ? Math.floor(input.consecutiveErrors) : 0;
  if (errors > 0) {
    const grown = p.steadyMs * 2 ** Math.min(errors - 1, 30);
    const backoff = Math.min(grown, Math.max(BACKOFF_CAP_MS, p.steadyMs));
    later(now + backoff, `back-off after ${errors} error${errors === 1 ? '' : 's'}`, true);
  }

  if (input.realtime?.live) {
    const netMs = minutes(input.realtime.safetyNetMin, DEFAULT_SAFETY_NET_MIN);
    later(now + netMs, `${SAFETY_NET_REASON}; safety net every ${fmtHours(netMs)}`, true);
  }

  const retryAt = input.cache?.retryAfterAt;
  if (validNumber(retryAt)) {
    const capped = retryAt > now + RETRY_AFTER_CAP_MS;
    const until = capped ? now + RETRY_AFTER_CAP_MS : retryAt;
    later(until, `Retry-After until ${hhmm(until)} GMT` + (capped ? ', capped at 7 days' : ''));
  }

  at = Math.ceil(Math.max(at, now + MIN_DELAY_MS));

  const rules = skipRules(input.skipHours, input.skipDays);
  const moved = skipForward(at, rules);
  if (moved.at !== at) {
    const which = [moved.byDays && 'skipDays', moved.byHours && 'skipHours'].filter(Boolean).join(', ');
    const day = moved.byDays || moved.at - at >= DAY ? `${dayName(moved.at)} ` : '';
    at = moved.at;
    reason = `${which} until ${day}${hhmm(at)} GMT`;
  }
  if (rules.ignored.length) reason += `; ${rules.ignored.join('; ')}`;

  // Forward only, so no hard minimum is ever undercut; kept inside the current free hour so it
  // never lands in a skip window that starts at the next hour boundary.
  const r = Math.min(Math.max(random(), 0), 1);
  let jitter = Math.floor(r * Math.min((at - now) * JITTER_FRACTION, JITTER_MAX_MS));
  if (jitter > 0 && isSkippedBy(at + jitter, rules)) jitter = Math.max(0, nextHourBoundary(at) - at - 1);
  return { at: at + jitter, reason };
}

/**
 * The next due time after a fetch the person asked for (Retry now, Refresh) failed. It does not
 * count as one more error (the caller keeps the error count), and the try already `planned`
 * stays where it was: pressing Retry gives the feed a chance, it never pushes the next try out.
 * Only a server asking for later (Retry-After) moves it. No plan ahead: planned as any failure.
 */
export function dueAfterAskedFailure(
  input: DueInput,
  planned: Due | null,
  now: number,
  random: () => number = Math.random,
): Due {
  const retryAt = input.cache?.retryAfterAt;
  const serverWantsLater = validNumber(retryAt) && planned !== null && retryAt > planned.at;
  if (planned === null || planned.at <= now || serverWantsLater) return nextDue(input, now, random);
  return planned;
}

/**
 * The steady rhythm for the feed list, without a clock: "every 60 min", "every 120 min (ttl)",
 * "every 1440 min (sy, at 06:00 GMT)", "real-time; safety net every 6 h", plus skip windows.
 */
export function describeInterval(input: DueInput): string {
  const p = periods(input);
  let text = `every ${fmtMin(p.steadyMs)}`;
  if (p.sy && p.sy.base !== null) {
    // On the grid: the first slot at or after the larger of the user's interval and ttl.
    const gap = Math.max(p.intervalMs, p.ttlMs);
    const ms = gap <= p.sy.ms ? p.sy.ms : Math.ceil(gap / p.sy.ms) * p.sy.ms;
    text = `every ${fmtMin(ms)} (sy, on the ${hhmm(p.sy.base)} GMT grid)`;
  } else if (p.steadyMs > p.intervalMs) {
    text += p.sy && p.steadyMs === p.sy.ms && p.sy.ms > p.ttlMs ? ' (sy)' : ' (ttl)';
  }
  const errors = validNumber(input.consecutiveErrors) ? Math.floor(input.consecutiveErrors) : 0;
  if (input.realtime?.live) {
    const netMs = minutes(input.realtime.safetyNetMin, DEFAULT_SAFETY_NET_MIN);
    if (netMs >= p.steadyMs) text = `${SAFETY_NET_REASON}; safety net every ${fmtHours(netMs)}`;
  }
  if (errors > 0) text += `; backing off after ${errors} error${errors === 1 ? '' : 's'}`;
  const rules = skipRules(input.skipHours, input.skipDays);
  const skips = describeSkips(rules);
  if (skips) text += `; ${skips}`;
  if (rules.ignored.length) text += `; ${rules.ignored.join('; ')}`;
  return text;
}

interface Periods {
  intervalMs: number;
  /** 0 when the feed has no usable ttl. */
  ttlMs: number;
  ttlCapped: boolean;
  sy: { ms: number; capped: boolean; label: string; base: number | null } | null;
  /** The polite period without server hints: max(interval, ttl, sy). */
  steadyMs: number;
}

function periods(input: DueInput): Periods {
  const intervalMs = Math.max(MIN_DELAY_MS, minutes(input.intervalMin, DEFAULT_INTERVAL_MIN));
  const ttlRaw = validNumber(input.ttl) && input.ttl > 0 ? input.ttl * MINUTE : 0;
  const ttlMs = Math.min(ttlRaw, HINT_CAP_MS);
  const sy = syPeriod(input.sy);
  const steadyMs = Math.max(intervalMs, ttlMs, sy ? sy.ms : 0);
  return { intervalMs, ttlMs, ttlCapped: ttlRaw > HINT_CAP_MS, sy, steadyMs };
}

/**
 * The Syndication module: updatePeriod (default daily) divided by updateFrequency (default 1).
 * Needs a period or a frequency: an updateBase alone says nothing about how often. A period longer
 * than the hint cap is capped and then not aligned (a monthly grid would mean weeks of silence).
 */
function syPeriod(sy: DueInput['sy']): Periods['sy'] {
  if (!sy) return null;
  const freqGiven = validNumber(sy.updateFrequency) && sy.updateFrequency > 0;
  const name = sy.updatePeriod?.trim().toLowerCase() || (freqGiven ? 'daily' : '');
  const unit = SY_UNITS[name];
  if (!unit) return null;
  const freq = freqGiven ? sy.updateFrequency! : 1;
  const raw = Math.max(MIN_DELAY_MS, unit / freq);
  const baseParsed = sy.updateBase ? Date.parse(sy.updateBase) : Number.NaN;
  const base = Number.isFinite(baseParsed) && raw <= HINT_CAP_MS ? baseParsed : null;
  const label = freq === 1 ? name : `${name}/${freq}`;
  return { ms: Math.min(raw, HINT_CAP_MS), capped: raw > HINT_CAP_MS, label, base };
}

/** The first instant base + k*period (any integer k) at or after `from`. */
function nextSlot(base: number, period: number, from: number): number {
  return base + Math.ceil((from - base) / period) * period;
}

function minutes(value: number, fallback: number): number {
  return (validNumber(value) && value > 0 ? value : fallback) * MINUTE;
}

function validNumber(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function fmtMin(ms: number): string {
  return `${Math.round(ms / MINUTE)} min`;
}

function fmtHours(ms: number): string {
  return ms % HOUR === 0 ? `${ms / HOUR} h` : fmtMin(ms);
}

function hhmm(t: number): string {
  const d = new Date(t);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

function dayName(t: number): string {
  return DAY_NAMES[new Date(t).getUTCDay()]!;
}
