/**
 * RSS 2.0 skipHours / skipDays: hours (0-23) and days during which a feed asks not to be read.
 * Both are in GMT by the spec, so everything here uses UTC getters only: the machine's time zone
 * and its DST changes never matter.
 *
 * A feed that skips every hour (or every day) would never be read; rather than obey that, the
 * rule is ignored and the caller says so (see `ignored`).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Index = Date#getUTCDay(). */
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface SkipRules {
  hours: ReadonlySet<number>;
  /** getUTCDay() numbers. */
  days: ReadonlySet<number>;
  /** Human notes for rules dropped because they would forbid every instant. */
  ignored: string[];
}

/** Cleans what the feed said: 24 means midnight, day names are matched case-insensitively. */
export function skipRules(skipHours: readonly number[], skipDays: readonly string[]): SkipRules {
  const hours = new Set<number>();
  for (const h of skipHours) {
    if (!Number.isInteger(h) || h < 0 || h > 24) continue;
    hours.add(h % 24);
  }
  const days = new Set<number>();
  for (const d of skipDays) {
    const key = d.trim().slice(0, 3).toLowerCase();
    const i = DAY_NAMES.findIndex((n) => n.slice(0, 3).toLowerCase() === key);
    if (key.length === 3 && i >= 0) days.add(i);
  }
  const ignored: string[] = [];
  if (hours.size === 24) {
    hours.clear();
    ignored.push('skipHours ignored (every hour skipped)');
  }
  if (days.size === 7) {
    days.clear();
    ignored.push('skipDays ignored (every day skipped)');
  }
  return { hours, days, ignored };
}

export function isSkippedBy(t: number, rules: SkipRules): boolean {
  const d = new Date(t);
  return rules.days.has(d.getUTCDay()) || rules.hours.has(d.getUTCHours());
}

/**
 * Is instant `t` (ms) inside the feed's skip windows? Rules that would skip every hour or every
 * day are ignored here too, so `nextDue(...).at` is never "skipped" by this test.
 */
export function isSkipped(t: number, skipHours: readonly number[], skipDays: readonly string[]): boolean {
  return isSkippedBy(t, skipRules(skipHours, skipDays));
}

/** The next whole GMT hour strictly after `t`. */
export function nextHourBoundary(t: number): number {
  return Math.floor(t / HOUR_MS) * HOUR_MS + HOUR_MS;
}

export interface SkipMove {
  at: number;
  byHours: boolean;
  byDays: boolean;
}

/**
 * The first instant at or after `t` outside every skip window. Windows are whole GMT hours and
 * days, so stepping to the next hour (or midnight) boundary lands exactly on where a window ends,
 * across midnight and week boundaries alike. Terminates: with neither rule covering everything,
 * some free hour exists within 7 days.
 */
export function skipForward(t: number, rules: SkipRules): SkipMove {
  let at = t;
  let byHours = false;
  let byDays = false;
  for (let i = 0; i < 8 * 24 && isSkippedBy(at, rules); i++) {
    const d = new Date(at);
    if (rules.days.has(d.getUTCDay())) {
      byDays = true;
      at = Math.floor(at / DAY_MS) * DAY_MS + DAY_MS;
    } else {
      byHours = true;
      at = nextHourBoundary(at);
    }
  }
  return { at, byHours, byDays };
}

/** "skips 22:00-02:00 GMT, Saturday, Sunday" for the feed list; '' when nothing is skipped. */
export function describeSkips(rules: SkipRules): string {
  const parts: string[] = [];
  if (rules.hours.size > 0) {
    // Contiguous runs of hours, joined across midnight: [22,23,0,1] -> 22:00-02:00.
    const runs: [number, number][] = [];
    let start = [...rules.hours].find((h) => !rules.hours.has((h + 23) % 24))!;
    for (let k = 0, h = start; k < 24; k++, h = (h + 1) % 24) {
      const inside = rules.hours.has(h);
      const before = rules.hours.has((h + 23) % 24);
      if (inside && !before) start = h;
      if (inside && !rules.hours.has((h + 1) % 24)) runs.push([start, (h + 1) % 24]);
    }
    runs.sort((a, b) => a[0] - b[0]);
    parts.push(runs.map(([a, b]) => `${hhmm(a)}-${hhmm(b)}`).join(', ') + ' GMT');
  }
  if (rules.days.size > 0) {
    parts.push(
      [...rules.days]
        .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
        .map((d) => DAY_NAMES[d])
        .join(', '),
    );
  }
  return parts.length ? `skips ${parts.join(', ')}` : '';
}

function hhmm(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}
