/**
 * "3 min ago" for the river. Times in the future (a feed with a skewed clock) read "just now"
 * rather than "in 5 min". Older than a week, the date itself says more than "23 days ago".
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface TimeFormatOptions {
  locale?: string;
  timeZone?: string;
}

export function formatRelative(iso: string | null, nowMs: number, options: TimeFormatOptions = {}): string {
  const ms = parseTime(iso);
  if (ms === null) return '';
  const age = nowMs - ms;
  if (age < 45_000) return 'just now';
  if (age < HOUR) return `${Math.max(1, Math.round(age / MINUTE))} min ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)} h ago`;
  if (age < 2 * DAY) return 'yesterday';
  if (age < 7 * DAY) return `${Math.floor(age / DAY)} days ago`;
  const sameYear = new Date(ms).getUTCFullYear() === new Date(nowMs).getUTCFullYear();
  return formatter(options, sameYear ? 'dayMonth' : 'dayMonthYear').format(ms);
}

/** "in 5 min" for a time ahead (the next try); "now" when it is due or past. */
export function formatUntil(iso: string | null, nowMs: number): string {
  const ms = parseTime(iso);
  if (ms === null) return '';
  const ahead = ms - nowMs;
  if (ahead < 45_000) return 'now';
  if (ahead < HOUR) return `in ${Math.max(1, Math.round(ahead / MINUTE))} min`;
  if (ahead < DAY) return `in ${Math.round(ahead / HOUR)} h`;
  return `in ${Math.round(ahead / DAY)} days`;
}

/** The full date and time, for title attributes. */
export function formatAbsolute(iso: string | null, options: TimeFormatOptions = {}): string {
  const ms = parseTime(iso);
  if (ms === null) return '';
  return formatter(options, 'absolute').format(ms);
}

type Shape = 'dayMonth' | 'dayMonthYear' | 'absolute';
const SHAPES: Record<Shape, Intl.DateTimeFormatOptions> = {
  dayMonth: { day: 'numeric', month: 'short' },
  dayMonthYear: { day: 'numeric', month: 'short', year: 'numeric' },
  absolute: { dateStyle: 'medium', timeStyle: 'short' },
};

/**
 * Building an Intl.DateTimeFormat costs far more than using one: measured in bench:river, a new
 * one per call (every time in every feed row and item, on each re-render) took 26 s of 54 s of
 * main-thread time while j was held. One per locale, zone and shape, kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(options: TimeFormatOptions, shape: Shape): Intl.DateTimeFormat {
  const key = `${options.locale ?? ''}|${options.timeZone ?? ''}|${shape}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(options.locale, {
      ...SHAPES[shape],
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

function parseTime(iso: string | null): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}
