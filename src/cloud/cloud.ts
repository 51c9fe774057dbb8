/**
 * The cloud as a Request -> Response handler (STYLE §9): `tidings cloud` serves it with serve(),
 * and the app mounts it under a path (e.g. /cloud) on the receiver's server so one tunnel serves
 * both. This file routes each request to its door and wires the layers (README.md here):
 *
 *   POST {base}/pleaseNotify, /ping, /RPC2   rssCloud REST and XML-RPC (doors/rsscloud.ts), with
 *                              weblogUpdates.ping and extendedPing over XML-RPC (doors/weblog-updates.ts)
 *   POST {base}/websub         the WebSub hub: subscribe, unsubscribe, publish (doors/websub.ts)
 *   GET  {base}/pingSiteForm   the weblogUpdates HTTP ping; POST {base}/rssPing RSS Ping v2 (doors/rss-ping.ts)
 *   GET  {base}/changes.xml    sites changed in the last hour (pages/changes.ts)
 *   GET  {base}/               status page; GET {base}/viewLog(.json) recent calls;
 *   GET  {base}/subscriptions.json; GET|HEAD {base}/feeds/{name}.xml feeds saved with saveRss (pages/)
 *   GET  {base}/docs[/{slug}], /pingForm, /pleaseNotifyForm   human pages (pages/docs.ts)
 *   POST {base}/test/*         the reference's test API, only with `testApi` (doors/test-api.ts)
 *
 * Paths match case-insensitively, as the reference cloud's (Express) routes do.
 *
 * Ping timing, chosen against the reference cloud: it answers a ping only after every
 * notification has finished or timed out (up to 4 s with one slow subscriber). Here the answer
 * goes out right after the feed was read and compared, and the fan-out continues in the
 * background (`pingWaitMs` makes the answer wait up to that long for it, e.g. 4000 to match the
 * reference exactly). A publisher is never held up by slow subscribers.
 */

import { type Clock, systemClock, type TimerHandle } from '../common/clock.ts';
import type { CloudElement } from '../feed/model.ts';
import type { ParsePool } from '../feed/parse-pool.ts';
import type { ParseResult } from '../feed/parse-types.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import type { HostPolicy } from '../net/types.ts';
import { CallerBudget, type CallerLimits, cost, DEFAULT_PING_LIMITS } from './core/budget.ts';
import { CloudCore, RESOURCE_RETENTION_MS } from './core/core.ts';
import { CloudLog, type CloudLogEntry } from './core/log.ts';
import { messages } from './core/messages.ts';
import type { CloudObserver } from './core/observer.ts';
import { DEFAULT_MAX_FEED_BYTES, saveRss } from './core/saverss.ts';
import { type SiteChangeDeps, siteChanged } from './core/site-changes.ts';
import { WebSubHub } from './core/websub-hub.ts';
import type { TopicContent } from './delivery/deliver.ts';
import type { FanoutLimits, FanoutReport } from './delivery/fanout.ts';
import { DeliveryQueue, type QueueLimits, SharedLog } from './delivery/queue.ts';
import { plain } from './doors/answers.ts';
import { sourceAddressOf } from './doors/params.ts';
import { formOf, queryOf, readBody } from './doors/request.ts';
import { handleRssPing, MAX_RSS_PING_BYTES } from './doors/rss-ping.ts';
import { handlePing, handlePleaseNotify, handleRpc, type RssCloudDoorDeps } from './doors/rsscloud.ts';
import { testApi } from './doors/test-api.ts';
import { pingSiteForm } from './doors/weblog-updates.ts';
import { answerHub, DEFAULT_LEASES, DEFAULT_MAX_PER_CALLBACK, type LeasePolicy } from './doors/websub.ts';
import { changesXml } from './pages/changes.ts';
import { docsPage, pingForm, pleaseNotifyForm } from './pages/docs.ts';
import { serveSavedFeed } from './pages/saved-feed.ts';
import { logJson, logPage, statusPage, subscriptionsJson } from './pages/status.ts';
import {
  DOC_ROUTE,
  ENDPOINTS,
  FEED_ROUTE,
  isPage,
  normaliseBase,
  relativePath,
  routeKey,
  TEST_ROUTE,
  withoutTrailingSlash,
} from './routes.ts';
import { openCloudStore } from './store/open.ts';
import { PgCloudStore } from './store/pg.ts';
import type { CloudStore } from './store/store.ts';

