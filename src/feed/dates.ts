/**
 * Feed dates to ISO 8601 UTC. Two grammars cover what is seen in the wild: ISO 8601 / W3C-DTF
 * (Atom, dc:date, JSON Feed) and RFC 822 with its many liberties (RSS). Anything else is null:
 * an unreadable date must never become "now", or a stale item would jump to the top of the river.
 */

const ISO =
  /^(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?)?)?)?$/i;

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** Offsets in minutes for named zones (RFC 822's, and the common ones feeds use anyway). */
const ZONES: Readonly<Record<string, number>> = {
  UT: 0,
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  BST: 60,
  IST: 60,
  CET: 60,
  MET: 60,
  CEST: 120,
  MEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  AST: -240,
  ADT: -180,
  NZST: 720,
  NZDT: 780,
  AEST: 600,
  AEDT: 660,
  ACST: 570,
  AWST: 480,
  JST: 540,
  KST: 540,
  HKT: 480,
  SGT: 480,
  WIB: 420,
};

const DAY_NAME = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$/i;
const TIME = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,]\d+)?)?$/;
const NUMERIC_ZONE = /^([+-])?(\d{1,2}):?(\d{2})?$/;

/** ISO 8601 UTC (`Date#toISOString`) for a feed date, or null when it cannot be read. */
export function parseDate(input: string | null | undefined): string | null {
  if (!input) return null;
  const s = input.trim();
  if (s === '') return null;
  const c = s.charCodeAt(0);
  if (c >= 48 && c <= 57 && s.length >= 4 && isDigit(s, 1) && isDigit(s, 2) && isDigit(s, 3)) {
    const iso = ISO.exec(s);
    if (iso) return fromIso(iso);
  }
  const rfc = RFC822.exec(s);
  if (rfc) {
    const [, d, mon, y, h, mi, sec, zone] = rfc;
    const month = MONTHS[mon!.toLowerCase()];
    const offset = zoneOffset(zone!);
    if (month !== undefined && offset !== null) {
      const year = y!.length === 2 ? Number(y) + (Number(y) < 50 ? 2000 : 1900) : Number(y);
      return build(year, month, Number(d), Number(h), Number(mi), Number(sec ?? 0), 0, offset);
    }
  }
  return fromRfc822(s);
}

/** The form nearly every RSS feed uses, read in one step before the general token reader. */
const RFC822 =
  /^(?:[A-Za-z]{3}, ?)?(\d{1,2}) ([A-Za-z]{3}) (\d{4}|\d{2}) (\d{2}):(\d{2})(?::(\d{2}))? ([+-]\d{4}|[A-Za-z]{1,4})$/;

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

function fromIso(m: RegExpExecArray): string | null {
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  const offset = zone ? zoneOffset(zone) : 0;
  if (offset === null) return null;
  return build(
    Number(y),
    mo ? Number(mo) : 1,
    d ? Number(d) : 1,
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(sec ?? 0),
    ms,
    offset,
  );
}

/**
 * RFC 822 and relatives, read as tokens in any reasonable order: "Mon, 2 Jan 06 15:04:05 -0700",
 * "2 January 2006 15:04 EST", "Monday, 02-Jan-2006 15:04:05 GMT", asctime's "Mon Jan  2 15:04:05
 * 2006", and trailing comments like "(PST)".
 */
