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
  return new Intl.DateTimeFormat(options.locale, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  }).format(ms);
}

/** The full date and time, for title attributes. */
export function formatAbsolute(iso: string | null, options: TimeFormatOptions = {}): string {
  const ms = parseTime(iso);
  if (ms === null) return '';
  return new Intl.DateTimeFormat(options.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  }).format(ms);
}

function parseTime(iso: string | null): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}