export interface CloudDeps {
  /**
   * The SQLite file (created if absent), or a PostgreSQL URL (postgres://...): every instance
   * naming the same database is one cloud (store/open.ts).
   */
  dbPath: string;
  /** A store already opened (by `tidings cloud`, to report a bad database before listening). */
  store?: CloudStore;
  /** Feed reads and handler verification. Its host policy should match `allow`. */
  http: HttpClient;
  clock: Clock;
  /** Where peers reach this cloud (scheme, host, port), for saveRss URLs and the status page. Default: the request's origin. */
  publicBaseUrl?: string;
  /** Path the cloud is mounted under, e.g. '/cloud' (default: the root). */
  basePath?: string;
  /** Address ranges callbacks may point at (the HTTP clients enforce the same when dialling). */
  allow?: { loopback?: boolean; private?: boolean };
  /** How the operator opens those ranges, named in refusals (`tidings cloud`: its flags). */
  howToAllow?: HostPolicy['howToAllow'];
  /** A proxy is in front: the caller's address is the last X-Forwarded-For entry. */
  trustProxy?: boolean;
  /** Minimum seconds between pings of one feed (0 or absent: none). */
  minPingIntervalSec?: number;
  /** Entries kept for the log page (default 250). */
  logSize?: number;
  /** Client for notifications; default: one with 128 sockets per host and the `allow` policy. */
  notifyHttp?: HttpClient;
  /** How long a ping answer waits for its fan-out (default 0: not at all). */
  pingWaitMs?: number;
  /** Budget per handler test and notification, redirects included (default 4,000 ms). */
  notifyTimeoutMs?: number;
  fanout?: Partial<FanoutLimits>;
  /** Request bodies beyond this are refused with 413 (default 1 MiB; saveRss carries a whole feed). */
  maxBodyBytes?: number;
  /**
   * Feed parser for saveRss (default: src/feed/parse.ts on a worker thread for all but small
   * feeds, started on first use: a megabyte of feed never holds up the other callers).
   */
  parseFeed?: (body: string) => ParseResult | Promise<ParseResult>;
  /** Resources per pleaseNotify and reads/tests per caller per minute for registrations (budget.ts defaults). */
  callerLimits?: Partial<CallerLimits>;
  /** Reads per caller per minute for pings and publishes, a budget apart from registrations. */
  pingLimits?: Partial<CallerLimits>;
  /** How long an rssCloud subscription lasts after its registration (default 25 hours). */
  subscriptionTtlMs?: number;
  /** WebSub leases granted (default 1 day, clamped to 5 minutes .. 10 days). */
  leases?: Partial<LeasePolicy>;
  /** WebSub subscriptions one callback may hold (default 10,000). */
  maxSubscriptionsPerCallback?: number;
  /**
   * Delays before retrying a failed WebSub delivery, one per retry (core.ts
   * DEFAULT_CONTENT_RETRY_MS); retries are kept in the store and survive a restart.
   */
  contentRetryMs?: readonly number[];
  /** Several instances on PostgreSQL: the shared delivery queue's batch, lease and poll (delivery/queue.ts). */
  queue?: Partial<QueueLimits>;
  /** Mount the reference cloud's test API under /test (never on a public cloud). */
  testApi?: boolean;
  /** Told each registration's, ping's, delivery's and refusal's outcome (`tidings cloud`'s /metrics). */
  observer?: CloudObserver;
}

export interface Cloud {
  handle(req: Request, info: { remoteAddress: string }): Promise<Response>;
  /** Recent calls, newest first; `fn` hears each new one. Returns the unsubscribe function. */
  on(event: 'log', fn: (entry: CloudLogEntry) => void): () => void;
  recentLog(limit?: number): CloudLogEntry[];
  /** In-process ping (the app's own publisher), same answer as POST /ping. */
  ping(feedUrl: string): Promise<{ success: boolean; msg: string }>;
  /**
   * Fan-out to the feed's live subscribers without reading it (the caller knows it changed);
   * WebSub subscribers get `content` when given, else one read.
   */
  notifyChanged(feedUrl: string, content?: TopicContent): Promise<FanoutReport>;
  /** Resolves when no read or fan-out is running. */
  idle(): Promise<void>;
  /** Removes expired subscriptions now (also done hourly). */
  sweep(): Promise<number>;
  /** Fan-outs under way on this instance, and when the oldest started (/metrics on SQLite). */
  underway(): { fanouts: number; oldestStartedAt: number | null };
  readonly store: CloudStore;
  close(): Promise<void>;
}

