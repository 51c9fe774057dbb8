import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED, savedPosition, savedSpeed, savePosition, saveSpeed } from './positions';

function memory() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('player positions', () => {
  it('remembers where an episode was left, per episode', () => {
    const s = memory();
    savePosition('https://p.example/1.mp3', 125.6, 3600, s);
    savePosition('https://p.example/2.mp3', 40, 3600, s);
    expect(savedPosition('https://p.example/1.mp3', s)).toBe(125);
    expect(savedPosition('https://p.example/2.mp3', s)).toBe(40);
    expect(savedPosition('https://p.example/3.mp3', s)).toBe(0);
  });

  it('forgets a finished episode and the first seconds', () => {
    const s = memory();
    savePosition('a', 3590, 3600, s);
    savePosition('b', 3, 3600, s);
    expect(savedPosition('a', s)).toBe(0);
    expect(savedPosition('b', s)).toBe(0);
  });

  it('keeps at most MAX_REMEMBERED, dropping the oldest', () => {
    const s = memory();
    for (let i = 0; i <= MAX_REMEMBERED; i++) savePosition(`e${i}`, 60, 3600, s);
    expect(savedPosition('e0', s)).toBe(0);
    expect(savedPosition(`e${MAX_REMEMBERED}`, s)).toBe(60);
  });

  it('survives garbage in storage', () => {
    const s = memory();
    s.setItem('tidings.player.positions', '{not json');
    expect(savedPosition('a', s)).toBe(0);
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
