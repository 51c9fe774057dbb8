/**
 * Where each episode was left, and the chosen speed, in localStorage (the renderer's own memory:
 * listening position is a device-local matter, not the core's). Bounded: the oldest go first.
 */
const POSITIONS_KEY = 'tidings.player.positions';
const SPEED_KEY = 'tidings.player.speed';
export const MAX_REMEMBERED = 200;
export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function storage(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function readAll(s: Store | null): Record<string, number> {
  try {
    const parsed = JSON.parse(s?.getItem(POSITIONS_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function savedPosition(url: string, s: Store | null = storage()): number {
  const value = readAll(s)[url];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Near the end counts as finished: the next play starts from the top. */
export function savePosition(
  url: string,
  seconds: number,
  duration: number,
  s: Store | null = storage(),
): void {
  if (!s) return;
  const all = readAll(s);
  delete all[url];
  const finished = Number.isFinite(duration) && duration > 0 && duration - seconds < 15;
  if (!finished && seconds > 5) all[url] = Math.floor(seconds);
  const keys = Object.keys(all);
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED))) delete all[key];
  try {
    s.setItem(POSITIONS_KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused: positions are a convenience.
  }
}

export function savedSpeed(s: Store | null = storage()): number {
  const value = Number(s?.getItem(SPEED_KEY));
  return (SPEEDS as readonly number[]).includes(value) ? value : 1;
}

export function saveSpeed(speed: number, s: Store | null = storage()): void {
  try {
    s?.setItem(SPEED_KEY, String(speed));
  } catch {
    // As above.
  }
}
