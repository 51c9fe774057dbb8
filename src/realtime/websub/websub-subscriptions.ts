/**
 * Keeps one WebSub subscription per feed that names a hub (RSSCLOUD.md "WebSub"): asks the hub
 * when the feed first names it, through our receiver's public address with an unguessable
 * callback path of its own and, over https, a fresh random hub.secret; accepts the hub's
 * verification only for a request we are waiting on (callback, topic and mode checked);
 * renews before the granted lease runs out and at once when our address changes (a new tunnel
 * URL); unsubscribes when the feed goes. Polling never stops meanwhile (statusFor says whether
 * deliveries are live, so polling can relax to the safety net).
 *
 * Every subscription always has its next step in its row (nextRenewalAt: the renewal, the retry,
 * or the end of the wait for a verification), and a subscribe waiting for the hub's verification
 * says so in its row (verifyUntil). Timers on the injected Clock only carry out what the rows say,
 * so a restart (even a kill -9) finds every step: a subscribe left waiting by the run before is
 * asked again at once, and the hub's late verification of the earlier request is still taken.
 * Only unsubscribes wait in memory: a callback we no longer hold answers deliveries with 410 Gone,
 * which ends a subscription whose unsubscribe was lost (see callback.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Clock, TimerHandle } from '../../common/clock.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
import type { ActivityInput } from '../../store/realtime.ts';
import type { WebSubRow, WebSubStore } from '../../store/websub.ts';
import { FeedQueue, FeedTimers } from '../feed-queue.ts';
import { duration, hostOf } from '../subscriptions.ts';
import { askHub } from './hub-request.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** What we ask for; the reference hub clamps to [5 min, 10 days] and says what it granted. */
export const REQUESTED_LEASE_SECONDS = 10 * 24 * 3600;
/** A hub that has not verified by then is taken to have refused silently (asked again later). */
export const VERIFY_TIMEOUT_MS = 10 * MINUTE;

export interface HubFeed {
  id: number;
  /** hub.topic: the self URL (Link header or atom:link rel="self"), else the address we fetch. */
  topic: string;
  hub: string;
}

export interface WebSubManagerDeps {
  store: WebSubStore;
  http: HttpClient;
  clock: Clock;
  /** The feed's hub and topic, null when it names no hub (or must not use it). */
  feeds: { get(feedId: number): HubFeed | null; list(): HubFeed[] };
  log(entry: ActivityInput): void;
  onChange(feedId: number): void;
  retry?: { initialMs?: number; maxMs?: number };
  verifyTimeoutMs?: number;
  timeoutMs?: number;
  concurrency?: number;
}

export type Verification =
  | { ok: true; challenge: string; note: string }
  | { ok: false; status: 404; note: string };

/** An unsubscribe we asked for, waiting for the hub's verification (in memory: see above). */
interface Leaving {
  topic: string;
  timer: TimerHandle | null;
}

export interface WebSubStatus {
  live: boolean;
  line: string | null;
  reason: string | null;
}

export class WebSubManager {
  private readonly deps: WebSubManagerDeps;
  private base: string | null = null;
  private problem = 'no public address for deliveries yet';
  private readonly timers: FeedTimers;
  /** callback id -> the unsubscribe whose verification we wait for. */
  private readonly leaving = new Map<string, Leaving>();
  /** Callbacks whose subscribe this run asked (a row waiting without being here: a run before). */
  private readonly askedThisRun = new Set<string>();
  private readonly requests: FeedQueue;
  private abort = new AbortController();
  private started = false;

  constructor(deps: WebSubManagerDeps) {
    this.deps = deps;
    this.timers = new FeedTimers(deps.clock);
    this.requests = new FeedQueue((feedId) => this.attempt(feedId), deps.concurrency ?? 4);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    this.requests.start();
    for (const row of this.deps.store.list()) this.arm(row);
    for (const feed of this.deps.feeds.list()) this.sync(feed.id);
  }

  async stop(): Promise<void> {
    this.started = false;
    this.timers.clear();
    for (const l of this.leaving.values()) l.timer?.cancel();
    this.leaving.clear();
    this.askedThisRun.clear();
    this.abort.abort();
    await this.requests.stop();
  }