function fromRfc822(s: string): string | null {
  const tokens = s
    .replace(/\([^)]*\)/g, ' ')
    .replace(/(\d)-([A-Za-z]{3,})-(\d)/, '$1 $2 $3')
    .split(/[\s,]+/)
    .filter((t) => t !== '');
  let month = 0;
  let day = 0;
  let year = -1;
  let yearDigits = 0;
  let time: RegExpExecArray | null = null;
  let offset: number | null = null;
  let meridiem = '';
  for (const token of tokens) {
    if (time !== null && offset === null) {
      if (/^[ap]\.?m\.?$/i.test(token)) {
        meridiem = token[0]!.toLowerCase();
        continue;
      }
      // After the time comes the zone; "0800" without a sign is read as +0800, and a zone name
      // we do not know (or a military letter, unreliable since RFC 1123) as UTC.
      const zone = zoneOffset(token) ?? (/^[A-Za-z]{1,5}$/.test(token) ? 0 : null);
      if (zone !== null && !(year === -1 && /^\d{4}$/.test(token))) {
        offset = zone;
        continue;
      }
    }
    const lower = token.toLowerCase();
    const named = MONTHS[lower.slice(0, 3)];
    if (named !== undefined && /^[a-z]+\.?$/.test(lower) && month === 0 && !DAY_NAME.test(token)) {
      month = named;
    } else if (DAY_NAME.test(token)) {
      // The day name adds nothing (and is often wrong).
    } else if (/^\d+$/.test(token)) {
      if (token.length <= 2 && day === 0) day = Number(token);
      else if (year === -1) {
        year = Number(token);
        yearDigits = token.length;
      } else return null;
    } else if (time === null && TIME.test(token)) {
      time = TIME.exec(token);
    } else if (time !== null && offset !== null) {
      break; // trailing garbage after a complete date
    } else {
      return null;
    }
  }
  if (month === 0 || day === 0 || year < 0) return null;
  if (yearDigits <= 2) year += year < 50 ? 2000 : 1900;
  else if (yearDigits === 3) year += 1900;
  let h = time ? Number(time[1]) : 0;
  if (meridiem !== '' && h >= 1 && h <= 12) h = (h % 12) + (meridiem === 'p' ? 12 : 0);
  const mi = time ? Number(time[2]) : 0;
  const sec = time?.[3] ? Number(time[3]) : 0;
  return build(year, month, day, h, mi, sec, 0, offset ?? 0);
}

/** Minutes east of UTC for "Z", "GMT", "EST", "+05:30", "-0800", "+5", "0800", "GMT+2"; else null. */
function zoneOffset(token: string): number | null {
  const fast = commonZone(token);
  if (fast !== null) return fast;
  const upper = token.toUpperCase();
  const named = ZONES[upper];
  if (named !== undefined) return named;
  const rest = /^(?:GMT|UTC|UT)([+-].*)$/.exec(upper);
  if (rest) return zoneOffset(rest[1]!);
  const m = NUMERIC_ZONE.exec(token);
  if (!m) return null;
  const [, sign, hh, mm] = m;
  if (!sign && (!mm || hh!.length !== 2)) return null;
  const minutes = Number(hh) * 60 + Number(mm ?? 0);
  if (Number(hh) > 14 || Number(mm ?? 0) > 59) return null;
  return sign === '-' ? -minutes : minutes;
}

/** "Z", "+0000", "-05:00": what nearly every feed writes, read without regexes or copies. */
function commonZone(t: string): number | null {
  const c = t.charCodeAt(0);
  if (t.length === 1) return c === 90 || c === 122 ? 0 : null;
  if ((c !== 43 && c !== 45) || (t.length !== 5 && t.length !== 6)) return null;
  const m = t.length === 6 ? 4 : 3; // minutes start after an optional colon
  if (t.length === 6 && t.charCodeAt(3) !== 58) return null;
  const h1 = t.charCodeAt(1) - 48;
  const h2 = t.charCodeAt(2) - 48;
  const m1 = t.charCodeAt(m) - 48;
  const m2 = t.charCodeAt(m + 1) - 48;
  if (h1 < 0 || h1 > 9 || h2 < 0 || h2 > 9 || m1 < 0 || m1 > 5 || m2 < 0 || m2 > 9) return null;
  const hours = h1 * 10 + h2;
  if (hours > 14) return null;
  const minutes = hours * 60 + m1 * 10 + m2;
  return c === 45 ? -minutes : minutes;
}

function build(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  offset: number,
) {
  if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  if (h === 24 && (mi > 0 || s > 0)) return null;
  if (d > 28 && d > daysInMonth(y, mo)) return null; // 31 April, 30 February
  let utc = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms);
  if (y < 100) {
    // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not, so it fixes those.
    const date = new Date(utc);
    date.setUTCFullYear(y);
    utc = date.getTime();
  }
  const t = utc - offset * 60_000;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

function daysInMonth(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}
