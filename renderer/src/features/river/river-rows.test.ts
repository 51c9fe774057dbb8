import { describe, expect, it } from 'vitest';
import type { RiverGroup } from '../../../../src/app/api';
import { riverGroup, riverItem } from '../../testing/fixtures';
import { riverRows } from './river-rows';

function g(feedId: number, count: number, firstId: number): RiverGroup {
  return riverGroup(
    feedId,
    Array.from({ length: count }, (_, i) => riverItem(firstId - i, feedId)),
  );
}

describe('riverRows', () => {
  it('keeps small groups whole and cuts big ones into chunks', () => {
    const rows = riverRows([g(1, 2, 100), g(2, 7, 50)], 3);
    expect(rows.map((r) => [r.key, r.items.map((i) => i.id).join(','), r.first, r.last])).toEqual([
      ['1:99', '100,99', true, true],
      ['2:44', '50,49,48', true, false],
      ['2:44#1', '47,46,45', false, false],
      ['2:44#2', '44', false, true],
    ]);
  });

  it('puts consecutive groups of one feed under one heading', () => {
    const rows = riverRows([g(1, 1, 100), g(1, 2, 90), g(2, 1, 80), g(1, 1, 70)], 3);
    expect(rows.map((r) => [r.items.map((i) => i.id).join(','), r.heading, r.end])).toEqual([
      ['100', true, false],
      ['90,89', false, true],
      ['80', true, true],
      ['70', true, true],
    ]);
  });

  it('gives an empty group one row for its heading', () => {
    expect(riverRows([g(3, 0, 1)]).map((r) => [r.first, r.last, r.items.length])).toEqual([[true, true, 0]]);
  });
});

describe('riverRows keeps the rows that did not change', () => {
  it('hands back the same row objects for unchanged groups, new ones for a changed group', () => {
    const a = g(1, 3, 100);
    const b = g(2, 3, 50);
    const first = riverRows([a, b]);
    const changedB = { ...b, items: b.items.map((i, n) => (n === 0 ? { ...i, read: true } : i)) };
    const second = riverRows([a, changedB], undefined, first);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]!.items[0]!.read).toBe(true);
  });
});
