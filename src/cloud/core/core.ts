/**
 * What the cloud does, independent of how it was asked (REST, XML-RPC, or the app in-process):
 * pleaseNotify (read the feed, verify the handler, store the subscription), ping (read, compare,
 * fan out), saveRss (check the login, check it is a feed, store it, fan out), and the sweep of
 * expired subscriptions. Answers carry the reference cloud's messages.
 */
import type { Clock } from '../../common/clock.ts';
import { isAddressAllowed } from '../../net/host-guard.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
import type { HostPolicy } from '../../net/types.ts';
import { type TopicContent, verifyHandler } from '../delivery/deliver.ts';
import {
  DEFAULT_FANOUT_LIMITS,
  type FanoutLimits,
  type FanoutReport,
  fanOut,
  type TargetSource,
} from '../delivery/fanout.ts';
import type { BatchDeliverer, DeliveryQueue, QueuedChange } from '../delivery/queue.ts';
import { targetPages } from '../store/rows.ts';
import type { CloudStore, DeliveryResult, DeliveryTarget } from '../store/store.ts';
import type { CloudLog } from './log.ts';
import { messages } from './messages.ts';
import { type CloudObserver, outcomeOf, pingOutcomeOf } from './observer.ts';
import { checkResource, type ResourceCheck } from './resource.ts';
import type { Outcome, PleaseNotifyParams } from './types.ts';

/** Subscriptions expire this long after the last successful request (RSSCLOUD.md: 25 hours). */
export const SUBSCRIPTION_TTL_MS = 25 * 60 * 60 * 1000;
/** Resources nobody subscribes to are forgotten this long after their last change (the reference: 7 days). */
export const RESOURCE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** A failed WebSub delivery is tried again after these delays (then left to the next change). */
export const DEFAULT_CONTENT_RETRY_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000];
/** WebSub deliveries kept for retry after one fan-out, at most (the rest wait for the next change). */
const MAX_RETRIES_PER_FANOUT = 10_000;

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
  /** How long an rssCloud subscription lasts after its last registration (default 25 h). */
  subscriptionTtlMs?: number;
  /** The hub's URL for WebSub deliveries' Link header. */
  hubUrl: () => string;
  /** Delays before retrying failed WebSub deliveries (default DEFAULT_CONTENT_RETRY_MS). */
  contentRetryMs?: readonly number[];
  /** Several instances on PostgreSQL: changes go through the shared queue (delivery/queue.ts). */
  queue?: DeliveryQueue;
  /** Told each registration's, ping's and delivery's outcome (`tidings cloud`'s /metrics). */
  observer?: CloudObserver;
}

