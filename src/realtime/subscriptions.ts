/**
 * Keeps one cloud subscription per feed that carries a <cloud> element (RSSCLOUD.md "Renewal"):
 * asks when the feed first shows the element or changes it, renews every 23 hours and at once
 * when our callback address changes (a new tunnel URL), retries failures with capped back-off,
 * and marks a subscription lapsed 25 hours after its last success. Polling never stops meanwhile:
 * `statusFor` tells the app whether notifications are live (relax polling to the safety net) and
 * the line the feed list shows.
 *
 * Requests run a few at a time; one per feed at most, with a single follow-up when something
 * changed while it was in flight. State lives in RealtimeStore, timers on the injected Clock.
 */
import type { Clock } from '../common/clock.ts';
import type { CloudElement } from '../feed/model.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { maskUrl } from '../net/mask.ts';
import type { ActivityInput, CloudSubscriptionRow, RealtimeStore } from '../store/realtime.ts';
import { FeedQueue, FeedTimers } from './feed-queue.ts';
import { type Callback, cloudEndpoint, requestNotification } from './subscriber.ts';

const HOUR = 60 * 60_000;
export const RENEW_EVERY_MS = 23 * HOUR;
export const EXPIRES_AFTER_MS = 25 * HOUR;

export interface CloudFeed {
  id: number;
  /** The subscription URL (what we send as url1 and the cloud notifies us with). */
  url: string;
  cloud: CloudElement | null;
}

export interface SubscriptionManagerDeps {
  rt: RealtimeStore;
  http: HttpClient;
  clock: Clock;
  feeds: { get(feedId: number): CloudFeed | null; list(): CloudFeed[] };
  /** Our receiver's XML-RPC procedure. */
  notifyProcedure: string;
  log(entry: ActivityInput): void;
  /** A feed's status (live flag or line) may have changed. */
  onChange(feedId: number): void;
  renewEveryMs?: number;
  expiresAfterMs?: number;
  /** Retry back-off after a failed request: doubles from initialMs up to maxMs (1 min, 6 h). */
  retry?: { initialMs?: number; maxMs?: number };
  /** Requests at once (default 4). */
  concurrency?: number;
  /** Per request (default 30 s). */
  timeoutMs?: number;
}

export interface RealtimeStatus {
  /** Notifications are expected: polling may relax to the safety net. */
  live: boolean;
  /** "real-time via rpc.rsscloud.io (renews in 21 h)" while live, else null. */
  line: string | null;
  /** Why the feed is polled instead (null while live or when the feed has no cloud). */
  reason: string | null;
}

export const NO_CLOUD: RealtimeStatus = { live: false, line: null, reason: null };

export class SubscriptionManager {
  private readonly deps: SubscriptionManagerDeps;
  private readonly renewEveryMs: number;
  private readonly expiresAfterMs: number;
  private readonly retryInitialMs: number;
  private readonly retryMaxMs: number;

  private callback: Callback | null = null;
  private callbackUrl: string | null = null;
  private callbackProblem = 'no public address for notifications yet';
  private readonly timers: FeedTimers;
  private readonly requests: FeedQueue;
  /** feed URL -> feed id, for rows that may be notified about. */
  private readonly byUrl = new Map<string, number>();
  /** When notified() last wrote each feed's last_notified_at (see notified()). */
  private readonly markedAt = new Map<number, number>();
  private abort = new AbortController();
  private started = false;

  constructor(deps: SubscriptionManagerDeps) {
    this.deps = deps;
    this.renewEveryMs = deps.renewEveryMs ?? RENEW_EVERY_MS;
    this.expiresAfterMs = deps.expiresAfterMs ?? EXPIRES_AFTER_MS;
    this.retryInitialMs = deps.retry?.initialMs ?? 60_000;
    this.retryMaxMs = deps.retry?.maxMs ?? 6 * HOUR;
    this.timers = new FeedTimers(deps.clock);
    this.requests = new FeedQueue((feedId) => this.attempt(feedId), deps.concurrency ?? 4);
  }

