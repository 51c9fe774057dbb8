/**
 * Fan-out: notify every live subscriber of a changed feed, in parallel with bounded concurrency
 * (per host, so one aggregator with 10,000 callbacks gets a steady stream over reused keep-alive
 * connections instead of 10,000 sockets at once; and overall). Each delivery has its own 4 s
 * budget. Outcomes are written to the store in batches, one transaction each.
 *
 * The reference cloud fired every notification at once (Promise.all) and lost thousands of
 * 10,000 on one host; bounding per host keeps every request inside its timeout.
 */
import type { Clock } from '../../common/clock.ts';
import { fail, type Result, tidingsError } from '../../common/errors.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import type { HostPolicy } from '../../net/types.ts';
import { isTimeoutKey } from '../core/observer.ts';
import type { NotifyProtocol } from '../core/types.ts';
import type { DeliveryResult, DeliveryTarget } from '../store/store.ts';
import {
  contentRequest,
  type DeliveryOptions,
  deliverContent,
  notificationRequest,
  notifyOne,
  type TopicContent,
  textIfUtf8,
} from './deliver.ts';
import { leanNotifyClient, NotifyPool } from './notify-pool.ts';

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
  /** Writes a batch of outcomes (one transaction); the fan-out ends when every write has. */
  record: (results: DeliveryResult[]) => Promise<void> | void;
  /** Called per delivery, for the log. */
  onDelivery?: (sub: DeliveryTarget, result: DeliveryResult) => void;
  limits?: Partial<FanoutLimits>;
  /** Stops the workers between deliveries: no new one starts; those in flight finish. */
  signal?: AbortSignal;
  /**
   * Ends the deliveries in flight at once (the lean pool is closed), as when the cloud closes.
   * A queue's instance stopping only gives `signal`: what it has sent is answered and recorded, not
   * cut off and counted a failure (a notification lost in a rolling restart, cluster.pg.test.ts).
   */
  endInFlight?: AbortSignal;
  /**
   * The notify client's host policy. Given, plain-http notifications use the lean keep-alive
   * pool (notify-pool.ts) under the same policy; absent, every delivery goes through `http`.
   */
  policy?: HostPolicy;
  /**
   * For WebSub subscribers: the body to distribute (read once for the whole fan-out) and the
   * hub's URL for the Link header. Without content a WebSub delivery fails with a reason.
   */
  websub?: { content: TopicContent | null; hubUrl: string };
}

const BATCH = 500;
/** WebSub bodies up to this size take the lean pool (see `contentText`). */
const LEAN_BODY_MAX = 64 * 1024;

/** A subscriber told the URL (http-post, https-post, xml-rpc), not sent the body (WebSub). */
type RssCloudTarget = DeliveryTarget & { protocol: NotifyProtocol };
const isRssCloud = (s: DeliveryTarget): s is RssCloudTarget => s.protocol !== 'websub';

/**
 * The subscribers: all at once, or a function handing out the next page (empty when done), so a
 * fan-out to 100,000 holds a page or two of them in memory, not all 100,000.
 */
export type TargetSource = readonly DeliveryTarget[] | (() => Promise<readonly DeliveryTarget[]>);

