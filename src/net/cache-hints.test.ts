import { describe, expect, it } from 'vitest';
import { cacheHints, parseHttpDate, parseMaxAge, parseRetryAfter } from './cache-hints.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('cache hints', () => {
  it.each([
    ['max-age=300', 300],
    ['public, max-age=60, must-revalidate', 60],
    ['MAX-AGE="120"', 120],
    ['s-maxage=100', null],
    ['no-cache', null],
    ['max-age=-5', null],
    ['max-age=abc', null],
    [null, null],
  ])('Cache-Control %s -> max-age %s', (header, expected) => {
    expect(parseMaxAge(header)).toBe(expected);
  });

  it.each([
    ['Thu, 01 Jan 2026 01:00:00 GMT', Date.parse('2026-01-01T01:00:00Z')],
    ['Thursday, 01-Jan-26 01:00:00 GMT', Date.parse('2026-01-01T01:00:00Z')],
    ['Thu Jan  1 01:00:00 2026', Date.parse('2026-01-01T01:00:00Z')],
    ['0', null],
    ['-1', null],
    ['yesterday', null],
    ['', null],
  ])('HTTP-date %s', (value, expected) => {
    expect(parseHttpDate(value)).toBe(expected);
  });

  it.each([
    ['120', NOW + 120_000],
    [' 0 ', NOW],
    ['Thu, 01 Jan 2026 00:30:00 GMT', NOW + 30 * 60_000],
    ['soon', null],
    ['1.5', null],
  ])('Retry-After %s', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it('only reads the hints it is asked for', () => {
    const headers = {
      'cache-control': 'max-age=10',
      expires: 'Thu, 01 Jan 2026 01:00:00 GMT',
      'retry-after': '5',
    };
    expect(cacheHints(headers, NOW, { freshness: true, retryAfter: false })).toEqual({
      maxAgeSec: 10,
      expiresAt: NOW + 3_600_000,
      retryAfterAt: null,
    });
    expect(cacheHints(headers, NOW, { freshness: false, retryAfter: true })).toEqual({
      maxAgeSec: null,
      expiresAt: null,
      retryAfterAt: NOW + 5000,
    });
  });
});
