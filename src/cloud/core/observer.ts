/**
 * What the cloud tells an observer as it works, for figures the log's entries do not carry: the
 * protocol and outcome of each registration, ping and delivery, and each refusal of a caller's
 * budget. `tidings cloud` counts them for /metrics (ops/metrics.ts); the app passes none.
 *
 * Calls are synchronous and on the hot path (one per delivery of a 100,000 fan-out): an observer
 * adds to a number and returns. It must not throw; the cloud does not catch for it.
 */
import type { SubscriberProtocol } from '../store/store.ts';
import type { ResourceCheck } from './resource.ts';

/** How an attempt ended: `timedOut` when the other side did not answer in time. */
export type AttemptOutcome = 'ok' | 'failed' | 'timedOut';

/** How a ping ended: the feed read changed or unchanged, unreadable, or refused (too soon). */
export type PingOutcome = 'changed' | 'unchanged' | 'failed' | 'timedOut' | 'refused';

/** Which budget refused a request (core/budget.ts), or the per-request cap on resources. */
export type RefusedBudget = 'registrations' | 'pings' | 'resources';

export interface CloudObserver {
  /** A subscriber's registration ended (rssCloud: after the handler test; WebSub: after the intent check). */
  registered(protocol: SubscriberProtocol, outcome: AttemptOutcome): void;
  /** A ping (any door's, or a publish) ended. */
  pinged(outcome: PingOutcome): void;
  /** One delivery to one subscriber ended. */
  delivered(protocol: SubscriberProtocol, outcome: AttemptOutcome): void;
  /** A request was refused before any work, for its caller's budget. */
  refused(budget: RefusedBudget): void;
}

/** The error keys of an attempt that ran out of time (net/net-errors.ts, delivery/deliver.ts). */
const TIMEOUT_KEYS = new Set(['http.timeout', 'http.connectTimeout', 'cloud.timeout']);

export function isTimeoutKey(key: string | undefined): boolean {
  return key !== undefined && TIMEOUT_KEYS.has(key);
}

/** An attempt's outcome from its result: ok, or failed unless its error was a timeout. */
export function outcomeOf(result: { ok: true } | { ok: false; error: { code: string } }): AttemptOutcome {
  if (result.ok) return 'ok';
  return isTimeoutKey(result.error.code) ? 'timedOut' : 'failed';
}

/** A ping's outcome from its read (core.ts). */
export function pingOutcomeOf(check: ResourceCheck): PingOutcome {
  switch (check.kind) {
    case 'tooRecent':
      return 'refused';
    case 'unreadable':
      return check.timedOut ? 'timedOut' : 'failed';
    default:
      return check.kind;
  }
}