export async function fanOut(deps: FanoutDeps, feedUrl: string, source: TargetSource): Promise<FanoutReport> {
  const limits = { ...DEFAULT_FANOUT_LIMITS, ...deps.limits };
  const started = performance.now();
  const pending: DeliveryResult[] = [];
  let delivered = 0;
  let failed = 0;
  // Batches are written while deliveries go on; the report waits for every write (a write that
  // fails fails the fan-out: its outcomes were not kept).
  const writes: Promise<void>[] = [];
  const flush = () => {
    if (pending.length > 0) writes.push(Promise.resolve(deps.record(pending.splice(0, pending.length))));
  };

  // Built once per protocol/procedure, not once per subscriber.
  const prepared = new Map<string, ReturnType<typeof notificationRequest>>();
  const requestFor = (s: RssCloudTarget) => {
    const key = `${s.protocol}\n${s.notifyProcedure ?? ''}`;
    let r = prepared.get(key);
    if (!r) {
      r = notificationRequest(s, feedUrl);
      prepared.set(key, r);
    }
    return r;
  };
  // WebSub: one unsigned request for all; a signed one per secret (the HMAC is per subscriber).
  const content = deps.websub?.content ?? null;
  // A small UTF-8 body goes as text over the lean pool, which writes head and body as one string
  // per request; a large one as bytes through the full client, so 512 deliveries in flight do not
  // hold 512 copies of a big feed.
  const contentText = content && content.body.byteLength <= LEAN_BODY_MAX ? textIfUtf8(content.body) : null;
  const unsigned = content ? contentRequest(content, feedUrl, deps.websub!.hubUrl, null, contentText) : null;
  const websubRequest = (s: DeliveryTarget) =>
    content && s.secret
      ? contentRequest(content, feedUrl, deps.websub!.hubUrl, s.secret, contentText)
      : unsigned;

  // Plain-http notifications go over the lean keep-alive pool (notify-pool.ts) when the caller
  // gave the host policy it needs; the pool is shared by concurrent fan-outs on the same client.
  const queues = new HostQueues(source, limits.perHost);
  await queues.ready();
  const lease =
    deps.policy && !queues.isEmpty()
      ? leasePool(deps.http, deps.policy, limits.perHost, deps.endInFlight)
      : null;
  const http = lease ? lease.client : deps.http;
  // Closing (Cloud.close) ends deliveries in flight at once, as closing the client does.
  const onAbort = () => lease?.client.close();
  deps.endInFlight?.addEventListener('abort', onAbort, { once: true });

  // The signal stops workers between deliveries; it is not handed to each request (AbortSignal.any
  // per request costs time and memory at 10,000). In-flight requests end by their own deadline,
  // or at once when the owner closes the client.
  const opts: DeliveryOptions = { timeoutMs: limits.timeoutMs };

  const deliver = async (sub: DeliveryTarget) => {
    let outcome: DeliveryResult;
    try {
      let r: Result<void> & { gone?: boolean };
      if (isRssCloud(sub)) {
        const req = requestFor(sub);
        r = req.ok ? await notifyOne(http, sub, feedUrl, opts, req.value) : req;
      } else {
        const prepared = websubRequest(sub);
        r = prepared
          ? await deliverContent(http, sub.callbackUrl, prepared, opts)
          : fail(tidingsError('cloud.noContent', 'The topic could not be read for delivery.'));
      }
      outcome = r.ok
        ? { id: sub.id, ok: true, at: deps.clock.now() }
        : {
            id: sub.id,
            ok: false,
            at: deps.clock.now(),
            error: r.error.message,
            ...(r.gone ? { gone: true } : {}),
            ...(isTimeoutKey(r.error.code) ? { timedOut: true } : {}),
          };
    } catch (e) {
      outcome = {
        id: sub.id,
        ok: false,
        at: deps.clock.now(),
        error: e instanceof Error ? e.message : String(e),
      };
    }
    if (outcome.ok) delivered++;
    else failed++;
    pending.push(outcome);
    deps.onDelivery?.(sub, outcome);
    if (pending.length >= BATCH) flush();
  };

  // `total` workers (not one promise per subscriber or per host: 100,000 hosts would be 100,000
  // parked promises); each takes the next subscriber of a host that is below `perHost` in flight.
  // A worker with nothing it may take (every host with work is at its bound) sleeps. It is woken
  // when a slot frees that its freer does not reuse, when a page brings new hosts, and at the end.
  // (Waking one per delivery cost a promise and a scan each: 384 sleepers on a single host.)
  const sleepers: (() => void)[] = [];
  const wakeOne = () => sleepers.shift()?.();
  queues.onNewHosts = () => {
    for (const wake of sleepers.splice(0)) wake();
  };
  // Read as a flag set once, not through `signal.aborted` per delivery: on the composite signal a
  // queue's instance gives (AbortSignal.any) that getter walks its sources every time.
  let stopping = deps.signal?.aborted ?? false;
  const onStop = () => {
    stopping = true;
  };
  deps.signal?.addEventListener('abort', onStop, { once: true });
  const worker = async () => {
    let freed: HostQueue | null = null;
    for (;;) {
      if (stopping) break;
      const next = queues.take();
      if (freed && next?.queue !== freed) wakeOne();
      freed = null;
      if (next) {
        try {
          await deliver(next.sub);
        } finally {
          queues.done(next.queue);
          freed = next.queue;
        }
        continue;
      }
      if (queues.isEmpty()) break;
      await new Promise<void>((resolve) => sleepers.push(resolve));
    }
    wakeOne(); // a sleeper re-checks, so every worker ends when the work does
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < limits.total && !queues.isEmpty(); i++) workers.push(worker());
  try {
    await Promise.all(workers);
  } finally {
    deps.signal?.removeEventListener('abort', onStop);
    deps.endInFlight?.removeEventListener('abort', onAbort);
    lease?.release();
  }
  flush();
  await Promise.all(writes);
  if (queues.failure) throw queues.failure;
  return {
    feedUrl,
    subscribers: delivered + failed,
    delivered,
    failed,
    elapsedMs: Math.round(performance.now() - started),
  };
}

