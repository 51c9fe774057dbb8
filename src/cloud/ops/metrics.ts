/**
 * /metrics: what the cloud did and holds, in Prometheus' text format (prom-client).
 *
 * Counted as it happens (this instance's, as Prometheus expects: sum them across instances):
 * registrations, pings and notifications by protocol and outcome (core/observer.ts), budget
 * refusals, requests by door and status, and fan-out durations (the log's `fanout` entries).
 * Read when scraped: whether the store answers, the delivery backlog, the database's connections,
 * statements and errors; and at most once a minute, subscribers and resources by protocol and
 * WebSub leases ending soon (one query over every subscription: the whole cloud's, the same from
 * every instance). Each read has a deadline; a database away keeps the last figures read and
 * `tidings_cloud_store_up` at 0.
 */
import client, { type Gauge, type Histogram } from 'prom-client';
import type { Cloud, CloudLogEntry } from '../cloud.ts';
import type { AttemptOutcome, CloudObserver, PingOutcome, RefusedBudget } from '../core/observer.ts';
import { queueBacklog } from '../delivery/queue-backlog.ts';
import { PgCloudStore, type PoolStats } from '../store/pg.ts';
import type { StoreCensus, SubscriberProtocol } from '../store/store.ts';
import { within } from './deadline.ts';
import { requestContext } from './request-context.ts';

const PROTOCOLS: readonly SubscriberProtocol[] = ['http-post', 'https-post', 'xml-rpc', 'websub'];
/** Leases that end within this are "ending soon" (a subscriber renews well before). */
const LEASES_SOON_MS = 60 * 60 * 1000;
/** Subscribers, resources and leases are counted at most this often (see `census`). */
const CENSUS_EVERY_MS = 60_000;
/** ...or, while fan-outs are under way, this often. */
const CENSUS_DEFER_MS = 5 * 60_000;
/** How long a scrape waits for the database before leaving its figures out. */
const SCRAPE_DEADLINE_MS = 2000;

const OUTCOME_LABEL: Record<AttemptOutcome | PingOutcome, string> = {
  ok: 'ok',
  failed: 'failed',
  timedOut: 'timed_out',
  changed: 'changed',
  unchanged: 'unchanged',
  refused: 'refused',
};

/**
 * A counter of one or two labels counted in plain numbers, handed to prom-client when scraped:
 * a delivery's count is a map lookup and an addition. Through prom-client's own inc() (its
 * labels hashed at each call) counting was half a percent of a fan-out's CPU in a profile.
 */
class LabelledCounter {
  private readonly counts = new Map<string, Map<string, number>>();
  constructor(
    name: string,
    help: string,
    labelNames: [string] | [string, string],
    registers: client.Registry[],
  ) {
    const counts = this.counts;
    new client.Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        for (const [a, byB] of counts)
          for (const [b, n] of byB) {
            if (n === 0) continue;
            this.inc(
              labelNames.length === 1 ? { [labelNames[0]]: a } : { [labelNames[0]]: a, [labelNames[1]!]: b },
              n,
            );
            byB.set(b, 0);
          }
      },
    });
  }
  inc(a: string, b = ''): void {
    let byB = this.counts.get(a);
    if (!byB) {
      byB = new Map();
      this.counts.set(a, byB);
    }
    byB.set(b, (byB.get(b) ?? 0) + 1);
  }
}

export interface MetricsOptions {
  version: string;
  /** The cloud's clock (ms since the epoch): what is live, and ages (default Date.now). */
  now?: () => number;
}

export class CloudMetrics implements CloudObserver {
  readonly registry = new client.Registry();
  private readonly registrations: LabelledCounter;
  private readonly pings: LabelledCounter;
  private readonly notifications: LabelledCounter;
  private readonly refusals: LabelledCounter;
  private readonly requests: LabelledCounter;
  private readonly fanouts: Histogram<string>;
  private cloud: Cloud | null = null;

  constructor(opts: MetricsOptions) {
    const registers = [this.registry];
    const counter = (name: string, help: string, labelNames: [string] | [string, string]) =>
      new LabelledCounter(name, help, labelNames, registers);
    this.registrations = counter(
      'tidings_cloud_registrations_total',
      'Registrations ended (rssCloud pleaseNotify per resource, WebSub subscribe), by the subscriber protocol and outcome (ok, failed, timed_out).',
      ['protocol', 'outcome'],
    );
    this.pings = counter(
      'tidings_cloud_pings_total',
      'Pings and publishes ended, by the door they came in by (rest, xml-rpc, websub, ping-site-form, rss-ping; app when no request) and outcome (changed, unchanged, failed, timed_out, refused).',
      ['protocol', 'outcome'],
    );
    this.notifications = counter(
      'tidings_cloud_notifications_total',
      'Deliveries to subscribers ended, by the subscriber protocol and outcome (ok, failed, timed_out).',
      ['protocol', 'outcome'],
    );
    this.refusals = counter(
      'tidings_cloud_budget_refusals_total',
      "Requests refused for their caller's budget (registrations, pings) or for naming too many resources.",
      ['budget'],
    );
    this.requests = counter(
      'tidings_cloud_http_requests_total',
      'HTTP requests answered, by door (rest, xml-rpc, websub, ping-site-form, rss-ping, test-api, page, admin) and status code.',
      ['door', 'status'],
    );
    this.fanouts = new client.Histogram({
      name: 'tidings_cloud_fanout_duration_seconds',
      help: 'Seconds from a change to the last delivery of its fan-out (each retry is a fan-out of its own).',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.version = opts.version;
    this.now = opts.now ?? Date.now;
    // Node's figures (CPU, memory, heap, GC, event loop lag). The lag is sampled every 100 ms,
    // not prom-client's 10: a timer that wakes every instance 100 times a second costs more than
    // it tells (a lag worth an alert is half a second).
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 100 });
  }
  private readonly version: string;
  private readonly now: () => number;

