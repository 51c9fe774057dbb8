import { describe, expect, it } from 'vitest';
import { parseDate } from './dates.ts';

describe('parseDate', () => {
  const rows: Array<[string, string | null]> = [
    // RFC 822 / 1123 as the spec writes it
    ['Sat, 07 Sep 2002 00:00:01 GMT', '2002-09-07T00:00:01.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 +0000', '2003-06-10T04:00:00.000Z'],
    ['Mon, 06 May 2024 08:00:00 +0200', '2024-05-06T06:00:00.000Z'],
    ['Mon, 06 May 2024 08:00:00 -0730', '2024-05-06T15:30:00.000Z'],
    // named zones
    ['Sun, 1 Apr 2001 09:00:00 PST', '2001-04-01T17:00:00.000Z'],
    ['Sun, 01 Jul 2001 09:00:00 PDT', '2001-07-01T16:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 EST', '2002-10-02T13:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 EDT', '2002-10-02T12:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 UT', '2002-10-02T08:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 Z', '2002-10-02T08:00:00.000Z'],
    // wild variants
    ['02 Oct 2002 08:00:00 GMT', '2002-10-02T08:00:00.000Z'], // no day name
    ['Wed, 2 Oct 02 08:00:00 GMT', '2002-10-02T08:00:00.000Z'], // 2-digit year, 1-digit day
    ['Fri, 1 Jan 99 10:00 GMT', '1999-01-01T10:00:00.000Z'], // 2-digit year in the 1900s, no seconds
    ['Wed,  02  Oct  2002   08:00:00   GMT', '2002-10-02T08:00:00.000Z'], // extra spaces
    ['Wed, 02 Oct 2002 08:00:00 -0800 (PST)', '2002-10-02T16:00:00.000Z'], // trailing comment
    ['Wed, 02 Oct 2002 08:00:00 GMT garbage here', '2002-10-02T08:00:00.000Z'], // trailing garbage
    ['Wed, 02 Oct 2002 08:00:00 0800', '2002-10-02T00:00:00.000Z'], // zone without sign
    ['Wed, 02 Oct 2002 08:00:00 +05:30', '2002-10-02T02:30:00.000Z'], // zone with colon
    ['Wednesday, 02-Oct-2002 08:00:00 GMT', '2002-10-02T08:00:00.000Z'], // RFC 850 style
    ['Wed Oct  2 08:00:00 2002', '2002-10-02T08:00:00.000Z'], // asctime
    ['October 2, 2002 8:00 PM EST', '2002-10-03T01:00:00.000Z'], // long month, 12-hour clock
    ['Wed Oct 02 2002 08:00:00 GMT+0200 (Central European Summer Time)', '2002-10-02T06:00:00.000Z'],
    ['2 Oct 2002', '2002-10-02T00:00:00.000Z'], // date only
    ['Wed, 02 Oct 2002 08:00:00 XYZ', '2002-10-02T08:00:00.000Z'], // unknown zone read as UTC
    // ISO 8601 / W3C-DTF
    ['2024-05-06T12:00:00Z', '2024-05-06T12:00:00.000Z'],
    ['2024-05-06T12:00:00.123456Z', '2024-05-06T12:00:00.123Z'],
    ['2024-05-06T12:00:00+02:00', '2024-05-06T10:00:00.000Z'],
    ['2024-05-06T12:00:00-0500', '2024-05-06T17:00:00.000Z'],
    ['2024-05-06T12:00', '2024-05-06T12:00:00.000Z'], // no zone: UTC
    ['2024-05-06 12:00:00', '2024-05-06T12:00:00.000Z'], // space instead of T
    ['2024-05-06', '2024-05-06T00:00:00.000Z'], // date only
    ['2024-05', '2024-05-01T00:00:00.000Z'],
    ['  2000-01-01T12:00+00:00  ', '2000-01-01T12:00:00.000Z'],
    // garbage and impossible dates
    ['', null],
    ['   ', null],
    ['yesterday', null],
    ['not a date', null],
    ['20240506', null],
    ['1715000000', null],
    ['2024-13-01', null],
    ['2024-02-30T00:00:00Z', null],
    ['Mon, 32 Jan 2024 10:00:00 GMT', null],
    ['Mon, 01 Foo 2024 10:00:00 GMT', null],
    ['Mon, 01 Jan 2024 25:00:00 GMT', null],
  ];
  it.each(rows)('%j -> %j', (input, expected) => {
    expect(parseDate(input)).toBe(expected);
  });

  it('reads null and undefined as absent', () => {
    expect(parseDate(null)).toBeNull();
    expect(parseDate(undefined)).toBeNull();
  });
});
