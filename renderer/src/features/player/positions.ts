/**
 * The player's rules that are the renderer's own: the speeds offered (the chosen one kept in
 * localStorage: how fast one listens is this device's habit), and when an episode counts as
 * played. Where each episode was left is the core's (savePlayback: it comes back after a reload
 * and in every window).
 */
const SPEED_KEY = 'tidings.player.speed';
export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
/** This close to the end an episode is played: the next play starts from the top. */
export const FINISHED_WITHIN_S = 15;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function storage(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function isFinished(seconds: number, duration: number): boolean {
  return Number.isFinite(duration) && duration > 0 && duration - seconds < FINISHED_WITHIN_S;
}

/** The next speed up (1) or down (-1) from `speed`, staying within SPEEDS. */
export function stepSpeed(speed: number, direction: 1 | -1): number {
  const at = SPEEDS.indexOf(speed as (typeof SPEEDS)[number]);
  const from = at < 0 ? SPEEDS.indexOf(1) : at;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, from + direction))]!;
}

export function savedSpeed(s: Store | null = storage()): number {
  const value = Number(s?.getItem(SPEED_KEY));
  return (SPEEDS as readonly number[]).includes(value) ? value : 1;
}

export function saveSpeed(speed: number, s: Store | null = storage()): void {
  try {
    s?.setItem(SPEED_KEY, String(speed));
  } catch {
    // Storage full or refused: the speed lasts for this session.
  }
}
