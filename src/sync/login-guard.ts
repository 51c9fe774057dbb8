/**
 * How many password checks the sync APIs make: each costs one scrypt (tens of ms of CPU), and a
 * guessing caller must not get many. Two token buckets (src/cloud/budget.ts): one per caller
 * address, and one over everybody, since through a tunnel a caller can pose as many addresses.
 * What a login already proved is not counted again: a live session token, a Fever key already
 * checked (account.ts), so a phone that is logged in keeps syncing while someone else guesses.
 */
import { CallerBudget, type Spend } from '../cloud/core/budget.ts';
import type { Clock } from '../common/clock.ts';

export interface LoginLimits {
  /** Password checks per caller address per minute (and at once). */
  perCaller: number;
  /** Password checks per minute over every caller. */
  overall: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perCaller: 10, overall: 60 };

export class LoginGuard {
  private readonly perCaller: CallerBudget;
  private readonly overall: CallerBudget;

  constructor(clock: Pick<Clock, 'now'>, limits: Partial<LoginLimits> = {}) {
    const l = { ...DEFAULT_LOGIN_LIMITS, ...limits };
    this.perCaller = new CallerBudget(clock, { perMinute: l.perCaller, burst: l.perCaller });
    this.overall = new CallerBudget(clock, { perMinute: l.overall, burst: l.overall });
  }

  /** One password check for `caller`, or how long to wait. */
  attempt(caller: string): Spend {
    const mine = this.perCaller.spend(caller, 1);
    if (!mine.ok) return mine;
    return this.overall.spend('*', 1);
  }
}
