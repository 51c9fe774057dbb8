import { describe, expect, it } from 'vitest';
import { episodeLabel, formatClock, formatDuration } from './duration';

describe('formatDuration', () => {
  const cases: [number | null, string | null][] = [
    [null, null],
    [0, null],
    [Number.NaN, null],
    [55, '55 s'],
    [2520, '42 min'],
    [3900, '1 h 05 min'],
    [7260, '2 h 01 min'],
  ];
  for (const [sec, out] of cases) it(`${sec}`, () => expect(formatDuration(sec)).toBe(out));
});

describe('formatClock', () => {
  it('shows minutes:seconds, hours only when needed', () => {
    expect(formatClock(187)).toBe('3:07');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });
});

describe('episodeLabel', () => {
  it('names season and episode when given', () => {
    expect(episodeLabel(2, 14)).toBe('S2 · E14');
    expect(episodeLabel(null, 3)).toBe('Episode 3');
    expect(episodeLabel(1, null)).toBe('Season 1');
    expect(episodeLabel(null, null)).toBeNull();
  });
});