  /** The callback base (e.g. https://x.loca.lt/websub), null while there is none. */
  setBase(base: string | null, opts: { problem?: string; force?: boolean } = {}): void {
    if (opts.problem) this.problem = opts.problem;
    const changed = base !== this.base;
    this.base = base;
    if (!changed && !opts.force) return;
    for (const row of this.deps.store.list()) {
      // A new address, or a step that came due (or was left waiting) while there was none.
      const owed = row.callbackUrl !== this.callbackOf(row) || this.leftWaiting(row) || this.isDue(row);
      if (base !== null && (opts.force || owed)) this.enqueue(row.feedId);
      this.deps.onChange(row.feedId);
    }
  }

  /** After each refresh: subscribes when the feed gained or changed its hub or topic. */
  sync(feedId: number): void {
    const feed = this.deps.feeds.get(feedId);
    const row = this.deps.store.get(feedId);
    if (!feed) {
      if (row) this.remove(feedId);
      return;
    }
    if (row && row.hub === feed.hub && row.topic === feed.topic) return; // its timers renew it
    if (row) this.unsubscribe(row); // another hub or topic: leave the old one
    this.put({
      feedId,
      topic: feed.topic,
      hub: feed.hub,
      // One unguessable path per subscription; a secret of its own (sent only over https).
      callbackId: randomBytes(18).toString('base64url'),
      secret: randomBytes(24).toString('base64url'),
      callbackUrl: null,
      status: 'pending',
      message: null,
      leaseSeconds: null,
      leaseEndsAt: null,
      lastOkAt: null,
      lastAttemptAt: null,
      nextRenewalAt: null,
      failures: 0,
      lastDeliveryAt: row?.lastDeliveryAt ?? null,
      verifyUntil: null,
    });
    this.deps.onChange(feedId);
  }

  /** The feed went (unsubscribed, lost its hub): tell the hub, forget the row. */
  remove(feedId: number): void {
    this.timers.cancel(feedId);
    const row = this.deps.store.delete(feedId);
    if (!row) return;
    this.unsubscribe(row);
    this.deps.onChange(feedId);
  }

  /** Quitting for good (real-time turned off): unsubscribes every feed; resolves when asked. */
  async unsubscribeAll(): Promise<void> {
    for (const row of this.deps.store.list()) this.remove(row.feedId);
    await this.idle();
  }

  renewAll(): void {
    for (const row of this.deps.store.list()) this.enqueue(row.feedId);
  }

  row(feedId: number): WebSubRow | null {
    return this.deps.store.get(feedId);
  }

  rowByCallback(callbackId: string): WebSubRow | null {
    return this.deps.store.byCallbackId(callbackId);
  }

  /**
   * The hub's verification GET on one of our callbacks. Echoes the challenge only when we wait
   * for exactly this mode and topic on this callback (a subscribe's wait is in its row, so it
   * holds across a restart); a second verification of the same request, an unknown callback or
   * topic, a mode we did not ask for: 404, with the log saying which.
   */
  verify(callbackId: string, params: URLSearchParams): Verification {
    const mode = params.get('hub.mode') ?? '';
    const topic = params.get('hub.topic') ?? '';
    const challenge = params.get('hub.challenge');
    const row = this.deps.store.byCallbackId(callbackId);
    if (mode === 'denied') {
      if (!row || !sameUrl(row.topic, topic)) return refuse('a denial for a subscription we do not have');
      const reason = params.get('hub.reason')?.slice(0, 300) || 'no reason given';
      this.timers.cancel(row.feedId);
      const failures = row.failures + 1;
      this.put({
        ...row,
        status: 'denied',
        message: `The hub denied the subscription: ${reason}`,
        failures,
        verifyUntil: null,
        nextRenewalAt: this.deps.clock.now() + this.backoff(Math.max(failures, 6)),
      });
      this.deps.onChange(row.feedId);
      return { ok: true, challenge: '', note: `denied by the hub: ${reason}` };
    }
    if (challenge === null || challenge === '' || challenge.length > 1024)
      return refuse('no usable hub.challenge');
    if (mode === 'unsubscribe') return this.verifyUnsubscribe(callbackId, topic, challenge, row);
    if (mode !== 'subscribe') return refuse(`hub.mode=${mode || '(none)'}, which we never ask for`);
    if (!row) return refuse('a verification for a request we did not make');
    if (!sameUrl(row.topic, topic)) {
      return refuse(
        `a verification of another topic (${maskUrl(topic) || '(none)'}) on the callback of ${maskUrl(row.topic)}`,
      );
    }
    if (row.verifyUntil === null) {
      return refuse(
        row.status === 'live'
          ? 'a verification we are not waiting for (already verified)'
          : 'a verification we are not waiting for (no subscribe asked)',
      );
    }

    const now = this.deps.clock.now();
    const renewal = row.status === 'live';
    const granted = Number(params.get('hub.lease_seconds'));
    const leaseSeconds = Number.isFinite(granted) && granted > 0 ? Math.floor(granted) : null;
    // Without a lease the subscription lasts until unsubscribed; renew daily all the same.
    const leaseMs = (leaseSeconds ?? 24 * 3600) * 1000;
    const updated = this.put({
      ...row,
      status: 'live',
      message: `Verified${leaseSeconds ? `; lease ${duration(leaseMs)}` : ''}.`,
      leaseSeconds,
      leaseEndsAt: leaseSeconds ? now + leaseMs : null,
      lastOkAt: now,
      failures: 0,
      verifyUntil: null,
      nextRenewalAt: now + renewAfter(leaseMs),
    });
    this.deps.onChange(updated.feedId);
    return {
      ok: true,
      challenge,
      note: `${renewal ? 'renewal' : 'subscription'} verified; lease ${leaseSeconds ? duration(leaseMs) : 'not given'}`,
    };
  }

