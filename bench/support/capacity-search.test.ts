/** bench:latency's capacity search finds the edge between coarse steps, not the step below it. */
import { describe, expect, it } from 'vitest';
import { searchCapacity } from './capacity-search.ts';

const LADDER = [500, 1000, 2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000];

/** A receiver that holds every rate up to `limit`; records the rates it was offered. */
function receiver(limit: number) {
  const offered: number[] = [];
  const step = async (rate: number) => {
    offered.push(rate);
    return rate <= limit;
  };
  return { offered, step };
}

describe('searchCapacity', () => {
  it('finds a capacity between two coarse steps to within the refinement', async () => {
    const r = receiver(13_300);
    const held = await searchCapacity(LADDER, 4, r.step);
    // 12,000 held and 14,000 failed: 13,000 holds, 13,500 fails, 13,300 holds, 13,400 fails.
    expect(r.offered.slice(-4)).toEqual([13_000, 13_500, 13_300, 13_400]);
    expect(held).toBe(13_300);
  });

  it('a capacity a hair under a coarse step reads near it, not as the step below', async () => {
    const held = await searchCapacity(LADDER, 4, receiver(11_990).step);
    expect(held).toBeGreaterThanOrEqual(11_800);
    expect(held).toBeLessThan(12_000);
  });

  it('holds the top of the ladder when nothing fails, and 0 when the first step fails', async () => {
    expect(await searchCapacity(LADDER, 4, receiver(99_999).step)).toBe(16_000);
    expect(await searchCapacity(LADDER, 2, receiver(100).step)).toBe(0);
  });
});
