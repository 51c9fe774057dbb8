import { describe, expect, it } from 'vitest';
import { userAgent } from './user-agent.ts';

describe('userAgent', () => {
  it.each([
    ['1.0.0', 'https://tidings.example', 1, 'Tidings/1.0.0 (+https://tidings.example; 1 subscribers)'],
    ['0.3.1', 'https://x.test/about', 10_000, 'Tidings/0.3.1 (+https://x.test/about; 10000 subscribers)'],
    ['2.0.0', 'https://x.test', 2.7, 'Tidings/2.0.0 (+https://x.test; 2 subscribers)'],
    ['2.0.0', 'https://x.test', undefined, 'Tidings/2.0.0 (+https://x.test)'],
  ])('%s %s %s', (version, url, subscribers, expected) => {
    expect(userAgent(version, url, subscribers)).toBe(expected);
  });
});