  /** Loads the rows, arms their timers and subscribes feeds whose element has no row yet. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    this.requests.start();
    for (const row of this.deps.rt.listSubscriptions()) {
      this.byUrl.set(row.feedUrl, row.feedId);
      this.arm(row);
    }
    for (const feed of this.deps.feeds.list()) if (feed.cloud) this.sync(feed.id);
  }

  /** Stops timers and aborts requests in flight; resolves when they have ended. */
  async stop(): Promise<void> {
    this.started = false;
    this.timers.clear();
    this.abort.abort();
    await this.requests.stop();
  }

  /**
   * Our public callback (null while there is none, with the reason to show). A new address
   * renews every subscription registered with another one, at once; `force` renews them all.
   */
  setCallback(callback: Callback | null, opts: { problem?: string; force?: boolean } = {}): void {
    const url = callback ? callbackUrlOf(callback) : null;
    const newProblem = url === null && opts.problem !== undefined && opts.problem !== this.callbackProblem;
    if (opts.problem) this.callbackProblem = opts.problem;
    const changed = url !== this.callbackUrl;
    this.callback = callback;
    this.callbackUrl = url;
    if (!changed && !opts.force && !newProblem) return; // newProblem: the feeds' reason line changes
    for (const row of this.deps.rt.listSubscriptions()) {
      if (url !== null && row.status !== 'unsupported' && (opts.force || row.callbackUrl !== url)) {
        this.enqueue(row.feedId);
      }
      this.deps.onChange(row.feedId);
    }
  }

  /** After a refresh: subscribes when the feed gained or changed its <cloud>, forgets it when it lost it. */
  sync(feedId: number): void {
    const feed = this.deps.feeds.get(feedId);
    if (!feed?.cloud) {
      this.remove(feedId);
      return;
    }
    const row = this.deps.rt.getSubscription(feedId);
    const target = targetOf(feed.cloud);
    if (
      row &&
      row.cloudUrl === target.cloudUrl &&
      row.protocol === feed.cloud.protocol &&
      row.feedUrl === feed.url
    ) {
      return; // unchanged: its timers renew it
    }
    if (row && row.feedUrl !== feed.url) this.byUrl.delete(row.feedUrl);
    this.put({
      feedId,
      feedUrl: feed.url,
      cloudUrl: target.cloudUrl,
      protocol: feed.cloud.protocol,
      callbackUrl: null,
      status: target.unsupported ? 'unsupported' : 'pending',
      message: target.unsupported ?? null,
      lastOkAt: null,
      lastAttemptAt: null,
      nextRenewalAt: null,
      failures: 0,
      lastNotifiedAt: row?.lastNotifiedAt ?? null,
    }); // a pending row that was never asked is queued by arm()
    this.deps.onChange(feedId);
  }

  /** The feed was unsubscribed (or lost its cloud): no more renewals. */
  remove(feedId: number): void {
    const row = this.deps.rt.getSubscription(feedId);
    this.timers.cancel(feedId);
    this.markedAt.delete(feedId);
    if (!row) return;
    this.byUrl.delete(row.feedUrl);
    this.deps.rt.deleteSubscription(feedId);
    this.deps.onChange(feedId);
  }

  /** Renews every subscription now (e.g. the user asked). */
  renewAll(): void {
    for (const row of this.deps.rt.listSubscriptions())
      if (row.status !== 'unsupported') this.enqueue(row.feedId);
  }

  /** The feed a notification or challenge names, if we asked about it (pending or live). */
  feedFor(feedUrl: string): { feedId: number; verifying: boolean } | null {
    const feedId = this.byUrl.get(feedUrl);
    if (feedId === undefined) return null;
    if (this.requests.isRunning(feedId)) {
      // While we first ask (or re-ask at a new address) the cloud's test call is not news.
      return { feedId, verifying: this.deps.rt.getSubscription(feedId)?.status !== 'live' };
    }
    return this.isLive(this.deps.rt.getSubscription(feedId)) ? { feedId, verifying: false } : null;
  }