export type { CloudLogEntry, CloudLogKind } from './core/log.ts';
export type { TopicContent } from './delivery/deliver.ts';
export type { FanoutReport } from './delivery/fanout.ts';

/**
 * The `<cloud>` element for feeds that use this cloud, reached at `publicBaseUrl` (scheme, host,
 * port) under `basePath`: REST registration, https-post when the public URL is https.
 */
export function cloudElementFor(publicBaseUrl: string, basePath = ''): CloudElement {
  const url = new URL(publicBaseUrl);
  const https = url.protocol === 'https:';
  return {
    domain: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (https ? 443 : 80)),
    path: `${normaliseBase(basePath)}/pleaseNotify`,
    registerProcedure: '',
    protocol: https ? 'https-post' : 'http-post',
  };
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** How long a saveRss feed may take to read (a megabyte takes about 100 ms on a quiet core). */
const SAVE_RSS_PARSE_MS = 750;

/**
 * Body caps of the doors that carry less than a whole feed: a WebSub form (the reference's form
 * parser takes 100 KB), an RSS Ping document (names and one item). The others take up to
 * maxBodyBytes: /RPC2 (saveRss), the rssCloud forms (a registration may name many feeds, and is
 * answered with how many it may).
 */
const DOOR_BODY_BYTES: Record<string, number> = {
  '/websub': 100 * 1024,
  '/rssping': MAX_RSS_PING_BYTES,
};