  private verifyUnsubscribe(
    callbackId: string,
    topic: string,
    challenge: string,
    row: WebSubRow | null,
  ): Verification {
    const wait = this.leaving.get(callbackId);
    if (!wait) {
      return refuse(
        row
          ? 'an unsubscribe we did not ask for (the subscription stays)'
          : 'a verification for a request we did not make',
      );
    }
    if (!sameUrl(wait.topic, topic)) return refuse('an unsubscribe of a topic we did not ask about');
    wait.timer?.cancel();
    this.leaving.delete(callbackId);
    return { ok: true, challenge, note: 'unsubscribe verified' };
  }

  /** A delivery came on this row's callback (the log and the status keep it). */
  delivered(feedId: number): void {
    const row = this.deps.store.get(feedId);
    const now = this.deps.clock.now();
    if (row && (row.lastDeliveryAt === null || now - row.lastDeliveryAt >= 1000))
      this.deps.store.put({ ...row, lastDeliveryAt: now });
  }

  isLive(row: WebSubRow | null): boolean {
    if (row === null || row.status !== 'live' || this.base === null) return false;
    if (row.callbackUrl !== this.callbackOf(row)) return false;
    return row.leaseEndsAt === null || this.deps.clock.now() < row.leaseEndsAt;
  }

  statusFor(feedId: number): WebSubStatus | null {
    const row = this.deps.store.get(feedId);
    if (!row) return null;
    const host = hostOf(row.hub);
    if (this.isLive(row)) {
      const left = (row.nextRenewalAt ?? 0) - this.deps.clock.now();
      const when =
        this.requests.isRunning(feedId) || left <= 0 ? 'renewing now' : `renews in ${duration(left)}`;
      return { live: true, line: `real-time via WebSub hub ${host} (${when})`, reason: null };
    }
    if (this.base === null) return { live: false, line: null, reason: this.problem };
    if (row.status === 'denied' || row.status === 'failed')
      return { live: false, line: null, reason: row.message ?? `the WebSub hub ${host} did not answer` };
    if (row.verifyUntil !== null)
      return { live: false, line: null, reason: `waiting for the WebSub hub ${host} to verify` };
    return { live: false, line: null, reason: `asking the WebSub hub ${host} for deliveries` };
  }

  /** Resolves when no request is queued or running (tests). */
  idle(): Promise<void> {
    return this.requests.idle();
  }

  /** Unsubscribes whose verification we still wait for (quitting for good waits for them). */
  leavingCount(): number {
    return this.leaving.size;
  }

  /** True while we wait for the hub to verify a request on this callback (tests). */
  waiting(callbackId: string): boolean {
    return this.leaving.has(callbackId) || this.deps.store.byCallbackId(callbackId)?.verifyUntil != null;
  }

  // ------------------------------------------------------------------------------------------

  private callbackOf(row: Pick<WebSubRow, 'callbackId'>): string | null {
    return this.base === null ? null : `${this.base}/${row.callbackId}`;
  }

