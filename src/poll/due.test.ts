import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/seeded.ts';
import { type DueInput, describeInterval, dueAfterAskedFailure, isSkipped, nextDue } from './due.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const t = (iso: string) => Date.parse(iso);
/** 2026-01-07 is a Wednesday; the 9th a Friday, the 12th a Monday. */
const WED_10 = t('2026-01-07T10:00:00Z');
const noJitter = () => 0;

function input(over: Partial<DueInput> = {}): DueInput {
  return {
    intervalMin: 60,
    ttl: null,
    skipHours: [],
    skipDays: [],
    sy: null,
    cache: null,
    consecutiveErrors: 0,
    realtime: null,
    ...over,
  };
}
const sy = (
  updatePeriod: string | null,
  updateFrequency: number | null,
  updateBase: string | null = null,
) => ({
  updatePeriod,
  updateFrequency,
  updateBase,
});
const cache = (maxAgeSec: number | null, expiresAt: number | null, retryAfterAt: number | null = null) => ({
  maxAgeSec,
  expiresAt,
  retryAfterAt,
});

interface Case {
  name: string;
  in: Partial<DueInput>;
  now?: number;
  at: number;
  reason: string;
}

function table(cases: Case[]) {
  it.each(cases)('$name', (c) => {
    const due = nextDue(input(c.in), c.now ?? WED_10, noJitter);
    expect(new Date(due.at).toISOString()).toBe(new Date(c.at).toISOString());
    expect(due.reason).toBe(c.reason);
  });
}

