/**
 * What the cloud does, independent of how it was asked (REST, XML-RPC, or the app in-process):
 * pleaseNotify (read the feed, verify the handler, store the subscription), ping (read, compare,
 * fan out), saveRss (check the login, check it is a feed, store it, fan out), and the sweep of
 * expired subscriptions. Answers carry the reference cloud's messages.
 */
import type { Clock } from '../../common/clock.ts';
import { describeError } from '../../common/errors.ts';
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
import { RetryRunner } from '../delivery/retries.ts';
import { targetPages } from '../store/rows.ts';
import {
  type CloudStore,
  type DeliveryResult,
  type DeliveryTarget,
  type RetryStore,
  retryStoreOf,
} from '../store/store.ts';
import type { CloudLog } from './log.ts';
import { messages } from './messages.ts';
import { type CloudObserver, outcomeOf, pingOutcomeOf } from './observer.ts';
import { checkResource, type ResourceCheck } from './resource.ts';
import type { Outcome, PleaseNotifyParams } from './types.ts';

/** Subscriptions expire this long after the last successful request (RSSCLOUD.md: 25 hours). */
export const SUBSCRIPTION_TTL_MS = 25 * 60 * 60 * 1000;
/** Resources nobody subscribes to are forgotten this long after their last change (the reference: 7 days). */
export const RESOURCE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How long a registration keeps its resource from the sweep should its process die before it
 * ends (a registration ends within its read's and its handler test's deadlines, seconds).
 */
const REGISTRATION_HOLD_MS = 10 * 60 * 1000;
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

/** A registration refused for a reason the caller is told (the reference's sentences). */
class Refused extends Error {}

/**
 * The caller's answer when the cloud itself failed (a store away): a neutral sentence; the cause,
 * which may name the database's address, goes to the log only.
 */