interface HostQueue {
  host: string;
  subs: DeliveryTarget[];
  next: number;
  active: number;
  /** In the round-robin list (it has subscribers waiting). */
  listed: boolean;
}

/**
 * Subscribers grouped by host, handed out round-robin across hosts below their bound; reads the
 * source's next page when the queued ones run low.
 */
class HostQueues {
  private readonly hosts: HostQueue[] = [];
  private readonly byHost = new Map<string, HostQueue>();
  private cursor = 0;
  private queued = 0;
  /** The next page is read when fewer than half a page is queued. */
  private lowWater = 1;
  private readonly perHost: number;
  private nextPage: (() => Promise<readonly DeliveryTarget[]>) | null;
  /** A page being read (the store is asynchronous); workers with nothing to take sleep meanwhile. */
  private reading: Promise<void> | null = null;
  /** Called when a page listed hosts that had nothing queued (sleeping workers may take them). */
  onNewHosts: (() => void) | null = null;

  constructor(source: TargetSource, perHost: number) {
    this.perHost = perHost;
    if (typeof source === 'function') {
      this.nextPage = source;
      this.refill();
    } else {
      this.nextPage = null;
      this.add(source as readonly DeliveryTarget[]);
    }
  }

  /** Nothing queued and no page left to read. */
  isEmpty(): boolean {
    return this.queued === 0 && this.nextPage === null;
  }

  /** Resolves once the first page is in (or there is none). */
  async ready(): Promise<void> {
    while (this.reading) await this.reading;
  }

  take(): { sub: DeliveryTarget; queue: HostQueue } | null {
    if (this.queued < this.lowWater) this.refill();
    for (let scanned = 0; scanned < this.hosts.length; ) {
      if (this.cursor >= this.hosts.length) this.cursor = 0;
      const q = this.hosts[this.cursor]!;
      if (q.next >= q.subs.length) {
        // Drained: drop it from the list (swap with the last) so later scans stay short.
        this.hosts[this.cursor] = this.hosts[this.hosts.length - 1]!;
        this.hosts.pop();
        q.listed = false;
        q.subs = [];
        q.next = 0;
        if (q.active === 0) this.byHost.delete(q.host);
        continue;
      }
      this.cursor++;
      if (q.active >= this.perHost) {
        scanned++;
        continue;
      }
      q.active++;
      this.queued--;
      const sub = q.subs[q.next++]!;
      // Let go of the delivered prefix now and then (not per item: that would be O(n^2)).
      if (q.next >= 1024 && q.next * 2 >= q.subs.length) {
        q.subs = q.subs.slice(q.next);
        q.next = 0;
      }
      return { sub, queue: q };
    }
    return null;
  }

