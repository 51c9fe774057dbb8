/**
 * How much outbound work one caller may make the cloud do. A pleaseNotify makes the cloud read
 * each feed named and test the caller's handler once per feed; a ping makes it read one feed. A
 * public cloud that does this without bound is a request cannon: issue 10 measured one 1 MB
 * pleaseNotify with 15,000 URLs turned into 30,000 requests in 4.5 s, pointable at any host.
 *
 * Two limits, refused with the reference cloud's kind of sentence (messages.ts):
 * - at most `maxUrlsPerRequest` resources in one pleaseNotify;
 * - a token bucket per caller address: `perMinute` units (one read or one handler test each),
 *   refilled continuously, holding at most `burst`: an aggregator registering its 2,000 feeds at
 *   start (as River5 does once a day) gets through, a steady client is never refused, and a
 *   flood is cut to `perMinute`.
 * The bucket map is bounded: callers whose bucket is full again are forgotten first.
 */
import type { Clock } from '../../common/clock.ts';

export interface CallerLimits {
  /** Resources one pleaseNotify may name (the reference cloud has no cap; 100 is generous). */
  maxUrlsPerRequest: number;
  /** Reads and handler tests one caller may cause per minute, on average. */
  perMinute: number;
  /** What a caller may spend at once after a quiet spell (the bucket's size). */
  burst: number;
}

export const DEFAULT_CALLER_LIMITS: CallerLimits = { maxUrlsPerRequest: 100, perMinute: 1_000, burst: 5_000 };
/** Pings and publishes, a budget of their own: one read each, so a publisher's pings never wait behind registrations. */
export const DEFAULT_PING_LIMITS: Partial<CallerLimits> = { perMinute: 1_000, burst: 5_000 };

/** Units: a pleaseNotify costs a read and a handler test per resource; a ping costs a read. */
export const cost = {
  pleaseNotify: (urls: number) => 2 * urls,
  ping: 1,
} as const;

const MAX_CALLERS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export type Spend = { ok: true } | { ok: false; left: number; retryAfterSec: number };

export class CallerBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: Pick<Clock, 'now'>;
  readonly limits: CallerLimits;

  constructor(clock: Pick<Clock, 'now'>, limits: Partial<CallerLimits> = {}) {
    this.clock = clock;
    const merged = { ...DEFAULT_CALLER_LIMITS, ...limits };
    // A bucket smaller than a minute's worth would make perMinute a lie.
    this.limits = { ...merged, burst: Math.max(merged.burst, merged.perMinute) };
  }

  /** Takes `units` from the caller's budget, or takes nothing and says when enough is back. */
  spend(caller: string, units: number): Spend {
    const now = this.clock.now();
    const { perMinute: rate, burst: max } = this.limits;
    const b = this.buckets.get(caller) ?? { tokens: max, at: now };
    const tokens = Math.min(max, b.tokens + ((now - b.at) * rate) / 60_000);
    this.buckets.delete(caller); // re-inserted below: Map order is least recently used first
    if (units > tokens) {
      this.buckets.set(caller, { tokens, at: now });
      this.trim();
      const missing = Math.min(units, max) - tokens;
      return { ok: false, left: Math.floor(tokens), retryAfterSec: Math.ceil((missing * 60) / rate) };
    }
    this.buckets.set(caller, { tokens: tokens - units, at: now });
    this.trim();
    return { ok: true };
  }

  private trim(): void {
    if (this.buckets.size <= MAX_CALLERS) return;
    // The least recently seen first; they are the likeliest to be full again.
    for (const key of this.buckets.keys()) {
      this.buckets.delete(key);
      if (this.buckets.size <= MAX_CALLERS) return;
    }
  }
}
