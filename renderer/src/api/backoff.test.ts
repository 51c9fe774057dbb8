import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const cases = [
    { attempt: 0, random: 1, ms: 500 },
    { attempt: 0, random: 0, ms: 250 },
    { attempt: 3, random: 1, ms: 4000 },
    { attempt: 10, random: 1, ms: 30_000 },
    { attempt: 50, random: 0, ms: 15_000 },
  ];
  for (const c of cases) {
    it(`attempt ${c.attempt}, random ${c.random}`, () => {
      expect(backoffDelay(c.attempt, () => c.random)).toBe(c.ms);
    });
  }
});
