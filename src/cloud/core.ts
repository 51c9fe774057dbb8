/**
 * What the cloud does, independent of how it was asked (REST, XML-RPC, or the app in-process):
 * pleaseNotify (read the feed, verify the handler, store the subscription), ping (read, compare,
 * fan out), saveRss (check the login, check it is a feed, store it, fan out), and the sweep of
 * expired subscriptions. Answers carry the reference cloud's messages.
 */
import type { Clock } from '../common/clock.ts';
import { isAddressAllowed } from '../net/host-guard.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { maskUrl } from '../net/mask.ts';
import type { HostPolicy } from '../net/types.ts';
import type { Outcome } from './answers.ts';
import { verifyHandler } from './deliver.ts';
import { type FanoutLimits, type FanoutReport, fanOut } from './fanout.ts';
import type { CloudLog } from './log.ts';
import { messages } from './messages.ts';
import type { PleaseNotifyParams } from './params.ts';
import { checkResource, type ResourceCheck } from './resource.ts';
import type { CloudStore } from './store.ts';

/** Subscriptions expire this long after the last successful request (RSSCLOUD.md: 25 hours). */
export const SUBSCRIPTION_TTL_MS = 25 * 60 * 60 * 1000;

export interface CoreDeps {
  store: CloudStore;
  /** Feed reads and handler verification. */
  http: HttpClient;
  /** Notifications (a client with many sockets per host). */
  notifyHttp: HttpClient;
  clock: Clock;
  log: CloudLog;
  policy: HostPolicy;
  minPingIntervalSec: number;
  /** How long a ping answer waits for its fan-out (0: answer right after the read and compare). */
  pingWaitMs: number;
  fanout?: Partial<FanoutLimits>;
  /** Budget for each handler test and notification (default 4 s). */
  notifyTimeoutMs?: number;
}