  /** A delivery to this host ended. */
  done(q: HostQueue): void {
    q.active--;
    if (q.active === 0 && !q.listed && this.byHost.get(q.host) === q) this.byHost.delete(q.host);
  }

  /** Starts reading the next page unless one is being read; its subscribers wake sleeping workers. */
  private refill(): void {
    if (this.reading || !this.nextPage) return;
    const next = this.nextPage;
    this.reading = next().then(
      (page) => {
        this.reading = null;
        if (page.length === 0) this.nextPage = null;
        else {
          this.lowWater = Math.max(1, page.length >> 1);
          this.add(page);
          if (this.queued < this.lowWater) this.refill();
        }
        // Sleepers re-check: the page may have filled hosts still listed, or ended the source.
        this.onNewHosts?.();
      },
      (e: unknown) => {
        // A page that cannot be read ends the fan-out here (the rest waits for the next change).
        this.reading = null;
        this.nextPage = null;
        this.failure = e;
        this.onNewHosts?.();
      },
    );
  }
  /** Why reading pages stopped early, if it did. */
  failure: unknown = null;

  private add(subs: readonly DeliveryTarget[]): void {
    let listed = false;
    for (const s of subs) {
      const host = hostKey(s.callbackUrl);
      let q = this.byHost.get(host);
      if (!q) {
        q = { host, subs: [], next: 0, active: 0, listed: false };
        this.byHost.set(host, q);
      }
      if (!q.listed) {
        q.listed = true;
        listed = true;
        this.hosts.push(q);
      }
      q.subs.push(s);
      this.queued++;
    }
    if (listed) this.onNewHosts?.();
  }
}

interface SharedPool {
  pool: NotifyPool;
  client: HttpClient;
  users: number;
  /** Set while no fan-out uses the pool: it is closed when this fires (or the owner closes). */
  linger: NodeJS.Timeout | null;
  /** Undoes the abort listener that closes a lingering pool with its owner. */
  unlisten: (() => void) | null;
}
const pools = new WeakMap<HttpClient, SharedPool>();

/**
 * How long the lean pool and its kept-alive sockets outlive the last fan-out. Closed at once,
 * a stream of small fan-outs that do not overlap (an instance answering a ping or two at a time)
 * paid a new TCP connection per subscriber host and fan-out: three instances opened 4,094
 * subscriber connections where one, whose fan-outs overlapped, opened 88. Sockets the subscriber
 * closes while idle leave the pool on their own (a request caught by the close is sent again).
 */
export const POOL_LINGER_MS = 10_000;

/**
 * The lean pool for this client, created on first use and closed POOL_LINGER_MS after its last
 * fan-out ends, or when `closing` (the owner's endInFlight) aborts while it lingers.
 */
function leasePool(
  http: HttpClient,
  policy: HostPolicy,
  perHost: number,
  closing: AbortSignal | undefined,
): { client: HttpClient; release(): void } {
  let shared = pools.get(http);
  if (!shared) {
    const pool = new NotifyPool({ policy, maxSocketsPerHost: perHost });
    shared = { pool, client: leanNotifyClient(http, pool), users: 0, linger: null, unlisten: null };
    pools.set(http, shared);
  }
  const s = shared;
  s.users++;
  calm(s);
  const close = () => {
    calm(s);
    s.pool.destroy();
    if (pools.get(http) === s) pools.delete(http);
  };
  let released = false;
  return {
    client: s.client,
    release() {
      if (released) return;
      released = true;
      if (--s.users > 0) return;
      if (closing?.aborted) return close();
      s.linger = setTimeout(close, POOL_LINGER_MS);
      s.linger.unref?.(); // an idle pool never keeps the process alive (its sockets neither)
      if (closing) {
        closing.addEventListener('abort', close, { once: true });
        s.unlisten = () => closing.removeEventListener('abort', close);
      }
    },
  };
}

/** The pool is in use again (or closing): no timer, no listener. */
function calm(s: SharedPool): void {
  if (s.linger) clearTimeout(s.linger);
  s.linger = null;
  s.unlisten?.();
  s.unlisten = null;
}

function hostKey(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