  private put(row: WebSubRow): WebSubRow {
    const saved = this.deps.store.put(row);
    this.arm(saved);
    return saved;
  }

  /** The row's next step (not a wait for a verification) is due now. */
  private isDue(row: WebSubRow): boolean {
    return (
      row.verifyUntil === null && (row.nextRenewalAt ?? Number.NEGATIVE_INFINITY) <= this.deps.clock.now()
    );
  }

  /** A subscribe asked by an earlier run still waits: that run's wait died with it. */
  private leftWaiting(row: WebSubRow): boolean {
    return row.verifyUntil !== null && !this.askedThisRun.has(row.callbackId);
  }

  /**
   * Timers for what the row says: its next step at nextRenewalAt (at once when it has none yet),
   * its lapse at the end of the lease. A subscribe an earlier run left waiting is asked again now
   * (the hub may have verified while nobody answered); its late verification is taken meanwhile.
   */
  private arm(row: WebSubRow): void {
    this.timers.cancel(row.feedId);
    if (!this.started) return;
    const at = row.nextRenewalAt ?? Number.NEGATIVE_INFINITY;
    if (this.leftWaiting(row)) this.enqueue(row.feedId);
    else if (at <= this.deps.clock.now()) this.nextStep(row.feedId);
    else this.timers.set('renewal', row.feedId, at, () => this.nextStep(row.feedId));
    if (row.status === 'live' && row.leaseEndsAt !== null) {
      this.timers.set('lapse', row.feedId, row.leaseEndsAt, () => {
        const current = this.deps.store.get(row.feedId);
        if (current?.status !== 'live' || (current.leaseEndsAt ?? 0) > this.deps.clock.now()) return;
        this.put({
          ...current,
          status: 'failed',
          message: 'The lease ran out before the hub verified a renewal.',
        });
        this.deps.onChange(row.feedId);
      });
    }
  }

  /** The row's next step is due: a renewal or retry, or the end of a wait for a verification. */
  private nextStep(feedId: number): void {
    const row = this.deps.store.get(feedId);
    // A request in flight sets the next step itself when it ends.
    if (!row || this.requests.isRunning(feedId)) return;
    if (row.verifyUntil === null || this.deps.clock.now() < row.verifyUntil) {
      this.enqueue(feedId);
      return;
    }
    // The hub accepted our request but never verified it: count it as a failure, ask again later.
    const { clock } = this.deps;
    const failures = row.failures + 1;
    const message = `The hub ${hostOf(row.hub)} accepted the request but never verified it.`;
    this.deps.log({
      at: clock.now(),
      direction: 'in',
      peer: hostOf(row.hub),
      procedure: 'websub verify',
      feedUrl: maskUrl(row.topic),
      result: message,
      ok: false,
      latencyMs: null,
    });
    this.put({
      ...row,
      // A refusal stays a refusal (the feed's cloud, which took over, keeps serving).
      status: this.isLive(row) ? 'live' : row.status === 'denied' ? 'denied' : 'failed',
      message,
      failures,
      verifyUntil: null,
      nextRenewalAt: clock.now() + this.backoff(failures),
    });
    this.deps.onChange(feedId);
  }

  private backoff(failures: number): number {
    const initial = this.deps.retry?.initialMs ?? MINUTE;
    const max = this.deps.retry?.maxMs ?? 6 * HOUR;
    return Math.min(max, initial * 2 ** Math.min(failures - 1, 20));
  }

  private enqueue(feedId: number): void {
    if (this.started) this.requests.enqueue(feedId);
  }

