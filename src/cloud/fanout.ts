/**
 * Fan-out: notify every live subscriber of a changed feed, in parallel with bounded concurrency
 * (per host, so one aggregator with 10,000 callbacks gets a steady stream over reused keep-alive
 * connections instead of 10,000 sockets at once; and overall). Each delivery has its own 4 s
 * budget. Outcomes are written to the store in batches, one transaction each.
 *
 * The reference cloud fired every notification at once (Promise.all) and lost thousands of
 * 10,000 on one host; bounding per host keeps every request inside its timeout.
 */
import type { Clock } from '../common/clock.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { type DeliveryOptions, notificationRequest, notifyOne } from './deliver.ts';
import type { DeliveryResult, DeliveryTarget } from './store.ts';

export interface FanoutLimits {
  /** Deliveries in flight to one host (keep at or below the client's maxSocketsPerHost). */
  perHost: number;
  /** Deliveries in flight overall. */
  total: number;
  /** Budget per delivery, redirects included. */
  timeoutMs: number;
}

export const DEFAULT_FANOUT_LIMITS: FanoutLimits = { perHost: 128, total: 512, timeoutMs: 4000 };

export interface FanoutReport {
  feedUrl: string;
  subscribers: number;
  delivered: number;
  failed: number;
  elapsedMs: number;
}

export interface FanoutDeps {
  http: HttpClient;
  clock: Clock;
  /** Writes a batch of outcomes (one transaction). */
  record: (results: DeliveryResult[]) => void;
  /** Called per delivery, for the log. */
  onDelivery?: (sub: DeliveryTarget, result: DeliveryResult) => void;
  limits?: Partial<FanoutLimits>;
  signal?: AbortSignal;
}

const BATCH = 500;

export async function fanOut(
  deps: FanoutDeps,
  feedUrl: string,
  subs: readonly DeliveryTarget[],
): Promise<FanoutReport> {
  const limits = { ...DEFAULT_FANOUT_LIMITS, ...deps.limits };
  const started = performance.now();
  const pending: DeliveryResult[] = [];
  let delivered = 0;
  let failed = 0;
  const flush = () => {
    if (pending.length > 0) deps.record(pending.splice(0, pending.length));
  };

  // Built once per protocol/procedure, not once per subscriber.
  const prepared = new Map<string, ReturnType<typeof notificationRequest>>();
  const requestFor = (s: DeliveryTarget) => {
    const key = `${s.protocol}\n${s.notifyProcedure ?? ''}`;
    let r = prepared.get(key);
    if (!r) {
      r = notificationRequest(s, feedUrl);
      prepared.set(key, r);
    }
    return r;
  };

  // The signal stops workers between deliveries; it is not handed to each request (AbortSignal.any
  // per request costs time and memory at 10,000). In-flight requests end by their own deadline,
  // or at once when the owner closes the client.
  const opts: DeliveryOptions = { timeoutMs: limits.timeoutMs };
  const total = new Semaphore(limits.total);

  const deliver = async (sub: DeliveryTarget) => {
    const req = requestFor(sub);
    await total.acquire();
    let outcome: DeliveryResult;
    try {
      const r = req.ok ? await notifyOne(deps.http, sub, feedUrl, opts, req.value) : req;
      outcome = r.ok
        ? { id: sub.id, ok: true, at: deps.clock.now() }
        : { id: sub.id, ok: false, at: deps.clock.now(), error: r.error.message };
    } catch (e) {
      outcome = {
        id: sub.id,
        ok: false,
        at: deps.clock.now(),
        error: e instanceof Error ? e.message : String(e),
      };
    } finally {
      total.release();
    }
    if (outcome.ok) delivered++;
    else failed++;
    pending.push(outcome);
    deps.onDelivery?.(sub, outcome);
    if (pending.length >= BATCH) flush();
  };

  // One queue per host, drained by at most `perHost` workers.
  const byHost = new Map<string, DeliveryTarget[]>();
  for (const s of subs) {
    const host = hostKey(s.callbackUrl);
    const list = byHost.get(host);
    if (list) list.push(s);
    else byHost.set(host, [s]);
  }
  const workers: Promise<void>[] = [];
  for (const queue of byHost.values()) {
    let next = 0;
    const worker = async () => {
      while (next < queue.length) {
        if (deps.signal?.aborted) return;
        await deliver(queue[next++]!);
      }
    };
    for (let i = 0; i < Math.min(limits.perHost, queue.length); i++) workers.push(worker());
  }
  await Promise.all(workers);
  flush();
  return {
    feedUrl,
    subscribers: subs.length,
    delivered,
    failed,
    elapsedMs: Math.round(performance.now() - started),
  };
}

function hostKey(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A counting semaphore: at most `n` holders; waiters are served in order. */
export class Semaphore {
  private available: number;
  private readonly waiters: (() => void)[] = [];

  constructor(n: number) {
    this.available = Math.max(1, n);
  }

  acquire(): Promise<void> {
    if (this.available > 0) {
      this.available--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.available++;
  }
}
