import { describe, expect, it } from 'vitest';
import { firstInOrder } from './first-in-order.ts';

const after = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));

describe('firstInOrder', () => {
  it('prefers the earliest item that works, even when a later one answers first', async () => {
    const r = await firstInOrder(['slow-yes', 'fast-yes'], 2, new AbortController().signal, (x) =>
      x === 'slow-yes' ? after(60, 'A') : after(5, 'B'),
    );
    expect(r).toEqual({ candidate: 'slow-yes', value: 'A' });
  });

  it('does not wait for later items once an earlier one has won', async () => {
    const started: string[] = [];
    const t0 = performance.now();
    const r = await firstInOrder(['a', 'b', 'c', 'd'], 2, new AbortController().signal, (x) => {
      started.push(x);
      return x === 'a' ? after(5, 'yes') : after(500, null);
    });
    expect(r).toEqual({ candidate: 'a', value: 'yes' });
    expect(performance.now() - t0).toBeLessThan(300);
    expect(started).toEqual(['a', 'b']);
  });

  it('runs at most `limit` at a time and returns null when nothing works', async () => {
    let running = 0;
    let most = 0;
    const r = await firstInOrder([1, 2, 3, 4, 5, 6, 7], 3, new AbortController().signal, async () => {
      running++;
      most = Math.max(most, running);
      await after(10, null);
      running--;
      return null;
    });
    expect(r).toBeNull();
    expect(most).toBe(3);
  });

  it('treats a throwing test as a miss and stops when aborted', async () => {
    expect(
      await firstInOrder(['x', 'y'], 1, new AbortController().signal, async (v) => {
        if (v === 'x') throw new Error('boom');
        return 'ok';
      }),
    ).toEqual({ candidate: 'y', value: 'ok' });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    expect(await firstInOrder(['z'], 1, stop.signal, () => new Promise<string | null>(() => {}))).toBeNull();
  });
});
