import { describe, expect, it } from 'vitest';
import { isFinished, savedSpeed, saveSpeed, stepSpeed } from './positions';

function memory() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('the player rules', () => {
  it('counts the last seconds as the end, and a file of unknown length never as finished', () => {
    expect(isFinished(3590, 3600)).toBe(true);
    expect(isFinished(3000, 3600)).toBe(false);
    expect(isFinished(3590, Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('steps the speed through the offered ones, and stops at either end', () => {
    expect(stepSpeed(1, 1)).toBe(1.25);
    expect(stepSpeed(1, -1)).toBe(0.75);
    expect(stepSpeed(2, 1)).toBe(2);
    expect(stepSpeed(0.75, -1)).toBe(0.75);
    expect(stepSpeed(3, 1)).toBe(1.25);
  });

  it('remembers a known speed only', () => {
    const s = memory();
    expect(savedSpeed(s)).toBe(1);
    saveSpeed(1.5, s);
    expect(savedSpeed(s)).toBe(1.5);
    s.setItem('tidings.player.speed', '9');
    expect(savedSpeed(s)).toBe(1);
  });
});
