import { describe, expect, it } from 'vitest';
import { splitByRanges } from './highlight';

describe('splitByRanges', () => {
  it('cuts text into plain and matched pieces', () => {
    expect(splitByRanges('the harbour at dawn', [[4, 11]])).toEqual([
      { text: 'the ', match: false },
      { text: 'harbour', match: true },
      { text: ' at dawn', match: false },
    ]);
  });

  it('merges overlapping and unordered ranges and clamps out-of-bounds ones', () => {
    expect(
      splitByRanges('abcdef', [
        [4, 99],
        [0, 2],
        [1, 3],
        [5, 5],
      ]),
    ).toEqual([
      { text: 'abc', match: true },
      { text: 'd', match: false },
      { text: 'ef', match: true },
    ]);
  });

  it('gives the whole text when nothing matched', () => {
    expect(splitByRanges('plain', [])).toEqual([{ text: 'plain', match: false }]);
    expect(splitByRanges('', [])).toEqual([{ text: '', match: false }]);
  });
});