export class CloudCore {
  private readonly deps: CoreDeps;
  /** Running fan-outs, so close() and idle() can wait for them. */
  private readonly running = new Set<Promise<FanoutReport>>();
  /** Per-feed chains: two pings of one feed read and compare one after the other, never both "changed". */
  private readonly checks = new Map<string, Promise<unknown>>();
  /** The newest read queued or under way per feed, for registrations to share. */
  private readonly latest = new Map<string, Promise<ResourceCheck>>();
  private readonly abort = new AbortController();

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  async pleaseNotify(p: PleaseNotifyParams): Promise<Outcome> {
    if (p.urls.length === 0) return { success: false, msg: messages.noResources };
    const results = await Promise.allSettled(p.urls.map((url) => this.subscribeOne(p, url)));
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected.length === results.length) {
      // As the reference cloud: the last failure's message.
      const last = rejected.at(-1)?.reason;
      return { success: false, msg: last instanceof Error ? last.message : String(last) };
    }
    return { success: true, msg: messages.subscribed };
  }

  private async subscribeOne(p: PleaseNotifyParams, feedUrl: string): Promise<void> {
    const { store, clock, log } = this.deps;
    const started = clock.now();
    // A burst of registrations for one feed shares a read already under way instead of queueing
    // one read each; only the read's owner starts a fan-out for what it found.
    const joined = this.latest.get(feedUrl);
    const check = await (joined ?? this.check(feedUrl, true));
    if (check.kind === 'unreadable') {
      store.bump('registrationsFailed');
      log.add({ kind: 'subscribeFailed', feedUrl, callbackUrl: p.callbackUrl, detail: check.reason });
      throw new Error(messages.subscriptionReadResource(feedUrl));
    }
    // A change seen while registering reaches the feed's existing subscribers too: the reference
    // cloud's pleaseNotify pings the resource first.
    if (check.kind === 'changed' && !joined) void this.startFanout(feedUrl);
    const refusal = p.callbackUrl
      ? this.refuseCallback(p.callbackUrl)
      : 'the callback address is not a valid URL';
    let reason = refusal;
    if (!reason && p.callbackUrl) {
      const target = { callbackUrl: p.callbackUrl, protocol: p.protocol, notifyProcedure: p.notifyProcedure };
      const verified = await verifyHandler(
        this.deps.http,
        target,
        feedUrl,
        p.diffDomain,
        this.deliveryOptions(),
      );
      if (verified.ok) {
        store.upsertSubscription({ ...target, feedUrl }, clock.now(), clock.now() + SUBSCRIPTION_TTL_MS);
        store.bump('registrations');
        log.add({ kind: 'subscribe', feedUrl, callbackUrl: p.callbackUrl, ms: clock.now() - started });
        return;
      }
      reason = verified.error.message;
    }
    store.bump('registrationsFailed');
    log.add({ kind: 'subscribeFailed', feedUrl, callbackUrl: p.callbackUrl, detail: reason ?? undefined });
    throw new Error(messages.failedHandler);
  }

  /** A ping: read, compare, and on change start the fan-out. */
  async ping(
    feedUrl: string,
    opts: { enforceInterval?: boolean } = {},
  ): Promise<Outcome & { changed: boolean }> {
    const { store, log, clock } = this.deps;
    const started = clock.now();
    store.bump('pings');
    const check = await this.check(feedUrl, opts.enforceInterval ?? true);
    if (check.kind === 'tooRecent') {
      log.add({ kind: 'pingRefused', feedUrl, detail: 'too soon after the last ping' });
      return {
        success: false,
        msg: messages.pingTooRecent(check.minSeconds, check.agoSeconds),
        changed: false,
      };
    }
    if (check.kind === 'unreadable') {
      log.add({ kind: 'pingFailed', feedUrl, detail: check.reason });
      return { success: false, msg: messages.pingReadResource(feedUrl), changed: false };
    }
    const changed = check.kind === 'changed';
    log.add({ kind: 'ping', feedUrl, detail: changed ? 'changed' : 'unchanged', ms: clock.now() - started });
    if (changed) await this.waitBriefly(this.startFanout(feedUrl));
    return { success: true, msg: messages.pinged, changed };
  }

  /** Fan-out after a change we learned about without reading (saveRss). */
  notifyChanged(feedUrl: string): Promise<FanoutReport> {
    return this.startFanout(feedUrl);
  }

  /** Resolves when no fan-out is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.checks.size > 0) {
      await Promise.allSettled([...this.running, ...this.checks.values()]);
    }
  }

  /** Removes expired subscriptions; returns how many. */
  sweep(): number {
    const removed = this.deps.store.removeExpired(this.deps.clock.now());
    if (removed > 0)
      this.deps.log.add({ kind: 'expired', detail: `${removed} expired subscription(s) removed` });
    return removed;
  }

  /**
   * Stops fan-outs: no new deliveries start; those in flight end by their deadline (at once when
   * the caller closes the notify client first, as Cloud.close does with its own).
   */
  stop(): void {
    this.abort.abort();
  }

  private check(url: string, enforceInterval: boolean): Promise<ResourceCheck> {
    const prev = this.checks.get(url) ?? Promise.resolve();
    const run = prev.then(() =>
      checkResource(
        {
          http: this.deps.http,
          store: this.deps.store,
          now: () => this.deps.clock.now(),
          minPingIntervalSec: this.deps.minPingIntervalSec,
        },
        url,
        enforceInterval,
      ),
    );
    const tail = run.catch(() => undefined);
    this.checks.set(url, tail);
    this.latest.set(url, run);
    void tail.then(() => {
      if (this.checks.get(url) === tail) this.checks.delete(url);
      if (this.latest.get(url) === run) this.latest.delete(url);
    });
    return run;
  }

  private startFanout(feedUrl: string): Promise<FanoutReport> {
    const { store, clock, log } = this.deps;
    // Read a page at a time (store.liveTargetPages): 100,000 targets held at once were ~40 MB.
    const firstPages = store.liveTargetPages(feedUrl, clock.now());
    const first = firstPages();
    let served = false;
    const subs = () => {
      if (served) return firstPages();
      served = true;
      return first;
    };
    // Each notification is logged only for a small fan-out (the first page is all there is).
    const small = first.length <= 20;
    store.bump('changes');
    const job = fanOut(
      {
        http: this.deps.notifyHttp,
        clock,
        record: (results) => store.recordDeliveries(results),
        onDelivery: (sub, r) => {
          if (!r.ok)
            log.add({ kind: 'notifyFailed', feedUrl, callbackUrl: sub.callbackUrl, detail: r.error });
          else if (small) log.add({ kind: 'notify', feedUrl, callbackUrl: sub.callbackUrl });
        },
        limits: {
          ...this.deps.fanout,
          ...(this.deps.notifyTimeoutMs ? { timeoutMs: this.deps.notifyTimeoutMs } : {}),
        },
        signal: this.abort.signal,
        policy: this.deps.policy, // plain-http deliveries take the lean pool (notify-pool.ts)
      },
      feedUrl,
      subs,
    );
    const tracked = job.then((report) => {
      if (report.subscribers > 0) {
        log.add({
          kind: 'fanout',
          feedUrl,
          detail: `${report.delivered} of ${report.subscribers} subscriber(s) notified, ${report.failed} failed`,
          ms: report.elapsedMs,
        });
      }
      return report;
    });
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked)).catch(() => undefined);
    return tracked;
  }

  private async waitBriefly(job: Promise<FanoutReport>): Promise<void> {
    const ms = this.deps.pingWaitMs;
    if (ms <= 0) return;
    let timer: { cancel(): void } | undefined;
    await Promise.race([
      job.catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = this.deps.clock.setTimer(ms, resolve);
      }),
    ]);
    timer?.cancel();
  }

  /** A readable reason when the callback host is an address the operator has not opened. */
  private refuseCallback(callbackUrl: string): string | null {
    let host: string;
    try {
      host = new URL(callbackUrl).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return 'the callback address is not a valid URL';
    }
    const verdict = isAddressAllowed(host, this.deps.policy);
    if (verdict.kind === 'invalid' || verdict.allowed) return null; // names are checked when dialled
    const hint = this.deps.policy.howToAllow?.[verdict.kind === 'loopback' ? 'loopback' : 'private'];
    return `callbacks to ${verdict.kind} addresses are refused (${maskUrl(callbackUrl)})${hint ? `; to allow them, ${hint}` : ''}`;
  }

  private deliveryOptions() {
    return {
      ...(this.deps.notifyTimeoutMs ? { timeoutMs: this.deps.notifyTimeoutMs } : {}),
      signal: this.abort.signal,
    };
  }
}
