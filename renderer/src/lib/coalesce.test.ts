import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

describe('coalesce', () => {
  it('runs once for a lone call, and a burst during a run becomes one run after it', async () => {
    let runs = 0;
    let release!: () => void;
    const load = coalesce(async () => {
      runs++;
      if (runs === 1) await new Promise<void>((r) => (release = r));
    });
    const first = load();
    const burst = [load(), load(), load()];
    expect(runs).toBe(1);
    release();
    await Promise.all([first, ...burst]);
    expect(runs).toBe(2);
    await load();
    expect(runs).toBe(3);
  });

  it('is ready again after a run throws', async () => {
    let runs = 0;
    const load = coalesce(async () => {
      runs++;
      if (runs === 1) throw new Error('down');
    });
    await expect(load()).rejects.toThrow('down');
    await load();
    expect(runs).toBe(2);
  });
});