export class CloudCore {
  private readonly deps: CoreDeps;
  /** Running fan-outs with when each started, so close() and idle() can wait for them. */
  private readonly running = new Map<Promise<FanoutReport>, number>();
  /** Per-feed chains: two pings of one feed read and compare one after the other, never both "changed". */
  private readonly checks = new Map<string, Promise<unknown>>();
  /** The newest read queued or under way per feed, for registrations to share. */
  private readonly latest = new Map<string, Promise<ResourceCheck>>();
  private readonly abort = new AbortController();
  private readonly retryTimers = new Set<{ cancel(): void }>();

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
    const check = await this.readForSubscriber(feedUrl);
    if (check.kind === 'unreadable') {
      await store.bump('registrationsFailed');
      this.deps.observer?.registered(p.protocol, check.timedOut ? 'timedOut' : 'failed');
      log.add({ kind: 'subscribeFailed', feedUrl, callbackUrl: p.callbackUrl, detail: check.reason });
      throw new Error(messages.subscriptionReadResource(feedUrl));
    }
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
      this.deps.observer?.registered(p.protocol, outcomeOf(verified));
      if (verified.ok) {
        await store.upsertSubscription(
          { ...target, feedUrl },
          clock.now(),
          clock.now() + this.subscriptionTtlMs,
        );
        await store.bump('registrations');
        log.add({ kind: 'subscribe', feedUrl, callbackUrl: p.callbackUrl, ms: clock.now() - started });
        return;
      }
      reason = verified.error.message;
    }
    await store.bump('registrationsFailed');
    if (refusal) this.deps.observer?.registered(p.protocol, 'failed');
    log.add({ kind: 'subscribeFailed', feedUrl, callbackUrl: p.callbackUrl, detail: reason ?? undefined });
    throw new Error(messages.failedHandler);
  }

  get subscriptionTtlMs(): number {
    return this.deps.subscriptionTtlMs ?? SUBSCRIPTION_TTL_MS;
  }

  /**
   * The read before accepting a subscriber (rssCloud or WebSub). A burst of registrations for
   * one feed shares a read already under way instead of queueing one read each; only the read's
   * owner starts a fan-out for what it found: a change seen while registering reaches the feed's
   * existing subscribers too (the reference cloud's pleaseNotify pings the resource first).
   */
  async readForSubscriber(feedUrl: string): Promise<ResourceCheck> {
    const joined = this.latest.get(feedUrl);
    const check = await (joined ?? this.check(feedUrl, true));
    // The subscribers of this change are read before the new one is added: it is not told of
    // the read that made it a subscriber.
    if (check.kind === 'changed' && !joined)
      await this.startFanout(feedUrl, check.content, { queued: check.queued }).listed;
    return check;
  }

  /** Runs `work` tracked, so idle() and close() wait for it (WebSub verifications, publishes). */
  track<T>(work: Promise<T>): Promise<T> {
    const tail = work.then(
      () => undefined,
      () => undefined,
    );
    this.side.add(tail);
    void tail.then(() => this.side.delete(tail));
    return work;
  }
  private readonly side = new Set<Promise<unknown>>();

  /** A ping: read, compare, and on change start the fan-out. */
  async ping(
    feedUrl: string,
    opts: { enforceInterval?: boolean } = {},
  ): Promise<Outcome & { changed: boolean }> {
    const { store, log, clock } = this.deps;
    const started = clock.now();
    await store.bump('pings');
    const check = await this.check(feedUrl, opts.enforceInterval ?? true);
    this.deps.observer?.pinged(pingOutcomeOf(check));
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
    if (check.kind === 'changed') {
      const fanout = this.startFanout(feedUrl, check.content, { queued: check.queued });
      await fanout.listed;
      await this.waitBriefly(fanout.report);
    }
    return { success: true, msg: messages.pinged, changed };
  }

  /**
   * Fan-out after a change we learned about without reading. WebSub subscribers get `content`
   * when given; else the feed is read once for them, only if the feed has any.
   */
  notifyChanged(feedUrl: string, content?: TopicContent): Promise<FanoutReport> {
    return this.startFanout(feedUrl, content ?? null).report;
  }

  /** Resolves when no fan-out, read or verification is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.checks.size > 0 || this.side.size > 0) {
      await Promise.allSettled([...this.running.keys(), ...this.checks.values(), ...this.side]);
    }
  }

  /** Fan-outs under way on this instance, and when the oldest of them started (/metrics). */
  underway(): { fanouts: number; oldestStartedAt: number | null } {
    let oldest: number | null = null;
    for (const at of this.running.values()) if (oldest === null || at < oldest) oldest = at;
    return { fanouts: this.running.size, oldestStartedAt: oldest };
  }

  /**
   * Removes expired subscriptions (and those failing 3 times in a row), then resources nobody
   * subscribes to that have not changed or been read for 7 days; returns how many subscriptions went.
   */
  async sweep(now = this.deps.clock.now()): Promise<number> {
    const { subscriptionsRemoved, resourcesRemoved } = await this.deps.store.sweep(
      now,
      RESOURCE_RETENTION_MS,
    );
    if (subscriptionsRemoved > 0 || resourcesRemoved > 0)
      this.deps.log.add({
        kind: 'expired',
        detail: `${subscriptionsRemoved} expired subscription(s) and ${resourcesRemoved} unused resource(s) removed`,
      });
    return subscriptionsRemoved;
  }

  /**
   * Stops fan-outs: no new deliveries start; those in flight end by their deadline (at once when
   * the caller closes the notify client first, as Cloud.close does with its own).
   */
  stop(): void {
    this.abort.abort();
    for (const t of this.retryTimers) t.cancel();
    this.retryTimers.clear();
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
          // Several instances: the change is queued in the statement that records the read.
          ...(this.deps.queue
            ? { recordChange: this.deps.queue.recordAndEnqueue.bind(this.deps.queue) }
            : {}),
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

  /**
   * Delivers the change to every live subscriber by its own protocol: rssCloud subscribers are
   * told the URL, WebSub subscribers get `content` (the body as read; null: read once here when
   * the first page holds a WebSub subscriber, as after notifyChanged without a body).
   */
  private startFanout(
    feedUrl: string,
    content: TopicContent | null,
    opts: {
      retry?: { targets: DeliveryTarget[]; attempt: number; hash: string | null } | undefined;
      /** Queued already, with the read that found the change (ResourceDeps.recordChange). */
      queued?: QueuedChange | undefined;
    } = {},
  ): { report: Promise<FanoutReport>; listed: Promise<void> } {
    const { retry, queued: already } = opts;
    const { store, clock, log, queue } = this.deps;
    let listedNow: () => void = () => undefined;
    const listed = new Promise<void>((resolve) => {
      listedNow = resolve;
    });
    const run = async (): Promise<FanoutReport> => {
      if (queue && !retry) {
        // Several instances (delivery/queue.ts): the change becomes rows of the shared queue, which
        // every instance delivers from; the report waits for the last of them.
        const queued = already ?? (await queue.enqueue(feedUrl, content, clock.now()));
        listedNow();
        await store.bump('changes');
        return queued.subscribers === 0
          ? { feedUrl, subscribers: 0, delivered: 0, failed: 0, elapsedMs: 0 }
          : queue.done(queued.changeId, feedUrl);
      }
      // Read a page at a time (targetPages): 100,000 targets held at once were ~40 MB.
      const firstPages = retry ? null : targetPages(store, feedUrl, clock.now());
      const first = retry ? retry.targets : await firstPages!().finally(listedNow);
      let served = false;
      const subs = async () => {
        if (served) return firstPages ? firstPages() : [];
        served = true;
        return first;
      };
      if (!retry) await store.bump('changes');
      return this.deliver(feedUrl, content, first, subs, (results) => store.recordDeliveries(results), {
        retry,
      });
    };
    const job = run();
    void job.catch(() => undefined).finally(listedNow);
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
    this.running.set(tracked, clock.now());
    void tracked.finally(() => this.running.delete(tracked)).catch(() => undefined);
    return { report: tracked, listed };
  }

  /**
   * One fan-out over `source` (the first page given as `first`), logged and with failed WebSub
   * deliveries scheduled for retry: the whole change on one instance, or a claimed batch of it
   * (delivery/queue.ts). Each notification is logged only for a small fan-out.
   */
  private async deliver(
    feedUrl: string,
    content: TopicContent | null,
    first: readonly DeliveryTarget[],
    source: TargetSource,
    record: (results: DeliveryResult[]) => Promise<void>,
    opts: {
      retry?: { attempt: number; hash: string | null } | undefined;
      signal?: AbortSignal;
      /** Fan-outs of this instance sharing each host's sockets (the queue's claims in flight). */
      share?: number;
    },
  ): Promise<FanoutReport> {
    const { store, clock, log } = this.deps;
    const failedContent: DeliveryTarget[] = [];
    const small = first.length <= 20;
    const body =
      content ?? (first.some((s) => s.protocol === 'websub') ? await this.readContent(feedUrl) : null);
    const report = await fanOut(
      {
        http: this.deps.notifyHttp,
        clock,
        record,
        onDelivery: (sub, r) => {
          this.deps.observer?.delivered(sub.protocol, r.ok ? 'ok' : r.timedOut ? 'timedOut' : 'failed');
          if (!r.ok) {
            log.add({
              kind: 'notifyFailed',
              feedUrl,
              callbackUrl: sub.callbackUrl,
              detail: r.gone ? `${r.error}; subscription removed` : r.error,
            });
            if (sub.protocol === 'websub' && !r.gone && failedContent.length < MAX_RETRIES_PER_FANOUT)
              failedContent.push(sub);
          } else if (small) log.add({ kind: 'notify', feedUrl, callbackUrl: sub.callbackUrl });
        },
        limits: {
          ...this.deps.fanout,
          ...(this.deps.notifyTimeoutMs ? { timeoutMs: this.deps.notifyTimeoutMs } : {}),
          // Claims delivered side by side split the host's sockets between them: each taking them
          // all, requests queued for a socket spent their 4 s budget waiting (failures under load).
          ...(opts.share && opts.share > 1
            ? {
                perHost: Math.max(
                  1,
                  Math.floor((this.deps.fanout?.perHost ?? DEFAULT_FANOUT_LIMITS.perHost) / opts.share),
                ),
              }
            : {}),
        },
        // The caller's signal (a queue's instance stopping) stops new deliveries; closing the
        // cloud (stop()) also ends those in flight.
        signal: opts.signal ? AbortSignal.any([opts.signal, this.abort.signal]) : this.abort.signal,
        endInFlight: this.abort.signal,
        policy: this.deps.policy, // plain-http deliveries take the lean pool (notify-pool.ts)
        websub: { content: body, hubUrl: this.deps.hubUrl() },
      },
      feedUrl,
      source,
    );
    if (body && failedContent.length > 0) {
      const hash = opts.retry ? opts.retry.hash : ((await store.getResource(feedUrl))?.lastHash ?? null);
      this.scheduleRetry(feedUrl, body, failedContent, (opts.retry?.attempt ?? 0) + 1, hash);
    }
    return report;
  }

  /** A claimed batch of a queued change (delivery/queue.ts), delivered as a fan-out of its own. */
  readonly deliverBatch: BatchDeliverer = (feedUrl, content, targets, record, signal) =>
    this.deliver(feedUrl, content, targets, targets, record, {
      signal,
      share: this.deps.queue?.limits.batches ?? 1,
    });

  /**
   * WebSub deliveries that failed (not 410) are tried again after a growing delay, with the same
   * body, unless the topic changed since (the newer body went to everyone by then).
   */
  private scheduleRetry(
    feedUrl: string,
    content: TopicContent,
    targets: DeliveryTarget[],
    attempt: number,
    hash: string | null,
  ): void {
    const delays = this.deps.contentRetryMs ?? DEFAULT_CONTENT_RETRY_MS;
    const delay = delays[attempt - 1];
    if (delay === undefined || this.abort.signal.aborted) return;
    const timer = this.deps.clock.setTimer(delay, () => {
      this.retryTimers.delete(timer);
      if (this.abort.signal.aborted) return;
      void this.track(this.retry(feedUrl, content, targets, attempt, hash));
    });
    this.retryTimers.add(timer);
  }

  private async retry(
    feedUrl: string,
    content: TopicContent,
    targets: DeliveryTarget[],
    attempt: number,
    hash: string | null,
  ): Promise<void> {
    const { store, clock } = this.deps;
    if (((await store.getResource(feedUrl))?.lastHash ?? null) !== hash) return;
    // Only those still subscribed (a renewal, an unsubscribe or a 410 may have happened since).
    const live = new Set((await store.liveTargets(feedUrl, clock.now())).map((t) => t.id));
    const still = targets.filter((t) => live.has(t.id));
    if (still.length > 0)
      void this.startFanout(feedUrl, content, { retry: { targets: still, attempt, hash } }).report;
  }

  /** The topic's body for WebSub subscribers when the change came without one. */
  private async readContent(feedUrl: string): Promise<TopicContent | null> {
    const saved = await this.deps.store.savedFeedByUrl(feedUrl);
    if (saved) return { body: Buffer.from(saved.body), contentType: saved.contentType };
    const res = await this.deps.http.fetchFeed({ url: feedUrl, etag: null, lastModified: null });
    return res.kind === 'ok' ? { body: res.body, contentType: res.contentType } : null;
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
  refuseCallback(callbackUrl: string): string | null {
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