  /**
   * Records that a notification arrived (the log and the status keep it). The store keeps it to
   * the second; a storm of notifications skips the statement in memory within that second.
   */
  notified(feedId: number): void {
    const now = this.deps.clock.now();
    const last = this.markedAt.get(feedId);
    if (last !== undefined && now >= last && now - last < 1000) return;
    this.markedAt.set(feedId, now);
    this.deps.rt.markNotified(feedId, now);
  }

  statusFor(feedId: number): RealtimeStatus {
    const row = this.deps.rt.getSubscription(feedId);
    if (!row) return NO_CLOUD;
    const host = hostOf(row.cloudUrl);
    if (this.isLive(row)) {
      const left = (row.nextRenewalAt ?? 0) - this.deps.clock.now();
      const renewing = this.requests.isRunning(feedId) && (row.lastAttemptAt ?? 0) > (row.lastOkAt ?? 0);
      const when = renewing || left <= 0 ? 'renewing now' : `renews in ${duration(left)}`;
      return { live: true, line: `real-time via ${host} (${when})`, reason: null };
    }
    if (row.status === 'unsupported')
      return { live: false, line: null, reason: row.message ?? 'the cloud cannot be used' };
    if (this.callbackUrl === null) return { live: false, line: null, reason: this.callbackProblem };
    if (this.requests.isRunning(feedId) || this.requests.isQueued(feedId)) {
      return { live: false, line: null, reason: `asking ${host} for notifications` };
    }
    if (row.status === 'failed')
      return { live: false, line: null, reason: row.message ?? `${host} did not answer` };
    return { live: false, line: null, reason: `waiting to ask ${host} for notifications` };
  }

  /** Resolves when no request is queued or running (tests). */
  idle(): Promise<void> {
    return this.requests.idle();
  }

  // ------------------------------------------------------------------------------------------

  private isLive(row: CloudSubscriptionRow | null): boolean {
    return (
      row !== null &&
      row.status === 'live' &&
      row.lastOkAt !== null &&
      this.deps.clock.now() < row.lastOkAt + this.expiresAfterMs &&
      this.callbackUrl !== null &&
      row.callbackUrl === this.callbackUrl
    );
  }

  private put(row: CloudSubscriptionRow): void {
    this.deps.rt.putSubscription(row);
    this.byUrl.set(row.feedUrl, row.feedId);
    this.arm(row);
  }

  /** Renewal (or retry) at nextRenewalAt; lapse at lastOkAt + 25 h while live. */
  private arm(row: CloudSubscriptionRow): void {
    this.timers.cancel(row.feedId);
    if (!this.started || row.status === 'unsupported') return;
    if (row.nextRenewalAt !== null) {
      this.timers.set('renewal', row.feedId, row.nextRenewalAt, () => this.enqueue(row.feedId));
    } else if (row.status === 'pending' || row.status === 'failed') {
      this.enqueue(row.feedId); // never asked (or the app stopped mid-request): ask now
    }
    if (row.status === 'live' && row.lastOkAt !== null) {
      this.timers.set('lapse', row.feedId, row.lastOkAt + this.expiresAfterMs, () => this.lapse(row.feedId));
    }
  }

  private lapse(feedId: number): void {
    const row = this.deps.rt.getSubscription(feedId);
    if (row?.status !== 'live') return;
    const why = row.failures > 0 && row.message ? `; the last renewal failed: ${row.message}` : '.';
    this.deps.rt.putSubscription({ ...row, status: 'failed', message: `The subscription lapsed${why}` });
    this.deps.onChange(feedId);
  }

  private enqueue(feedId: number): void {
    if (this.started) this.requests.enqueue(feedId);
  }