  private async attempt(feedId: number): Promise<void> {
    const row = this.deps.store.get(feedId);
    if (!row) return;
    const callback = this.callbackOf(row);
    if (callback === null) {
      this.deps.onChange(feedId); // waits for setBase, which asks again
      return;
    }
    const { clock } = this.deps;
    const renewal = row.status === 'live' && row.callbackUrl === callback;
    const askedAt = clock.now();
    // The wait starts before the request (a hub may verify before it answers, then says 204),
    // and is written down: the end of the wait is the row's next step.
    const verifyUntil = askedAt + (this.deps.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS);
    this.askedThisRun.add(row.callbackId);
    this.put({
      ...row,
      callbackUrl: callback,
      // Asking again after a refusal keeps the refusal until the hub verifies: the feed's cloud
      // (which took over) is not dropped and asked again at every retry.
      status: renewal ? 'live' : row.status === 'denied' || row.status === 'failed' ? row.status : 'pending',
      lastAttemptAt: askedAt,
      verifyUntil,
      nextRenewalAt: verifyUntil,
    });
    this.deps.onChange(feedId);
    const answer = await askHub(
      this.deps.http,
      {
        hub: row.hub,
        mode: 'subscribe',
        topic: row.topic,
        callback,
        leaseSeconds: REQUESTED_LEASE_SECONDS,
        secret: row.secret,
      },
      { timeoutMs: this.deps.timeoutMs, signal: this.abort.signal },
    );
    if (!this.started) return;
    const now = clock.now();
    this.deps.log({
      at: now,
      direction: 'out',
      peer: hostOf(row.hub),
      procedure: renewal ? 'websub renew' : 'websub subscribe',
      feedUrl: maskUrl(row.topic),
      result: answer.message,
      ok: answer.ok,
      latencyMs: answer.latencyMs,
    });
    const current = this.deps.store.get(feedId);
    if (!current || current.callbackId !== row.callbackId) return; // removed or replaced meanwhile
    if (this.base !== null && this.callbackOf(current) !== callback) this.requests.rerun(feedId);
    if (answer.ok) {
      // Accepted: the verification comes out of band (or came already: 204 hubs). The hub gets
      // the whole wait from its answer on.
      if (current.verifyUntil !== null) {
        const verifyUntil = now + (this.deps.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS);
        this.put({ ...current, verifyUntil, nextRenewalAt: verifyUntil });
      }
      this.deps.onChange(feedId);
      return;
    }
    const verifiedMeanwhile = current.verifyUntil === null && (current.lastOkAt ?? 0) >= askedAt;
    if (verifiedMeanwhile) return;
    const failures = current.failures + 1;
    // A 4xx (but a timeout or rate limit) is the hub saying no, not a hiccup: the feed's
    // rssCloud, if it has one, takes over at once (see realtime.ts), and we ask again later.
    const refused =
      answer.status !== null &&
      answer.status >= 400 &&
      answer.status < 500 &&
      answer.status !== 408 &&
      answer.status !== 429;
    this.put({
      ...current,
      status: this.isLive(current) ? 'live' : refused ? 'denied' : 'failed',
      message: answer.message,
      failures,
      verifyUntil: null,
      nextRenewalAt: now + this.backoff(failures),
    });
    this.deps.onChange(feedId);
  }

  /** Tells the hub we are done with a subscription (verified on its callback, answered once). */
  private unsubscribe(row: WebSubRow): void {
    if (!this.started || row.callbackUrl === null) return;
    const callbackId = row.callbackId;
    this.leaving.get(callbackId)?.timer?.cancel();
    const wait: Leaving = { topic: row.topic, timer: null };
    this.leaving.set(callbackId, wait);
    wait.timer = this.deps.clock.setTimer(this.deps.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS, () => {
      if (this.leaving.get(callbackId) === wait) this.leaving.delete(callbackId);
    });
    const job = (async () => {
      const answer = await askHub(
        this.deps.http,
        { hub: row.hub, mode: 'unsubscribe', topic: row.topic, callback: row.callbackUrl! },
        { timeoutMs: this.deps.timeoutMs, signal: this.abort.signal },
      );
      this.deps.log({
        at: this.deps.clock.now(),
        direction: 'out',
        peer: hostOf(row.hub),
        procedure: 'websub unsubscribe',
        feedUrl: maskUrl(row.topic),
        result: answer.message,
        ok: answer.ok,
        latencyMs: answer.latencyMs,
      });
      if (!answer.ok && this.leaving.get(callbackId) === wait) {
        wait.timer?.cancel();
        this.leaving.delete(callbackId);
      }
    })();
    this.requests.track(job);
  }
}

function refuse(note: string): Verification {
  return { ok: false, status: 404, note };
}

/** Renew with a tenth of the lease left (at least 5 minutes before it ends, never sooner than half). */
export function renewAfter(leaseMs: number): number {
  return Math.max(leaseMs / 2, leaseMs - Math.max(leaseMs / 10, 5 * MINUTE));
}

/** Topics compare as URLs (a hub may normalise the host's case or an empty path). */
function sameUrl(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}
