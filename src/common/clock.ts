/**
 * Time as an argument: core code never calls Date.now() or setTimeout directly, so tests drive
 * time without sleeping (ARCHITECTURE: "Core functions take their clock").
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` of this clock's time. */
  setTimer(ms: number, fn: () => void): TimerHandle;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

/** A clock tests move by hand: `advance(ms)` fires every timer that falls due, in order. */
export class ManualClock implements Clock {
  private current: number;
  private timers: { at: number; seq: number; fn: () => void; cancelled: boolean }[] = [];
  private seq = 0;

  constructor(start: number | string = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'string' ? Date.parse(start) : start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  /** Moves time forward, firing due timers (including ones they schedule) in time order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const live = this.timers.filter((t) => !t.cancelled && t.at <= target);
      if (live.length === 0) break;
      live.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = live[0]!;
      next.cancelled = true;
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.timers = this.timers.filter((t) => !t.cancelled);
    this.current = target;
  }

  set(isoOrMs: string | number): void {
    const t = typeof isoOrMs === 'string' ? Date.parse(isoOrMs) : isoOrMs;
    this.advance(Math.max(0, t - this.current));
  }

  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