  private async attempt(feedId: number): Promise<void> {
    const feed = this.deps.feeds.get(feedId);
    const row = this.deps.rt.getSubscription(feedId);
    if (!feed?.cloud || !row) {
      if (row) this.remove(feedId);
      return;
    }
    const callback = this.callback;
    const callbackUrl = this.callbackUrl;
    if (!callback || !callbackUrl) {
      this.deps.onChange(feedId); // waits for setCallback, which asks again
      return;
    }
    const { clock } = this.deps;
    const moved = row.callbackUrl !== callbackUrl;
    this.deps.rt.putSubscription({
      ...row,
      callbackUrl,
      status: row.status === 'live' && !moved ? 'live' : 'pending',
      lastAttemptAt: clock.now(),
    });
    this.deps.onChange(feedId);

    const result = await requestNotification(this.deps.http, feed.cloud, feed.url, callback, {
      notifyProcedure: this.deps.notifyProcedure,
      timeoutMs: this.deps.timeoutMs,
      signal: this.abort.signal,
    });
    if (!this.started) return;
    const now = clock.now();
    const current = this.deps.rt.getSubscription(feedId);
    if (!current || current.feedUrl !== feed.url) return; // removed or replaced meanwhile
    this.deps.log({
      at: now,
      direction: 'out',
      peer: hostOf(current.cloudUrl),
      procedure: result.procedure || 'pleaseNotify',
      feedUrl: maskUrl(feed.url),
      result: result.message,
      ok: result.ok,
      latencyMs: result.unsupported ? null : result.latencyMs,
    });
    if (this.callbackUrl !== callbackUrl) this.requests.rerun(feedId); // the address changed meanwhile

    if (result.ok) {
      this.put({
        ...current,
        callbackUrl,
        status: 'live',
        message: result.message,
        lastOkAt: now,
        failures: 0,
        nextRenewalAt: now + this.renewEveryMs,
      });
    } else if (result.unsupported) {
      this.put({ ...current, status: 'unsupported', message: result.message, nextRenewalAt: null });
    } else {
      const failures = current.failures + 1;
      const stillLive =
        row.status === 'live' && !moved && row.lastOkAt !== null && now < row.lastOkAt + this.expiresAfterMs;
      const delay = Math.min(this.retryMaxMs, this.retryInitialMs * 2 ** Math.min(failures - 1, 20));
      const lapsed = current.lastOkAt !== null && now >= current.lastOkAt + this.expiresAfterMs;
      this.put({
        ...current,
        status: stillLive ? 'live' : 'failed',
        message: lapsed
          ? `The subscription lapsed; the last renewal failed: ${result.message}`
          : result.message,
        failures,
        nextRenewalAt: now + delay,
      });
    }
    this.deps.onChange(feedId);
  }
}

export function callbackUrlOf(cb: Callback): string {
  const host = cb.host ?? '(our address)';
  const defaultPort = cb.scheme === 'https' ? 443 : 80;
  return `${cb.scheme}://${host}${cb.port === defaultPort ? '' : `:${cb.port}`}${cb.path}`;
}

/** Where a subscription for this element is requested, or the reason it cannot be. */
function targetOf(cloud: CloudElement): { cloudUrl: string; unsupported: string | null } {
  const endpoint = cloudEndpoint(cloud);
  if (endpoint.ok) return { cloudUrl: endpoint.url, unsupported: null };
  return { cloudUrl: `${cloud.domain}:${cloud.port}${cloud.path}`, unsupported: endpoint.message };
}

/**
 * The host a cloud or hub is named by in the feed row and the log, with its port when the URL
 * gives one other than the scheme's own (two services on one machine are two peers).
 */
export function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return u.port ? u.host : u.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return url.split('/')[0] || url;
  }
}

/** "23 h" just after a renewal (not "22 h" a second later), minutes in the last 90, days past 2. */
export function duration(ms: number): string {
  if (ms >= 48 * HOUR) return `${Math.round(ms / (24 * HOUR))} d`;
  if (ms >= 90 * 60_000) return `${Math.round(ms / HOUR)} h`;
  return `${Math.max(1, Math.ceil(ms / 60_000))} min`;
}