export function unavailable(log: CloudLog, what: string, cause: unknown): string {
  log.add({ kind: 'error', detail: `${what}: ${describeError(cause)}` });
  return messages.unavailable;
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

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  async pleaseNotify(p: PleaseNotifyParams): Promise<Outcome> {
    if (p.urls.length === 0) return { success: false, msg: messages.noResources };
    const results = await Promise.allSettled(p.urls.map((url) => this.subscribeOne(p, url)));
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected.length === results.length) {
      // As the reference cloud: the last failure's message (ours alone: a failure of the cloud
      // itself is told in neutral words).
      const last: unknown = rejected.at(-1)?.reason;
      return {
        success: false,
        msg: last instanceof Refused ? last.message : unavailable(this.deps.log, 'pleaseNotify', last),
      };
    }
    return { success: true, msg: messages.subscribed };
  }

  /**
   * One feed of a registration. The resource is read before the subscription is stored (the
   * handler test comes between): the registration is marked as under way meanwhile, so the sweep
   * keeps the resource though nobody subscribes to it yet (docs/decisions/0033-cloud-sweep-keeps-registrations-under-way.md).
   */
  private async subscribeOne(p: PleaseNotifyParams, feedUrl: string): Promise<void> {
    const { store, clock } = this.deps;
    const held = await store.beginRegistration(feedUrl, clock.now() + REGISTRATION_HOLD_MS);
    try {
      await this.registerOne(p, feedUrl);
    } finally {
      await store.endRegistration(held).catch(() => undefined); // else it lapses by itself
    }
  }

  private async registerOne(p: PleaseNotifyParams, feedUrl: string): Promise<void> {
    const { store, clock, log } = this.deps;
    const started = clock.now();
    // A burst of registrations for one feed shares a read already under way instead of queueing
    // one read each; only the read's owner starts a fan-out for what it found.
    const check = await this.readForSubscriber(feedUrl);
    if (check.kind === 'unreadable') {
      await store.bump('registrationsFailed');
      this.deps.observer?.registered(p.protocol, check.timedOut ? 'timedOut' : 'failed');
      log.add({ kind: 'subscribeFailed', feedUrl, callbackUrl: p.callbackUrl, detail: check.reason });
      throw new Refused(messages.subscriptionReadResource(feedUrl));
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
    throw new Refused(messages.failedHandler);
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
      await this.startFanout(feedUrl, check.content, { queued: check.queued, topicHash: check.hash }).listed;
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

  /** A ping: read, compare, and on change start the fan-out; the cloud's own failure is an outcome too. */
  async ping(
    feedUrl: string,
    opts: { enforceInterval?: boolean } = {},
  ): Promise<Outcome & { changed: boolean; unavailable?: true }> {
    try {
      return await this.pingOnce(feedUrl, opts);
    } catch (e) {
      return {
        success: false,
        msg: unavailable(this.deps.log, 'ping', e),
        changed: false,
        unavailable: true,
      };
    }
  }

  private async pingOnce(
    feedUrl: string,
    opts: { enforceInterval?: boolean },
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
      const fanout = this.startFanout(feedUrl, check.content, {
        queued: check.queued,
        topicHash: check.hash,
      });
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

  /** Resolves when no fan-out, read, verification or queued delivery is running (tests, shutdown). */
  async idle(): Promise<void> {
    const queue = this.deps.queue;
    while (this.running.size > 0 || this.checks.size > 0 || this.side.size > 0 || queue?.busy) {
      await Promise.allSettled([
        ...this.running.keys(),
        ...this.checks.values(),
        ...this.side,
        queue?.settled(),
      ]);
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
   * subscribes to that have not changed for 7 days and have no registration under way; returns
   * how many subscriptions went.
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
    this.retries?.stop();
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
      /** Queued already, with the read that found the change (ResourceDeps.recordChange). */
      queued?: QueuedChange | undefined;
      /** `content` is the body the cloud read, and this its hash (the resource's). */
      topicHash?: string;
    } = {},
  ): { report: Promise<FanoutReport>; listed: Promise<void> } {
    const { queued: already } = opts;
    const { store, clock, queue } = this.deps;
    let listedNow: () => void = () => undefined;
    const listed = new Promise<void>((resolve) => {
      listedNow = resolve;
    });
    const run = async (): Promise<FanoutReport> => {
      if (queue) {
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
      const firstPages = targetPages(store, feedUrl, clock.now());
      const first = await firstPages().finally(listedNow);
      let served = false;
      const subs = async () => {
        if (served) return firstPages();
        served = true;
        return first;
      };
      await store.bump('changes');
      // A body the cloud read is the topic as its resource's hash says; one handed to
      // notifyChanged is not (a retry of it is never dropped as outdated).
      return this.deliver(feedUrl, content, first, subs, opts.topicHash ? { topicHash: opts.topicHash } : {});
    };
    const job = run();
    void job.catch(() => undefined).finally(listedNow);
    return { report: this.trackFanout(feedUrl, job), listed };
  }

  /**
   * The fan-out `job` logged once done and kept among the running ones (idle() and close() wait
   * for them). A change nobody subscribes to is not logged; a retry (`attempt`) had subscribers.
   */
  private trackFanout(feedUrl: string, job: Promise<FanoutReport>, attempt?: number): Promise<FanoutReport> {
    const tracked = job.then((report) => {
      if (attempt !== undefined || report.subscribers > 0) {
        const retry = attempt === undefined ? '' : `retry ${attempt}: `;
        this.deps.log.add({
          kind: 'fanout',
          feedUrl,
          detail: `${retry}${report.delivered} of ${report.subscribers} subscriber(s) notified, ${report.failed} failed`,
          ms: report.elapsedMs,
        });
      }
      return report;
    });
    this.running.set(tracked, this.deps.clock.now());
    void tracked.finally(() => this.running.delete(tracked)).catch(() => undefined);
    return tracked;
  }

  /**
   * One fan-out over `source` (the first page given as `first`), logged: the whole change on one
   * instance, a claimed chunk of it (delivery/queue.ts: `record` collects the outcomes, and the
   * queue keeps the retries), or a group of due retries (`retried`). On one instance the outcomes
   * are written with the retries they call for: a failed WebSub delivery is tried again from the
   * store (delivery/retries.ts). Each notification is logged only for a small fan-out.
   */
  private async deliver(
    feedUrl: string,
    content: TopicContent | null,
    first: readonly DeliveryTarget[],
    source: TargetSource,
    opts: {
      /** The queue's collector; absent: written to the store here, with retries. */
      record?: (results: DeliveryResult[]) => Promise<void>;
      /** The body is the topic as the cloud read it, and this its hash (the resource's). */
      topicHash?: string;
      /** These are due retries of a kept content, this try being `attempt`. */
      retried?: { contentId: number; attempt: number; topicHash: string | null };
      signal?: AbortSignal;
      /** Fan-outs of this instance sharing each host's sockets (the queue's claims in flight). */
      share?: number;
    },
  ): Promise<FanoutReport> {
    const { clock, log } = this.deps;
    const small = first.length <= 20;
    const body =
      content ?? (first.some((s) => s.protocol === 'websub') ? await this.readContent(feedUrl) : null);
    // WebSub deliveries that failed (not 410), to be tried again with the same body.
    const retryIds = new Set<number>();
    const record =
      opts.record ??
      ((results: DeliveryResult[]) => this.recordOutcomes(feedUrl, body, results, retryIds, opts));
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
            if (sub.protocol === 'websub' && !r.gone && retryIds.size < MAX_RETRIES_PER_FANOUT)
              retryIds.add(sub.id);
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
    return report;
  }

  /**
   * A batch of outcomes written, on one instance with the retries they call for, in one
   * transaction: the retry of a failure is kept before anything else can happen (kill -9).
   */
  private async recordOutcomes(
    feedUrl: string,
    body: TopicContent | null,
    results: DeliveryResult[],
    retryIds: ReadonlySet<number>,
    opts: { topicHash?: string; retried?: { contentId: number; attempt: number; topicHash: string | null } },
  ): Promise<void> {
    const retryStore = this.retryStore;
    if (!retryStore || !body) return this.deps.store.recordDeliveries(results);
    const attempt = (opts.retried?.attempt ?? 0) + 1;
    const delay = this.retryDelays[attempt - 1];
    const next = delay === undefined ? null : { attempt, dueAt: this.deps.clock.now() + delay };
    await retryStore.recordWithRetries(results, {
      content: {
        feedUrl,
        body: body.body,
        contentType: body.contentType,
        topicHash: opts.retried ? opts.retried.topicHash : (opts.topicHash ?? null),
      },
      retryIds,
      next,
      retried: opts.retried?.contentId ?? null,
    });
    if (next && results.some((r) => !r.ok && retryIds.has(r.id))) this.retries?.kept(next.dueAt);
  }

  /** A claimed chunk of a queued change (delivery/queue.ts), delivered as a fan-out of its own. */
  readonly deliverBatch: BatchDeliverer = (feedUrl, content, targets, record, signal) =>
    this.deliver(feedUrl, content, targets, targets, {
      record,
      signal,
      share: this.deps.queue?.limits.batches ?? 1,
    });

  /** The delays before each retry of a failed WebSub delivery. */
  get retryDelays(): readonly number[] {
    return this.deps.contentRetryMs ?? DEFAULT_CONTENT_RETRY_MS;
  }

  /** The store's retries on one instance (SQLite); null with the shared queue, which keeps its own. */
  private get retryStore(): RetryStore | null {
    return this.deps.queue ? null : retryStoreOf(this.deps.store);
  }
  private retries: RetryRunner | null = null;

  /**
   * Starts delivering the retries kept in the store, those a previous process left included (on
   * one instance; the shared queue delivers its own). Called once the cloud knows which it is.
   */
  startRetries(): void {
    const store = this.retryStore;
    if (!store || this.retries) return;
    this.retries = new RetryRunner({
      store,
      clock: this.deps.clock,
      track: (w) => this.track(w),
      failed: (e) => this.deps.log.add({ kind: 'error', detail: `retries: ${describeError(e)}` }),
      deliver: (due) => {
        const retried = { contentId: due.contentId, attempt: due.attempt, topicHash: due.content.topicHash };
        const content = { body: due.content.body, contentType: due.content.contentType };
        const job = this.deliver(due.feedUrl, content, due.targets, due.targets, { retried });
        return this.trackFanout(due.feedUrl, job, due.attempt);
      },
    });
    this.retries.start();
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