  /**
   * Reads the cloud's log (fan-out durations) and, at each scrape, its store, queue and (on
   * PostgreSQL) pool. Once per metrics. Returns the unsubscribe.
   */
  watch(cloud: Cloud): () => void {
    if (this.cloud) throw new Error('these metrics already watch a cloud');
    this.cloud = cloud;
    const registers = [this.registry];
    new client.Gauge({
      name: 'tidings_cloud_info',
      help: 'The running version and store (always 1).',
      labelNames: ['version', 'store'],
      registers,
    }).set({ version: this.version, store: cloud.store.kind }, 1);
    this.scraped(registers, cloud.store.kind === 'postgres');
    return cloud.on('log', (e: CloudLogEntry) => {
      if (e.kind === 'fanout' && e.ms !== undefined) this.fanouts.observe(e.ms / 1000);
    });
  }

  registered(protocol: SubscriberProtocol, outcome: AttemptOutcome): void {
    this.registrations.inc(protocol, OUTCOME_LABEL[outcome]);
  }

  pinged(outcome: PingOutcome): void {
    this.pings.inc(requestContext.getStore()?.door ?? 'app', OUTCOME_LABEL[outcome]);
  }

  delivered(protocol: SubscriberProtocol, outcome: AttemptOutcome): void {
    this.notifications.inc(protocol, OUTCOME_LABEL[outcome]);
  }

  refused(budget: RefusedBudget): void {
    this.refusals.inc(budget);
  }

  /** A request answered (ops/handler.ts). */
  answered(door: string, status: number): void {
    this.requests.inc(door, String(status));
  }

  /** The whole exposition, for GET /metrics: the store read once for it. */
  async text(): Promise<{ contentType: string; body: string }> {
    // Two scrapes at once share a read; the next scrape reads afresh.
    this.reading ??= this.snapshot();
    const reading = this.reading;
    try {
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    } finally {
      if (this.reading === reading) this.reading = null;
    }
  }
  /** The scrape under way's read of the store, queue and pool. */
  private reading: Promise<Snapshot> | null = null;