describe('nextDue: interval and ttl', () => {
  table([
    { name: 'interval only', in: {}, at: WED_10 + HOUR, reason: 'interval 60 min' },
    { name: 'user interval 15', in: { intervalMin: 15 }, at: WED_10 + 15 * MIN, reason: 'interval 15 min' },
    {
      name: 'invalid interval -> default 60',
      in: { intervalMin: Number.NaN },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    { name: 'ttl larger wins', in: { ttl: 120 }, at: WED_10 + 2 * HOUR, reason: 'ttl 120 min' },
    { name: 'ttl smaller: interval', in: { ttl: 30 }, at: WED_10 + HOUR, reason: 'interval 60 min' },
    { name: 'ttl equal: interval', in: { ttl: 60 }, at: WED_10 + HOUR, reason: 'interval 60 min' },
    {
      name: 'silly ttl capped at 24 h',
      in: { ttl: 10080 },
      at: WED_10 + DAY,
      reason: 'ttl 10080 min, capped at 24 h',
    },
    {
      name: 'user interval beyond 24 h is the user’s',
      in: { intervalMin: 2880 },
      at: WED_10 + 2 * DAY,
      reason: 'interval 2880 min',
    },
  ]);
});

describe('nextDue: sy:updatePeriod / updateFrequency / updateBase', () => {
  table([
    {
      name: 'hourly/2 (30 min) < interval',
      in: { sy: sy('hourly', 2) },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    {
      name: 'hourly > interval 15',
      in: { intervalMin: 15, sy: sy('hourly', 1) },
      at: WED_10 + HOUR,
      reason: 'sy hourly (60 min)',
    },
    { name: 'daily/2', in: { sy: sy('daily', 2) }, at: WED_10 + 12 * HOUR, reason: 'sy daily/2 (720 min)' },
    {
      name: 'frequency alone means daily',
      in: { sy: sy(null, 4) },
      at: WED_10 + 6 * HOUR,
      reason: 'sy daily/4 (360 min)',
    },
    {
      name: 'case-insensitive period',
      in: { sy: sy(' Daily ', null) },
      at: WED_10 + DAY,
      reason: 'sy daily (1440 min)',
    },
    {
      name: 'weekly capped',
      in: { sy: sy('weekly', 1) },
      at: WED_10 + DAY,
      reason: 'sy weekly (1440 min, capped at 24 h)',
    },
    {
      name: 'unknown period ignored',
      in: { sy: sy('fortnightly', 1) },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    {
      name: 'ttl larger than sy',
      in: { ttl: 180, sy: sy('hourly', 1) },
      at: WED_10 + 3 * HOUR,
      reason: 'ttl 180 min',
    },
    {
      name: 'daily grid: next 06:00 slot (tomorrow)',
      in: { sy: sy('daily', 1, '2000-01-01T06:00:00Z') },
      at: t('2026-01-08T06:00:00Z'),
      reason: 'sy daily slot 06:00 GMT',
    },
    {
      name: 'daily/4 grid from midnight: next slot 12:00, sooner than nothing else forbids',
      in: { sy: sy('daily', 4, '2000-01-01T00:00+00:00') },
      at: t('2026-01-07T12:00:00Z'),
      reason: 'sy daily/4 slot 12:00 GMT',
    },
    {
      name: 'hourly grid at :15 rounds the user interval up',
      in: { sy: sy('hourly', 1, '2000-01-01T00:15:00Z') },
      at: t('2026-01-07T11:15:00Z'),
      reason: 'sy hourly slot 11:15 GMT',
    },
    {
      name: 'grid respects ttl',
      in: { ttl: 120, sy: sy('hourly', 1, '2000-01-01T00:15:00Z') },
      at: t('2026-01-07T12:15:00Z'),
      reason: 'sy hourly slot 12:15 GMT',
    },
    {
      name: 'slot less than a minute away: the next one',
      in: { sy: sy('daily', 1, '2020-05-05T10:00:30Z') },
      at: t('2026-01-08T10:00:30Z'),
      reason: 'sy daily slot 10:00 GMT',
    },
    {
      name: 'unparseable updateBase: no alignment',
      in: { sy: sy('daily', 2, 'soon') },
      at: WED_10 + 12 * HOUR,
      reason: 'sy daily/2 (720 min)',
    },
  ]);
});

describe('nextDue: Cache-Control max-age, Expires, Retry-After (latest wins)', () => {
  table([
    {
      name: 'max-age larger',
      in: { cache: cache(7200, null) },
      at: WED_10 + 2 * HOUR,
      reason: 'max-age 120 min',
    },
    {
      name: 'max-age smaller',
      in: { cache: cache(600, null) },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    {
      name: 'Expires later than max-age and ttl',
      in: { ttl: 90, cache: cache(3600 * 2, t('2026-01-07T12:30:00Z')) },
      at: t('2026-01-07T12:30:00Z'),
      reason: 'Expires 12:30 GMT',
    },
    {
      name: 'max-age later than Expires and ttl',
      in: { ttl: 90, cache: cache(3600 * 3, t('2026-01-07T12:30:00Z')) },
      at: WED_10 + 3 * HOUR,
      reason: 'max-age 180 min',
    },
    {
      name: 'ttl later than both',
      in: { ttl: 300, cache: cache(3600 * 3, t('2026-01-07T12:30:00Z')) },
      at: WED_10 + 5 * HOUR,
      reason: 'ttl 300 min',
    },
    {
      name: 'Expires in the past',
      in: { cache: cache(null, WED_10 - HOUR) },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    {
      name: 'max-age of 3 days capped',
      in: { cache: cache(3 * 86400, null) },
      at: WED_10 + DAY,
      reason: 'max-age 4320 min, capped at 24 h',
    },
    {
      name: 'Retry-After honoured',
      in: { cache: cache(null, null, WED_10 + 3 * HOUR) },
      at: WED_10 + 3 * HOUR,
      reason: 'Retry-After until 13:00 GMT',
    },
    {
      name: 'Retry-After beats back-off and real-time',
      in: {
        consecutiveErrors: 2,
        realtime: { live: true, safetyNetMin: 360 },
        cache: cache(null, null, WED_10 + 9 * HOUR),
      },
      at: WED_10 + 9 * HOUR,
      reason: 'Retry-After until 19:00 GMT',
    },
    {
      name: 'Retry-After sooner than interval: interval',
      in: { cache: cache(null, null, WED_10 + 5 * MIN) },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    {
      name: 'absurd Retry-After capped at 7 days',
      in: { cache: cache(null, null, WED_10 + 400 * DAY) },
      at: WED_10 + 7 * DAY,
      reason: 'Retry-After until 10:00 GMT, capped at 7 days',
    },
  ]);
});

describe('nextDue: back-off and real-time', () => {
  const backoff = (n: number, over: Partial<DueInput> = {}): Case => ({
    name: `${n} errors${over.ttl ? ` with ttl ${over.ttl}` : ''}`,
    in: { consecutiveErrors: n, ...over },
    at: 0,
    reason: `back-off after ${n} error${n === 1 ? '' : 's'}`,
  });
  table([
    { ...backoff(1), at: WED_10 + HOUR },
    { ...backoff(2), at: WED_10 + 2 * HOUR },
    { ...backoff(3), at: WED_10 + 4 * HOUR },
    { ...backoff(5), at: WED_10 + 16 * HOUR },
    { ...backoff(6), at: WED_10 + DAY },
    { ...backoff(40), at: WED_10 + DAY },
    { ...backoff(3, { ttl: 120 }), at: WED_10 + 8 * HOUR },
    {
      name: 'user interval beyond the cap',
      in: { intervalMin: 2880, consecutiveErrors: 9 },
      at: WED_10 + 2 * DAY,
      reason: 'back-off after 9 errors',
    },
    {
      name: 'real-time live: safety net',
      in: { realtime: { live: true, safetyNetMin: 360 } },
      at: WED_10 + 6 * HOUR,
      reason: 'real-time; safety net every 6 h',
    },
    {
      name: 'real-time lapsed: back to the interval',
      in: { realtime: { live: false, safetyNetMin: 360 } },
      at: WED_10 + HOUR,
      reason: 'interval 60 min',
    },
    {
      name: 'real-time live, errors back off beyond the net',
      in: { realtime: { live: true, safetyNetMin: 360 }, consecutiveErrors: 6 },
      at: WED_10 + DAY,
      reason: 'back-off after 6 errors',
    },
    {
      name: 'real-time live, a user interval longer than the net',
      in: { intervalMin: 720, realtime: { live: true, safetyNetMin: 360 } },
      at: WED_10 + 12 * HOUR,
      reason: 'interval 720 min',
    },
  ]);
});

describe('dueAfterAskedFailure: a Retry that fails', () => {
  const planned = { at: WED_10 + 2 * HOUR, reason: 'back-off after 2 errors' };
  const failing = input({ consecutiveErrors: 2 });

  it('keeps the try already planned, reason and all (the back-off does not grow)', () => {
    expect(dueAfterAskedFailure(failing, planned, WED_10, noJitter)).toEqual(planned);
    // What counting it as one more error would have done: twice the wait, from now.
    const counted = nextDue(input({ consecutiveErrors: 3 }), WED_10, noJitter);
    expect(counted.at - WED_10).toBe(4 * HOUR);
  });

  it('plans as for any failure when nothing is planned ahead', () => {
    expect(dueAfterAskedFailure(failing, null, WED_10, noJitter)).toEqual(nextDue(failing, WED_10, noJitter));
    const past = { at: WED_10 - MIN, reason: 'interval 60 min' };
    expect(dueAfterAskedFailure(failing, past, WED_10, noJitter)).toEqual(nextDue(failing, WED_10, noJitter));
  });

  it('obeys a server asking for later than the plan (Retry-After)', () => {
    const later = input({ consecutiveErrors: 2, cache: cache(null, null, WED_10 + 5 * HOUR) });
    const due = dueAfterAskedFailure(later, planned, WED_10, noJitter);
    expect(due.at).toBe(WED_10 + 5 * HOUR);
    expect(due.reason).toMatch(/Retry-After/);
    const sooner = input({ consecutiveErrors: 2, cache: cache(null, null, WED_10 + HOUR) });
    expect(dueAfterAskedFailure(sooner, planned, WED_10, noJitter)).toEqual(planned);
  });
});

describe('nextDue: skipHours / skipDays (GMT)', () => {
  const FRI_2330 = t('2026-01-09T23:30:00Z');
  table([
    {
      name: 'skipHours across midnight',
      in: { skipHours: [22, 23, 0, 1] },
      now: t('2026-01-07T21:50:00Z'),
      at: t('2026-01-08T02:00:00Z'),
      reason: 'skipHours until 02:00 GMT',
    },
    {
      name: 'skipHours not hit',
      in: { skipHours: [22, 23, 0, 1] },
      now: t('2026-01-07T20:00:00Z'),
      at: t('2026-01-07T21:00:00Z'),
      reason: 'interval 60 min',
    },
    {
      name: '24 means midnight',
      in: { skipHours: [24] },
      now: t('2026-01-07T23:30:00Z'),
      at: t('2026-01-08T01:00:00Z'),
      reason: 'skipHours until 01:00 GMT',
    },
    {
      name: 'skipDays across the week boundary',
      in: { skipDays: ['Saturday', 'Sunday'], intervalMin: 60 },
      now: FRI_2330,
      at: t('2026-01-12T00:00:00Z'),
      reason: 'skipDays until Monday 00:00 GMT',
    },
    {
      name: 'skipDays names are case-insensitive',
      in: { skipDays: ['saturday', 'SUNDAY'] },
      now: FRI_2330,
      at: t('2026-01-12T00:00:00Z'),
      reason: 'skipDays until Monday 00:00 GMT',
    },
    {
      name: 'skipHours + skipDays',
      in: { skipDays: ['Saturday', 'Sunday'], skipHours: [0, 1, 2, 3, 4, 5] },
      now: FRI_2330,
      at: t('2026-01-12T06:00:00Z'),
      reason: 'skipDays, skipHours until Monday 06:00 GMT',
    },
    {
      name: 'skip moves a Retry-After further, never sooner',
      in: { skipHours: [13], cache: cache(null, null, WED_10 + 3 * HOUR + 5 * MIN) },
      at: t('2026-01-07T14:00:00Z'),
      reason: 'skipHours until 14:00 GMT',
    },
    {
      name: 'all 24 hours skipped: ignored',
      in: { skipHours: Array.from({ length: 24 }, (_, h) => h) },
      at: WED_10 + HOUR,
      reason: 'interval 60 min; skipHours ignored (every hour skipped)',
    },
    {
      name: 'all 7 days skipped: ignored, hours still obeyed',
      in: {
        skipDays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
        skipHours: [11],
      },
      at: t('2026-01-07T12:00:00Z'),
      reason: 'skipHours until 12:00 GMT; skipDays ignored (every day skipped)',
    },
  ]);
});

describe('nextDue: jitter', () => {
  const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

  it('is bounded, forward only, keeps the reason and never lands in a skip window', () => {
    const rng = seededRandom(20260107);
    let jittered = 0;
    for (let i = 0; i < 3000; i++) {
      const skipHours = Array.from({ length: 24 }, (_, h) => h).filter(() => rng() < 0.4);
      const skipDays = DAYS.filter(() => rng() < 0.25);
      const inp = input({
        intervalMin: 1 + Math.floor(rng() * 1440),
        ttl: rng() < 0.3 ? Math.floor(rng() * 600) : null,
        skipHours,
        skipDays,
        consecutiveErrors: rng() < 0.2 ? Math.floor(rng() * 8) : 0,
      });
      const now = WED_10 + Math.floor(rng() * 28 * DAY);
      const base = nextDue(inp, now, noJitter);
      const withJitter = nextDue(inp, now, rng);
      const ctx = JSON.stringify({ i, inp, now: new Date(now).toISOString() });
      expect(base.at, ctx).toBeGreaterThanOrEqual(now + inp.intervalMin * MIN);
      expect(withJitter.at, ctx).toBeGreaterThanOrEqual(base.at);
      expect(withJitter.at - base.at, ctx).toBeLessThanOrEqual(Math.min(0.05 * (base.at - now), 2 * MIN));
      expect(isSkipped(withJitter.at, skipHours, skipDays), ctx).toBe(false);
      expect(withJitter.reason).toBe(base.reason);
      if (withJitter.at > base.at) jittered++;
    }
    expect(jittered).toBeGreaterThan(2000); // it does spread feeds
  });

  it('is cut short rather than run into a skip window', () => {
    const now = t('2026-01-07T20:59:30Z');
    const inp = input({ skipHours: [22] });
    const due = nextDue(inp, now, () => 0.99);
    expect(due.at).toBeGreaterThanOrEqual(t('2026-01-07T21:59:30Z'));
    expect(due.at).toBeLessThan(t('2026-01-07T22:00:00Z'));
    expect(isSkipped(due.at, [22], [])).toBe(false);
  });

  it('is at most 2 minutes on long intervals', () => {
    const due = nextDue(input({ intervalMin: 1440 }), WED_10, () => 0.999999);
    expect(due.at - (WED_10 + DAY)).toBeLessThanOrEqual(2 * MIN);
    expect(due.at - (WED_10 + DAY)).toBeGreaterThan(MIN);
  });
});

describe('GMT only: the machine time zone and DST do not matter', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'])('same answers in %s', (tz) => {
    process.env.TZ = tz;
    // Europe switches to summer time at 01:00 GMT on 2026-03-29 (a Sunday).
    const now = t('2026-03-29T00:30:00Z');
    expect(nextDue(input(), now, noJitter).at).toBe(now + HOUR);
    const skipped = nextDue(input({ skipHours: [1, 2], skipDays: ['Monday'] }), now, noJitter);
    expect(new Date(skipped.at).toISOString()).toBe('2026-03-29T03:00:00.000Z');
    expect(skipped.reason).toBe('skipHours until 03:00 GMT');
    expect(isSkipped(t('2026-03-30T12:00:00Z'), [], ['Monday'])).toBe(true);
    expect(isSkipped(t('2026-03-29T23:59:59Z'), [], ['Monday'])).toBe(false);
  });
});

describe('isSkipped', () => {
  it.each([
    { at: '2026-01-07T22:00:00Z', hours: [22], days: [], skipped: true },
    { at: '2026-01-07T21:59:59Z', hours: [22], days: [], skipped: false },
    { at: '2026-01-10T12:00:00Z', hours: [], days: ['Saturday'], skipped: true },
    { at: '2026-01-10T12:00:00Z', hours: [], days: ['Sat'], skipped: true },
    { at: '2026-01-11T00:00:00Z', hours: [], days: ['Saturday'], skipped: false },
    { at: '2026-01-07T05:00:00Z', hours: Array.from({ length: 24 }, (_, h) => h), days: [], skipped: false },
    { at: '2026-01-07T05:00:00Z', hours: [99, -1, 5.5], days: ['Someday'], skipped: false },
  ])('$at hours=$hours days=$days -> $skipped', (c) => {
    expect(isSkipped(t(c.at), c.hours, c.days)).toBe(c.skipped);
  });
});

describe('describeInterval', () => {
  it.each([
    { in: {}, text: 'every 60 min' },
    { in: { ttl: 120 }, text: 'every 120 min (ttl)' },
    { in: { ttl: 30 }, text: 'every 60 min' },
    { in: { sy: sy('daily', 2) }, text: 'every 720 min (sy)' },
    {
      in: { sy: sy('daily', 1, '2000-01-01T06:00:00Z') },
      text: 'every 1440 min (sy, on the 06:00 GMT grid)',
    },
    {
      in: { intervalMin: 90, sy: sy('hourly', 1, '2000-01-01T00:15:00Z') },
      text: 'every 120 min (sy, on the 00:15 GMT grid)',
    },
    { in: { realtime: { live: true, safetyNetMin: 360 } }, text: 'real-time; safety net every 6 h' },
    { in: { realtime: { live: false, safetyNetMin: 360 } }, text: 'every 60 min' },
    { in: { consecutiveErrors: 3 }, text: 'every 60 min; backing off after 3 errors' },
    {
      in: { skipHours: [23, 22, 0, 1, 12], skipDays: ['Sunday', 'Saturday'] },
      text: 'every 60 min; skips 12:00-13:00, 22:00-02:00 GMT, Saturday, Sunday',
    },
    {
      in: { skipHours: Array.from({ length: 24 }, (_, h) => h) },
      text: 'every 60 min; skipHours ignored (every hour skipped)',
    },
  ])('$text', (c) => {
    expect(describeInterval(input(c.in as Partial<DueInput>))).toBe(c.text);
  });
});
