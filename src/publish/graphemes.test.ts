import { describe, expect, it } from 'vitest';
import { countGraphemes, textProblem } from './graphemes.ts';

describe('countGraphemes counts what people see as one character', () => {
  it.each([
    ['', 0],
    ['hello', 5],
    ['😀', 1], // one emoji, two UTF-16 units
    ['👍🏽', 1], // emoji + skin tone modifier
    ['🇫🇷🇯🇵', 2], // two flags (regional indicator pairs)
    ['👨‍👩‍👧‍👦', 1], // ZWJ family
    ['🏳️‍🌈', 1], // ZWJ sequence with a variation selector
    ['e\u0301', 1], // e + combining acute
    ['ñ', 1], // precomposed
    ['n\u0303a\u0308', 2], // two letters with combining marks
    ['שלום', 4], // right-to-left text
    ['\r\n', 1], // CR LF is one cluster
    ['a😀b', 3],
  ])('%j is %i', (text, n) => {
    expect(countGraphemes(text)).toBe(n);
  });

  it('140 flags fit a 140 limit; 141 do not, with the reason', () => {
    const flags = '🇫🇷'.repeat(140);
    expect(flags.length).toBe(560);
    expect(textProblem(flags, 140)).toBeNull();
    expect(textProblem(`${flags}🇫🇷`, 140)).toBe('The post is 141 characters; the limit is 140 (1 over).');
  });

  it('refuses an empty post', () => {
    expect(textProblem('   ')).toBe('A post needs some text.');
  });
});