  /** The gauges read at each scrape from the store, the queue and (PostgreSQL) the pool. */
  private scraped(registers: client.Registry[], postgres: boolean): void {
    // Each gauge's collect runs at every scrape; they share the scrape's one read (text()).
    const read = (): Promise<Snapshot> => {
      this.reading ??= this.snapshot();
      return this.reading;
    };
    const gauge = (
      name: string,
      help: string,
      labelNames: string[],
      fill: (g: Gauge<string>, s: Snapshot) => void,
    ) =>
      new client.Gauge({
        name,
        help,
        labelNames,
        registers,
        // A figure not read this time (the database away) keeps its last value;
        // tidings_cloud_store_up says it is stale.
        async collect() {
          fill(this, await read());
        },
      });
    gauge(
      'tidings_cloud_store_up',
      'Whether the store answered this scrape within its deadline (1) or not (0).',
      [],
      (g, s) => g.set(s.storeUp ? 1 : 0),
    );
    gauge(
      'tidings_cloud_subscribers',
      'Live subscriptions of the whole cloud, by protocol (counted at most once a minute).',
      ['protocol'],
      (g, s) => {
        if (s.census) for (const p of PROTOCOLS) g.set({ protocol: p }, count(s.census, p, 'subscribers'));
      },
    );
    gauge(
      'tidings_cloud_resources',
      "Resources (feeds, topics) with live subscribers of the whole cloud, by the subscribers' protocol (counted at most once a minute).",
      ['protocol'],
      (g, s) => {
        if (s.census) for (const p of PROTOCOLS) g.set({ protocol: p }, count(s.census, p, 'resources'));
      },
    );
    gauge(
      'tidings_cloud_websub_leases_ending_soon',
      'Live WebSub subscriptions whose lease ends within the next hour (counted at most once a minute).',
      [],
      (g, s) => {
        if (s.census) g.set(s.census.leasesEndingSoon);
      },
    );
    gauge(
      'tidings_cloud_delivery_queue_changes',
      'Changes not yet delivered to all their subscribers: in the shared queue (PostgreSQL: the whole cloud), or fanning out on this instance (SQLite).',
      [],
      (g, s) => {
        if (s.queue) g.set(s.queue.changes);
      },
    );
    gauge(
      'tidings_cloud_delivery_queue_oldest_seconds',
      'Age of the oldest change not yet delivered to all its subscribers (0 when none).',
      [],
      (g, s) => {
        if (s.queue) g.set(s.queue.oldestSeconds);
      },
    );
    if (!postgres) return;
    gauge(
      'tidings_cloud_delivery_queue_deliveries',
      'Deliveries the shared queue still owes (the whole cloud).',
      [],
      (g, s) => {
        if (s.queue?.deliveries !== undefined) g.set(s.queue.deliveries);
      },
    );
    gauge(
      'tidings_cloud_db_connections',
      "This instance's PostgreSQL connections: open, idle, and requests waiting for one.",
      ['state'],
      (g, s) => {
        if (!s.pool) return;
        g.set({ state: 'open' }, s.pool.connections);
        g.set({ state: 'idle' }, s.pool.idle);
        g.set({ state: 'waiting' }, s.pool.waitingForConnection);
      },
    );
    gauge(
      'tidings_cloud_db_statements',
      "This instance's statements on PostgreSQL: running, waiting their turn, and its share of the cloud's budget (--database-statements).",
      ['state'],
      (g, s) => {
        if (!s.pool) return;
        g.set({ state: 'running' }, s.pool.running);
        g.set({ state: 'waiting' }, s.pool.waiting);
        g.set({ state: 'share' }, s.pool.share);
      },
    );
    // The store counts failed statements; the counter adds what failed since the last scrape.
    let failedSeen = 0;
    new client.Counter({
      name: 'tidings_cloud_db_errors_total',
      help: 'Statements this instance ran on PostgreSQL that failed (connection refused or lost, timeouts, errors).',
      registers,
      async collect() {
        const s = await read();
        if (!s.pool) return;
        if (s.pool.failed > failedSeen) this.inc(s.pool.failed - failedSeen);
        failedSeen = s.pool.failed;
      },
    });
  }

  private async snapshot(): Promise<Snapshot> {
    const cloud = this.cloud;
    if (!cloud) return { storeUp: false, census: null, queue: null, pool: null };
    const store = cloud.store;
    const pg = store instanceof PgCloudStore ? store : null;
    const now = this.now();
    const [probe, census, queued] = await Promise.all([
      within(store.probe(), SCRAPE_DEADLINE_MS),
      this.census(cloud, now),
      pg ? within(pg.connection().then(queueBacklog), SCRAPE_DEADLINE_MS) : null,
    ]);
    const backlog = queued?.ok ? queued.value : null;
    let queue: Snapshot['queue'] = null;
    if (pg && backlog)
      queue = {
        changes: backlog.changes,
        deliveries: backlog.deliveries,
        oldestSeconds:
          backlog.oldestQueuedAt === null ? 0 : Math.max(0, (now - backlog.oldestQueuedAt) / 1000),
      };
    if (!pg) {
      const { fanouts, oldestStartedAt } = cloud.underway();
      queue = {
        changes: fanouts,
        oldestSeconds: oldestStartedAt === null ? 0 : (now - oldestStartedAt) / 1000,
      };
    }
    return { storeUp: probe.ok, census, queue, pool: pg ? pg.poolStats() : null };
  }

  /**
   * The census, read at most every CENSUS_EVERY_MS: it reads every subscription (on SQLite, on
   * the process's own thread: 100-400 ms for 200,000 of them on a busy 2-core machine), and
   * what it counts moves slowly. The last one read while a new one cannot be.
   */
  private async census(cloud: Cloud, now: number): Promise<StoreCensus | null> {
    const last = this.lastCensus;
    const age = last ? performance.now() - last.at : Number.POSITIVE_INFINITY;
    // It waits for a moment without a fan-out (at most CENSUS_DEFER_MS): read in the middle of
    // one, it took a tenth of the CPU of a 100,000 fan-out of its own (bench:fanout).
    const busy = cloud.underway().fanouts > 0;
    if (last && (age < CENSUS_EVERY_MS || (busy && age < CENSUS_DEFER_MS))) return last.value;
    const store = cloud.store;
    const read = await within(store.census(now, LEASES_SOON_MS), SCRAPE_DEADLINE_MS);
    if (!read.ok) return last?.value ?? null;
    this.lastCensus = { at: performance.now(), value: read.value };
    return read.value;
  }
  private lastCensus: { at: number; value: StoreCensus } | null = null;
}

interface Snapshot {
  storeUp: boolean;
  census: StoreCensus | null;
  queue: { changes: number; deliveries?: number; oldestSeconds: number } | null;
  pool: PoolStats | null;
}

function count(census: StoreCensus, protocol: SubscriberProtocol, what: 'subscribers' | 'resources'): number {
  return census.byProtocol.find((r) => r.protocol === protocol)?.[what] ?? 0;
}