/** A path segment decoded; a malformed escape (`%E0`) is kept as sent, which names nothing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function createCloud(deps: CloudDeps): Cloud {
  const clock = deps.clock ?? systemClock;
  const basePath = normaliseBase(deps.basePath ?? '');
  const policy: HostPolicy = {
    allowLoopback: deps.allow?.loopback ?? false,
    allowPrivate: deps.allow?.private ?? false,
    ...(deps.howToAllow ? { howToAllow: deps.howToAllow } : {}),
  };
  const store = deps.store ?? openCloudStore(deps.dbPath);
  const log = new CloudLog(clock, deps.logSize ?? 250);
  const ownNotifyHttp = deps.notifyHttp
    ? null
    : createHttpClient({ maxSocketsPerHost: deps.fanout?.perHost ?? 128, hostPolicy: policy });
  const notifyHttp = deps.notifyHttp ?? ownNotifyHttp!;
  // Where subscribers reach the hub, for the Link header of WebSub deliveries: the public URL,
  // else the origin the last request came to.
  let seenOrigin = deps.publicBaseUrl ?? 'http://127.0.0.1';
  const hubUrl = () => `${(deps.publicBaseUrl ?? seenOrigin).replace(/\/+$/, '')}${basePath}/websub`;
  // On PostgreSQL every fan-out goes through the queue all instances share (delivery/queue.ts).
  let queue: DeliveryQueue | null = null;
  const core = new CloudCore({
    store,
    get queue() {
      return queue ?? undefined;
    },
    http: deps.http,
    notifyHttp,
    clock,
    log,
    policy,
    minPingIntervalSec: deps.minPingIntervalSec ?? 0,
    pingWaitMs: deps.pingWaitMs ?? 0,
    hubUrl,
    ...(deps.subscriptionTtlMs ? { subscriptionTtlMs: deps.subscriptionTtlMs } : {}),
    ...(deps.contentRetryMs ? { contentRetryMs: deps.contentRetryMs } : {}),
    ...(deps.fanout ? { fanout: deps.fanout } : {}),
    ...(deps.notifyTimeoutMs ? { notifyTimeoutMs: deps.notifyTimeoutMs } : {}),
    ...(deps.observer ? { observer: deps.observer } : {}),
  });
  // On PostgreSQL the log is the cloud's, not this instance's: entries are written in batches
  // (a fan-out logs one per notification) and /viewLog reads them back from the database.
  let sharedLog: SharedLog | null = null;
  if (store instanceof PgCloudStore) {
    sharedLog = new SharedLog(store, log);
    queue = new DeliveryQueue(store, core.deliverBatch, deps.queue, {
      clock,
      retryDelaysMs: core.retryDelays,
    });
    void queue.start().catch(() => undefined); // a database away: the first request says why
  }
  // Failed WebSub deliveries kept in the store are tried again, those left by the last run too.
  core.startRetries();
  const recentLog = async () => (sharedLog ? sharedLog.recent(deps.logSize ?? 250) : log.recent());
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_FEED_BYTES + 64 * 1024;
  // Registrations and pings spend from separate budgets: an aggregator registering its 10,000
  // feeds never makes the same address's pings wait (issue 15).
  const budget = new CallerBudget(clock, deps.callerLimits);
  const pingBudget = new CallerBudget(clock, { ...DEFAULT_PING_LIMITS, ...deps.pingLimits });
  const leases: LeasePolicy = { ...DEFAULT_LEASES, ...deps.leases };
  const doors: SiteChangeDeps = { core, store, log, http: deps.http, clock };
  const hub = new WebSubHub({
    store,
    core,
    http: deps.http,
    clock,
    log,
    maxPerCallback: deps.maxSubscriptionsPerCallback ?? DEFAULT_MAX_PER_CALLBACK,
    delivery: () => ({ ...(deps.notifyTimeoutMs ? { timeoutMs: deps.notifyTimeoutMs } : {}) }),
    ...(deps.observer ? { observer: deps.observer } : {}),
  });
  const startedAt = clock.now();
  let parser = deps.parseFeed ?? null;
  let closed = false;

  // One sweep at a time per instance, each at the time it was due; across
  // instances the store's lock makes it once per cloud.
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweepNow = () => {
    const at = clock.now(); // the time it was due, not when the one before it ended
    sweeping = sweeping.then(() =>
      core
        .sweep(at)
        .catch((e: unknown) => log.add({ kind: 'expired', detail: `sweep failed: ${String(e)}` })),
    );
    void core.track(sweeping);
  };
  sweepNow();
  let sweepTimer: TimerHandle | null = null;
  const scheduleSweep = () => {
    sweepTimer = clock.setTimer(SWEEP_EVERY_MS, () => {
      if (closed) return;
      sweepNow();
      scheduleSweep();
    });
  };
  scheduleSweep();

  const publicBase = (req: Request) =>
    `${(deps.publicBaseUrl ?? new URL(req.url).origin).replace(/\/+$/, '')}${basePath}`;

  let parsePool: ParsePool | null = null;
  async function loadParser(): Promise<(body: string) => ParseResult | Promise<ParseResult>> {
    if (!parser) {
      const pool = (await import('../feed/parse-pool.ts')).createParsePool({ offThreadBytes: 16 * 1024 });
      parsePool = pool;
      parser = (body) => pool.parse(Buffer.from(body), { maxParseMs: SAVE_RSS_PARSE_MS });
    }
    return parser;
  }

  /**
   * The work a request would make us do, within the caller's limits? The refusal's sentence
   * when not (budget.ts): nothing is read or tested for a refused request.
   */
  function refusal(source: string, urls: number | null, pings = 1): string | null {
    const { maxUrlsPerRequest } = budget.limits;
    let msg: string | null = null;
    if (urls !== null && urls > maxUrlsPerRequest) {
      msg = messages.tooManyResources(maxUrlsPerRequest, urls);
      deps.observer?.refused('resources');
    } else {
      const which = urls === null ? pingBudget : budget;
      const spent = which.spend(source, urls === null ? cost.ping * pings : cost.pleaseNotify(urls));
      if (!spent.ok) {
        msg = messages.overBudget(which.limits.perMinute, spent.retryAfterSec);
        deps.observer?.refused(urls === null ? 'pings' : 'registrations');
      }
    }
    if (msg) log.add({ kind: 'refused', detail: `${source}: ${msg}` });
    return msg;
  }

  const rssCloudDoor: RssCloudDoorDeps = {
    core,
    log,
    maxBodyBytes,
    refusal: (source, urls) => refusal(source, urls),
    saveRss: async (params, req) =>
      saveRss(
        { store, core, log, clock, parseFeed: await loadParser(), maxFeedBytes: DEFAULT_MAX_FEED_BYTES },
        params,
        publicBase(req),
      ),
    siteChanged: (signal) => siteChanged(doors, signal),
  };

  async function route(req: Request, info: { remoteAddress: string }): Promise<Response> {
    const url = new URL(req.url);
    const rel = relativePath(url.pathname, basePath);
    if (rel === null) return plain(404, 'Not Found');
    // One trailing slash is the same route, as in the reference (routes.ts).
    const path = routeKey(rel);
    const method = req.method.toUpperCase();
    if (!deps.publicBaseUrl) seenOrigin = url.origin;
    const base = basePath;

    if (method === 'GET' || method === 'HEAD') {
      if (path === '/docs') return docsPage(base, null);
      const doc = DOC_ROUTE.exec(withoutTrailingSlash(rel));
      if (doc) return docsPage(base, safeDecode(doc[1]!));
      if (path === '/pingform') return pingForm(base);
      if (path === '/changes.xml') return changesXml(store, clock.now());
      if (path === '/pingsiteform') {
        if (url.searchParams.has('url')) {
          const source = sourceAddressOf(info.remoteAddress, req.headers, deps.trustProxy ?? false);
          const refused = refusal(source, null);
          if (refused) return plain(429, refused);
        }
        return pingSiteForm(doors, base, queryOf(url));
      }
      if (path === '/pleasenotifyform') return pleaseNotifyForm(base);
      if (path === '/') {
        const base = new URL(publicBase(req));
        const cloudElement = cloudElementFor(base.origin, base.pathname);
        return statusPage({ store, now: clock.now(), startedAt, publicBase: base.href, cloudElement });
      }
      if (path === '/viewlog') return logPage(await recentLog());
      if (path === '/viewlog.json') return logJson(await recentLog());
      if (path === '/subscriptions.json') return subscriptionsJson(store);
      const feed = FEED_ROUTE.exec(path);
      if (feed) {
        const row = await store.savedFeedByName(safeDecode(feed[1]!));
        return row ? serveSavedFeed(req, row) : plain(404, 'Not Found');
      }
    }
    if (isPage(path)) return plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    const testRoute = deps.testApi ? TEST_ROUTE.exec(path) : null;
    const endpoint = Object.hasOwn(ENDPOINTS, path) || testRoute !== null;
    if (!endpoint) return plain(404, 'Not Found');
    if (method !== 'POST') return plain(405, 'Method Not Allowed', { allow: 'POST' });

    // Each door's own cap: what its protocol carries, no more (saveRss a whole feed over XML-RPC).
    const cap = Math.min(maxBodyBytes, DOOR_BODY_BYTES[path] ?? maxBodyBytes);
    const body = await readBody(req, cap);
    if (body === null) {
      log.add({ kind: 'refused', detail: `request body to ${path} over ${cap} bytes` });
      return plain(413, 'Payload Too Large', { connection: 'close' });
    }
    if (testRoute) {
      const answer = await testApi(
        { store, sweep: () => store.sweep(clock.now(), RESOURCE_RETENTION_MS, { wait: true }) },
        testRoute[1]!,
        body,
      );
      return answer ?? plain(404, 'Not Found');
    }
    const source = sourceAddressOf(info.remoteAddress, req.headers, deps.trustProxy ?? false);
    if (path === '/websub')
      return answerHub({ core, hub, log, leases }, await formOf(req, body), {
        publish: (topics) => refusal(source, null, topics),
        subscribe: () => refusal(source, 1),
      });
    if (path === '/rssping') {
      const refused = refusal(source, null);
      return refused ? plain(429, refused) : handleRssPing(doors, body);
    }
    if (path.endsWith('pleasenotify')) return handlePleaseNotify(rssCloudDoor, req, body, source);
    if (path.endsWith('ping')) return handlePing(rssCloudDoor, req, body, source);
    return handleRpc(rssCloudDoor, req, body, source);
  }

  return {
    async handle(req, info) {
      if (closed) return plain(503, 'Service Unavailable');
      return route(req, info);
    },
    on(_event, fn) {
      return log.subscribe(fn);
    },
    recentLog: (limit) => log.recent(limit),
    async ping(feedUrl) {
      const { success, msg } = await core.ping(feedUrl);
      return { success, msg };
    },
    notifyChanged: (feedUrl, content) => core.notifyChanged(feedUrl, content),
    idle: () => core.idle(),
    sweep: () => core.sweep(),
    underway: () => core.underway(),
    store,
    async close() {
      if (closed) return;
      closed = true;
      sweepTimer?.cancel();
      // Deliveries in flight finish; what this instance claimed and did not deliver goes back.
      await queue?.stop();
      await sharedLog?.close();
      core.stop();
      ownNotifyHttp?.close(); // ends our deliveries in flight now rather than at their deadline
      await parsePool?.close();
      await core.idle();
      await store.close();
    },
  };
}
