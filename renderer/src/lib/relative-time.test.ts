import { describe, expect, it } from 'vitest';
import { formatAbsolute, formatRelative } from './relative-time';

const NOW = Date.parse('2025-06-15T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const opts = { locale: 'en-GB', timeZone: 'UTC' };

describe('formatRelative', () => {
  const cases: [string | null, string][] = [
    [null, ''],
    ['not a date', ''],
    [ago(-120_000), 'just now'],
    [ago(10_000), 'just now'],
    [ago(50_000), '1 min ago'],
    [ago(3 * 60_000), '3 min ago'],
    [ago(59 * 60_000), '59 min ago'],
    [ago(60 * 60_000), '1 h ago'],
    [ago(23.9 * 3_600_000), '23 h ago'],
    [ago(30 * 3_600_000), 'yesterday'],
    [ago(3 * 86_400_000), '3 days ago'],
    ['2025-03-12T10:00:00Z', '12 Mar'],
    ['2023-03-12T10:00:00Z', '12 Mar 2023'],
  ];
  for (const [iso, text] of cases) {
    it(`${iso} -> ${text || '(empty)'}`, () => {
      expect(formatRelative(iso, NOW, opts)).toBe(text);
    });
  }
});

describe('formatAbsolute', () => {
  it('gives date and time', () => {
    expect(formatAbsolute('2025-06-15T09:05:00Z', opts)).toBe('15 Jun 2025, 09:05');
    expect(formatAbsolute(null, opts)).toBe('');
  });
});
