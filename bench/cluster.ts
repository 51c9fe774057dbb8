/**
 * bench:cluster: the cloud on one SQLite instance, one PostgreSQL instance and three PostgreSQL
 * instances (real `tidings cloud` child processes; PostgreSQL started here on loopback, as the
 * tests do). In BENCH_CLUSTER_ROUNDS rounds (3) that the configurations take in turns (the
 * figures are the medians of their rounds), each configuration:
 *   1. 100,000 subscribers of one resource, one ping: `fanout_100k_s`, seconds until all were
 *      delivered;
 *   2. 10,000 resources with 10 subscribers each, each pinged once as fast as the cloud answers
 *      (32 callers, requests spread over the instances): `pings_per_s`, pings served per second
 *      (first ping to the last delivery they set going), `answers_per_s`, pings answered per
 *      second (first ping to last answer), and `pg3_over_pg1_pings` the ratio of pg3's
 *      pings_per_s to pg1's.
 * delivered / lost / duplicates count what the subscribers (one loopback server here) received,
 * over every fan-out and round; peak_rss_mb is the largest peak resident memory of one
 * instance. Subscriptions are inserted through the store (not timed). Prints one JSON line at the
 * end.
 *
 *   npm run bench:cluster            (BENCH_CLUSTER_ONLY=pg1,pg3 runs those configurations)
 *
 * The bench's own side is lean: its subscribers a minimal HTTP/1.1 responder on raw sockets
 * (bench/support/lean-sink.ts), its writers the cloud's lean keep-alive client. On 2 cores the
 * instances share the CPU with them, and node:http's server and fetch cost the bench about as much
 * CPU per delivery as the cloud's own work; real subscribers and writers are other machines.
 * BENCH_CLUSTER_PEERS=node uses node:http and fetch again, to compare with figures before
 * 2026-11-27.
 *
 * Metrics: instances count for /metrics as `tidings cloud` does by default, and the bench scrapes
 * each every 15 s (Prometheus' default). BENCH_CLUSTER_METRICS=off starts
 * them with --no-metrics; =both sets up each configuration twice, with and without (`pg3` and
 * `pg3_nometrics`), taking turns like the others, and gives `metrics_cost_<name>_pings` and
 * `metrics_cost_<name>_fanout` (1 - with / without, for pings/s; with / without - 1, for the
 * fan-out's seconds). Instances log at their default level (info) either way;
 * BENCH_CLUSTER_LOG_LEVEL sets theirs (e.g. warn: no line per ping).
 *
 * BENCH_CLUSTER_NODE_ARGS passes Node options to the instances alone, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` for a CPU profile of each (written when it stops).
 *
 * BENCH_CLUSTER_TRACE=1 prints on stderr when each phase starts and ends (epoch seconds), and how
 * many connections the subscriber server has accepted so far, to line up with CPU samples of
 * the processes; the CPU of PostgreSQL (all its processes, ended ones too), the instances and
 * this process, per delivery of each fan-out (with when a tenth, half, nine tenths and all had
 * arrived) and per ping of each round of pings: on a shared machine, CPU per ping varies less
 * from run to run than pings per second; and the instances' context switches (their main threads
 * slept or were preempted, their other threads slept) per delivery or ping. Three instances on 2
 * cores sleep and wake far more often than one (each is idle more often), which costs CPU.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUBSCRIPTION_TTL_MS } from '../src/cloud/core/core.ts';
import { NotifyPool } from '../src/cloud/delivery/notify-pool.ts';
import { openCloudStore } from '../src/cloud/store/open.ts';
import type { BulkSubscription } from '../src/cloud/store/store.ts';
import { pgRows, startPostgres } from '../src/testing/pg.ts';
import { type Sink, type SinkHandlers, startLeanSink } from './support/lean-sink.ts';
import { median } from './support/stats.ts';

const CLI = fileURLToPath(new URL('../src/cloud/cli.ts', import.meta.url));
const BIG = Number(process.env.BENCH_CLUSTER_BIG ?? 100_000);
const RESOURCES = Number(process.env.BENCH_CLUSTER_RESOURCES ?? 10_000);
const PER_RESOURCE = 10;
const CALLERS = 32;
/** Rounds (a fan-out, then the 10,000 pings) per configuration, taken in turns (the figures are their medians). */
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const TRACE = Boolean(process.env.BENCH_CLUSTER_TRACE);
/** Node options for the instances only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (profiles of the cloud, not the bench). */
const INSTANCE_NODE_ARGS = (process.env.BENCH_CLUSTER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** Instances with metrics (on), without (off), or each configuration both ways (both). */
const METRICS_MODE = process.env.BENCH_CLUSTER_METRICS ?? 'on';
if (!['on', 'off', 'both'].includes(METRICS_MODE))
  throw new Error('BENCH_CLUSTER_METRICS is on, off or both');
const NO_METRICS = '_nometrics';
const LOG_LEVEL = process.env.BENCH_CLUSTER_LOG_LEVEL;

/**
 * Subscribers and feeds on one loopback server: /feed/... serves a feed, POST counts a delivery.
 * It is the lean responder (bench/support/lean-sink.ts) unless BENCH_CLUSTER_PEERS=node asks for
 * node:http's server, which on 2 cores takes about as much CPU per delivery as the cloud does.
 */
const hits = new Map<string, number>();
let received = 0;
const versions = new Map<string, number>();
const handlers: SinkHandlers = {
  get: (path) => ({
    type: 'application/rss+xml',
    body: `<rss version="2.0"><channel><title>${path}</title><item><title>v${versions.get(path) ?? 0}</title></item></channel></rss>`,
  }),
  post: (path) => {
    hits.set(path, (hits.get(path) ?? 0) + 1);
    received++;
  },
};
/** BENCH_CLUSTER_PEERS=node: the bench's side as it was before 2026-11-27 (node:http subscribers, fetch writers), to compare. */
const NODE_PEERS = process.env.BENCH_CLUSTER_PEERS === 'node';
const sink = NODE_PEERS ? await startNodeSink(handlers) : await startLeanSink(handlers);
const mark = (what: string) => {
  // The monotonic clock in µs too: the clock of the instances' CPU profiles (BENCH_CLUSTER_NODE_ARGS).
  if (TRACE)
    console.error(
      `[${Date.now() / 1000}] ${what} (connections so far ${sink.connections()}; monotonic ${process.hrtime.bigint() / 1000n} us)`,
    );
};

/** The same subscribers on node:http's server (BENCH_CLUSTER_PEERS=node). */
async function startNodeSink(h: SinkHandlers): Promise<Sink> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method === 'GET') {
      const { type, body } = h.get(path);
      res.setHeader('content-type', type);
      res.end(body);
      return;
    }
    req.resume();
    req.on('end', () => {
      h.post(path);
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    refused: () => 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The fields of /proc/PID/stat after the process's name (field 3, state, first); null once gone. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime (+ the children it waited for, with `reaped`) of a process, in ms (0 once gone). */
function cpuMs(f: string[] | null, reaped = false): number {
  if (!f) return 0;
  // Fields 14-17 of stat (utime, stime, cutime, cstime) are 11-14 here; ticks of 10 ms.
  const ticks = Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  return ticks * 10;
}

/**
 * CPU ms of PostgreSQL: the postmaster with the backends it reaped, and those still running (one
 * gone meanwhile is counted in the postmaster's reaped time).
 */
function postgresCpuMs(postmaster: number): number {
  let ms = cpuMs(statFields(postmaster), true);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (f && Number(f[1]) === postmaster) ms += cpuMs(f);
  }
  return ms;
}

/**
 * Context switches of a process so far: its main thread went to sleep (waiting for I/O or a
 * timer), was preempted; and its other threads (V8's helpers, libuv's pool) went to sleep.
 */
function switches(pid: number): { slept: number; preempted: number; helpers: number } {
  const sw = { slept: 0, preempted: 0, helpers: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    const slept = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    if (tid !== String(pid)) {
      sw.helpers += slept;
      continue;
    }
    sw.slept = slept;
    sw.preempted = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return sw;
}

interface CpuSample {
  pg: number;
  instances: number;
  bench: number;
  /** The instances' context switches (switches()). */
  slept: number;
  preempted: number;
  helpers: number;
}
function cpuSample(pids: number[]): CpuSample {
  const own = process.cpuUsage();
  const sw = pids.map(switches);
  return {
    pg: postgresCpuMs(pg.pid),
    instances: pids.reduce((n, pid) => n + cpuMs(statFields(pid)), 0),
    bench: (own.user + own.system) / 1000,
    slept: sw.reduce((n, s) => n + s.slept, 0),
    preempted: sw.reduce((n, s) => n + s.preempted, 0),
    helpers: sw.reduce((n, s) => n + s.helpers, 0),
  };
}
/** What the trace prints of two samples: CPU (x `scale` ms) and the instances' context switches per `n`. */
function cpuPer(a: CpuSample, b: CpuSample, n: number, scale: number, unit: string): string {
  const per = (k: keyof CpuSample, by = 1) => (((b[k] - a[k]) * by) / n).toFixed(2);
  return `CPU ${unit}: postgres ${per('pg', scale)}, instances ${per('instances', scale)}, bench ${per('bench', scale)}; instances' context switches: main threads ${per('slept')} slept, ${per('preempted')} preempted; other threads ${per('helpers')} slept`;
}
const base = `http://127.0.0.1:${sink.port}`;

/** A database's sessions (connections opened) and commits so far (pg_stat_database). */
async function databaseStats(database: string): Promise<{ sessions: number; commits: number }> {
  const [row] = await pgRows<{ sessions: number; commits: number }>(
    pg.adminUrl,
    `SELECT sessions::float8 AS sessions, xact_commit::float8 AS commits FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  return row ?? { sessions: 0, commits: 0 };
}
async function resetStatements(): Promise<void> {
  await pgRows(pg.adminUrl, 'SELECT pg_stat_statements_reset()');
}
/**
 * The trace's statement counts (pg_stat_statements, loaded only when tracing): what the database
 * ran for one configuration since `resetStatements`, per ping, the statements run most first,
 * with how often they were planned and the milliseconds PostgreSQL spent compiling them (JIT);
 * and the connections (backends) opened meanwhile.
 */
async function printStatements(
  name: string,
  database: string,
  pings: number,
  before: { sessions: number; commits: number },
): Promise<void> {
  const rows = await pgRows<{ calls: number; plans: number; ms: number; jit: number; query: string }>(
    pg.adminUrl,
    `SELECT calls::float8 AS calls, plans::float8 AS plans, total_exec_time + total_plan_time AS ms,
      jit_generation_time + jit_inlining_time + jit_optimization_time + jit_emission_time AS jit,
      left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS query
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1
    ORDER BY calls DESC LIMIT 14`,
    [database],
  );
  const after = await databaseStats(database);
  const all = rows.reduce((n, r) => n + r.calls, 0);
  console.error(
    `${name} per ping: ${(all / pings).toFixed(2)} statements (top 14), ${((after.commits - before.commits) / pings).toFixed(2)} commits; ${after.sessions - before.sessions} connections opened`,
  );
  console.error('  calls  plans  plan+exec ms  JIT ms (per ping)');
  for (const r of rows)
    console.error(
      `  ${(r.calls / pings).toFixed(3)}  ${(r.plans / pings).toFixed(3)}  ${(r.ms / pings).toFixed(3)}  ${(r.jit / pings).toFixed(3)}  ${r.query}`,
    );
}

interface Instance {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
  /** Scrapes /metrics every 15 s while the instance counts (cleared when it stops). */
  scraper?: NodeJS.Timeout;
}

function startInstance(location: string[], metrics: boolean): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [
      ...INSTANCE_NODE_ARGS,
      CLI,
      '--port',
      '0',
      '--allow-loopback',
      '--pings-per-minute',
      '10000000',
      '--work-per-minute',
      '10000000',
      ...(metrics ? [] : ['--no-metrics']),
      ...(LOG_LEVEL ? ['--log-level', LOG_LEVEL] : []),
      ...location,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((r) => child.once('exit', r));
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)\//.exec(out);
      if (!m) return;
      // What it prints afterwards is let go (V8 traces from BENCH_CLUSTER_NODE_ARGS can be long).
      child.stdout!.off('data', read).resume();
      resolve({ child, url: m[1]!, exited });
    };
    child.stdout!.on('data', read);
    void exited.then(() => reject(new Error(`instance exited before listening: ${out}`)));
  });
}

/** Peak resident memory of a process, from /proc (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

async function seed(location: string, subs: BulkSubscription[]) {
  const store = openCloudStore(location);
  try {
    await store.ready();
    for (let i = 0; i < subs.length; i += 20_000)
      await store.insertSubscriptions(subs.slice(i, i + 20_000), Date.now());
  } finally {
    await store.close();
  }
}

async function until(cond: () => boolean, quietMs = 2000, maxMs = 600_000): Promise<void> {
  const start = Date.now();
  let last = received;
  let lastChange = Date.now();
  while (!cond()) {
    await new Promise((r) => setTimeout(r, 20));
    if (received !== last) {
      last = received;
      lastChange = Date.now();
    }
    // Nothing new for a long while: what is missing is lost.
    if (Date.now() - lastChange > 30_000 || Date.now() - start > maxMs) return;
  }
  await new Promise((r) => setTimeout(r, quietMs)); // late duplicates would arrive now
}

/** Resolves once nothing arrived for `ms`. */
async function quiet(ms: number): Promise<void> {
  let last = -1;
  let since = Date.now();
  while (Date.now() - since < ms) {
    await new Promise((r) => setTimeout(r, 50));
    if (received !== last) {
      last = received;
      since = Date.now();
    }
  }
}

/**
 * The pinging writers: the cloud's own lean keep-alive client (fetch cost the bench about 0.5 ms
 * of CPU a ping, which the instances share on 2 cores; real writers are other machines), or fetch
 * with BENCH_CLUSTER_PEERS=node.
 */
const PING_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
const writers = new NotifyPool({
  policy: { allowLoopback: true, allowPrivate: false },
  maxSocketsPerHost: CALLERS,
});
async function ping(url: string, feed: string): Promise<boolean> {
  const request = { method: 'POST', headers: PING_HEADERS, body: `url=${encodeURIComponent(feed)}` } as const;
  if (NODE_PEERS) return /success="true"/.test(await (await fetch(`${url}/ping`, request)).text());
  const res = await writers.request({ ...request, url: `${url}/ping`, timeoutMs: 120_000 });
  if (!res?.ok) throw new Error(`ping ${url}: ${res ? res.error.message : 'not a plain http URL'}`);
  return /success="true"/.test(Buffer.from(res.value.body).toString());
}

/** A configuration's instances, set up and with its fan-out measured; its rounds of pings added as they run. */
interface Config {
  name: string;
  location: string;
  instances: Instance[];
  /** Seconds from the ping of the 100,000 subscribers' feed to their last delivery, one per round. */
  fanouts: number[];
  /** Deliveries expected so far, those counted, and the duplicates among what arrived. */
  expected: number;
  delivered: number;
  duplicates: number;
  rounds: { servedPerS: number; answeredPerS: number }[];
}

/**
 * Once late arrivals had their time: adds what arrived since the last call to the configuration
 * (deliveries, one per callback path, and duplicates), counts anew, and says it for the log line.
 */
async function tally(c: Config, expected: number): Promise<string> {
  await until(() => true); // late duplicates arrive now
  const arrived = hits.size;
  const duplicates = received - arrived;
  c.expected += expected;
  c.delivered += arrived;
  c.duplicates += duplicates;
  countAnew();
  return `delivered ${arrived}/${expected}, duplicates ${duplicates}`;
}

/** Forgets what arrived so far (what the subscribers count starts here). */
function countAnew(): void {
  hits.clear();
  received = 0;
}

/**
 * Seeds the configuration's subscriptions, starts its instances and reads every feed once (the
 * baseline).
 */
async function setUp(name: string, location: string, count: number): Promise<Config> {
  const expires = Date.now() + SUBSCRIPTION_TTL_MS;
  const sub = (feedUrl: string, path: string): BulkSubscription => ({
    feedUrl,
    callbackUrl: `${base}${path}`,
    protocol: 'http-post',
    notifyProcedure: null,
    expiresAt: expires,
  });
  const bigFeed = `${base}/feed/${name}/big.xml`;
  const all: BulkSubscription[] = [];
  for (let i = 0; i < BIG; i++) all.push(sub(bigFeed, `/cb/${name}/big/${i}`));
  for (let r = 0; r < RESOURCES; r++)
    for (let k = 0; k < PER_RESOURCE; k++)
      all.push(sub(`${base}/feed/${name}/r${r}.xml`, `/cb/${name}/r${r}/${k}`));
  await seed(location, all);
  all.length = 0;
  const loc = location.startsWith('postgres') ? ['--database', location] : ['--data', join(location, '..')];
  const metrics = !name.endsWith(NO_METRICS);
  const instances = await Promise.all(Array.from({ length: count }, () => startInstance(loc, metrics)));
  if (metrics)
    for (const i of instances)
      i.scraper = setInterval(
        () =>
          void fetch(`${i.url}/metrics`).then(
            (r) => r.text(),
            () => '',
          ),
        15_000,
      );
  // The first read of each feed is its baseline (no delivery: nobody is owed the first version).
  await ping(instances[0]!.url, bigFeed);
  for (let r = 0; r < RESOURCES; r += CALLERS)
    await Promise.all(
      Array.from({ length: Math.min(CALLERS, RESOURCES - r) }, (_, k) =>
        ping(instances[(r + k) % count]!.url, `${base}/feed/${name}/r${r + k}.xml`),
      ),
    );
  // First reads are changes too (nothing was known before): wait until their deliveries end.
  await quiet(3000);
  countAnew();
  return { name, location, instances, fanouts: [], expected: 0, delivered: 0, duplicates: 0, rounds: [] };
}

/** One change to the 100,000 subscribers of one feed, pinged once: seconds to the last delivery. */
async function fanoutRound(c: Config, round: number): Promise<void> {
  const { name, instances } = c;
  mark(`${name} round ${round} fanout start`);
  versions.set(`/feed/${name}/big.xml`, round + 1);
  const pids = instances.map((i) => i.child.pid!);
  const cpu0 = TRACE ? cpuSample(pids) : null;
  const t0 = performance.now();
  // The trace: when a tenth, half, nine tenths and all of the deliveries had arrived (a long tail
  // is a stall, not a slow fan-out).
  const marks = [0.1, 0.5, 0.9, 0.99, 1].map((share) => ({ share, at: 0 }));
  const markProgress = () => {
    for (const m of marks) if (!m.at && hits.size >= m.share * BIG) m.at = performance.now() - t0;
  };
  const progress = cpu0 ? setInterval(markProgress, 10) : undefined;
  await ping(instances[round % instances.length]!.url, `${base}/feed/${name}/big.xml`);
  await until(() => hits.size >= BIG, 0);
  const s = (performance.now() - t0) / 1000;
  if (cpu0) {
    clearInterval(progress);
    markProgress(); // the last arrivals may have come after the interval's last look
    console.error(
      `${name} round ${round} fan-out: ${marks.map((m) => `${m.share * 100}% at ${(m.at / 1000).toFixed(2)} s`).join(', ')}; ${cpuPer(cpu0, cpuSample(pids), BIG, 1000, 'us per delivery')}`,
    );
  }
  mark(`${name} round ${round} fanout end`);
  const counted = await tally(c, BIG);
  c.fanouts.push(s);
  console.log(`${name} round ${round}: fan-out to ${BIG} subscribers ${s.toFixed(2)} s, ${counted}`);
}

/**
 * One round: every one of the 10,000 feeds changes and is pinged once, as fast as the cloud
 * answers. Pings served per second count a ping when what it set going is delivered (from the
 * first ping to the last delivery): a cloud that answers faster than it delivers is only growing
 * its queue, which a longer run would show. Pings answered per second are printed beside it.
 */
async function pingRound(c: Config, round: number): Promise<void> {
  const { name, instances } = c;
  const count = instances.length;
  mark(`${name} round ${round} pings start`);
  const pids = instances.map((i) => i.child.pid!);
  const database = c.location.startsWith('postgres') ? new URL(c.location).pathname.slice(1) : null;
  if (TRACE && database) await resetStatements();
  const db0 = TRACE && database ? await databaseStats(database) : null;
  const cpu0 = TRACE ? cpuSample(pids) : null;
  for (let r = 0; r < RESOURCES; r++) versions.set(`/feed/${name}/r${r}.xml`, round + 1);
  let next = 0;
  let answered = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, k) => {
      for (let r = next++; r < RESOURCES; r = next++)
        if (await ping(instances[(r + k) % count]!.url, `${base}/feed/${name}/r${r}.xml`)) answered++;
    }),
  );
  const answeredS = (performance.now() - t1) / 1000;
  mark(`${name} round ${round} pings end`);
  const expected = RESOURCES * PER_RESOURCE;
  await until(() => hits.size >= expected, 0);
  const servedS = (performance.now() - t1) / 1000;
  mark(`${name} round ${round} pings delivered`);
  if (cpu0) {
    // Up to the last delivery of the pings (what answering them set going), per ping.
    console.error(
      `${name} round ${round} pings: ${cpuPer(cpu0, cpuSample(pids), RESOURCES, 1, 'ms per ping')}`,
    );
    if (database && db0) await printStatements(name, database, RESOURCES, db0);
  }
  const counted = await tally(c, expected);
  c.rounds.push({ servedPerS: RESOURCES / servedS, answeredPerS: RESOURCES / answeredS });
  console.log(
    `${name} round ${round}: ${(RESOURCES / servedS).toFixed(0)} pings/s served (last delivery ${((servedS - answeredS) * 1000).toFixed(0)} ms after the last answer), ${(RESOURCES / answeredS).toFixed(0)} answered (${answered} with success), ${counted}`,
  );
}

/** Stops the instances and gives the configuration's figures. */
async function finish(c: Config): Promise<Record<string, number>> {
  const peak = Math.max(...c.instances.map((i) => peakRssMb(i.child.pid!)));
  for (const i of c.instances) clearInterval(i.scraper);
  for (const i of c.instances) i.child.kill('SIGTERM');
  await Promise.all(c.instances.map((i) => i.exited));
  const served = median(c.rounds.map((r) => r.servedPerS));
  const answeredPerS = median(c.rounds.map((r) => r.answeredPerS));
  const fanoutS = median(c.fanouts);
  console.log(
    `${c.name}: 100k fan-out ${fanoutS.toFixed(2)} s, ${served.toFixed(0)} pings/s served, ${answeredPerS.toFixed(0)} answered (medians of ${c.rounds.length} rounds), delivered ${c.delivered}/${c.expected}, duplicates ${c.duplicates}, peak RSS ${peak} MB`,
  );
  return {
    [`${c.name}_fanout_100k_s`]: Number(fanoutS.toFixed(2)),
    [`${c.name}_pings_per_s`]: Math.round(served),
    [`${c.name}_answers_per_s`]: Math.round(answeredPerS),
    [`${c.name}_delivered`]: c.delivered,
    [`${c.name}_lost`]: c.expected - c.delivered,
    [`${c.name}_duplicates`]: c.duplicates,
    [`${c.name}_peak_rss_mb`]: peak,
  };
}

const only = process.env.BENCH_CLUSTER_ONLY?.split(',');
const wanted = (name: string) => !only || only.includes(name);
const out: Record<string, number> = {};
const pg = await startPostgres(
  TRACE ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } : {},
);
if (TRACE) await pgRows(pg.adminUrl, 'CREATE EXTENSION pg_stat_statements');
const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-cluster-'));
const configs: Config[] = [];
/** Each configuration's names: with metrics, without, or both (see BENCH_CLUSTER_METRICS). */
const variants = (name: string) =>
  METRICS_MODE === 'both'
    ? [name, `${name}${NO_METRICS}`]
    : [METRICS_MODE === 'on' ? name : `${name}${NO_METRICS}`];
try {
  for (const [base, count] of [
    ['sqlite1', 1],
    ['pg1', 1],
    ['pg3', 3],
  ] as const) {
    if (!wanted(base)) continue;
    for (const name of variants(base)) {
      let location: string;
      if (base === 'sqlite1') {
        mkdirSync(join(dir, name));
        location = join(dir, name, 'cloud.sqlite');
      } else location = await pg.createDatabase(`bench_${name}`);
      configs.push(await setUp(name, location, count));
    }
  }
  // The configurations take turns, in the opposite order each round, so that a machine that gets
  // busier or quieter meanwhile weighs on all of them alike (the figures are medians of rounds).
  for (let round = 0; round < ROUNDS; round++)
    for (const c of round % 2 ? [...configs].reverse() : configs) {
      await fanoutRound(c, round);
      await pingRound(c, round);
    }
  for (const c of configs) Object.assign(out, await finish(c));
  // Without metrics only: the names carry the suffix.
  const pg1 = out.pg1_pings_per_s ?? out[`pg1${NO_METRICS}_pings_per_s`];
  const pg3 = out.pg3_pings_per_s ?? out[`pg3${NO_METRICS}_pings_per_s`];
  if (pg1 && pg3) out.pg3_over_pg1_pings = Number((pg3 / pg1).toFixed(2));
  for (const c of configs) {
    const off = `${c.name}${NO_METRICS}`;
    if (c.name.endsWith(NO_METRICS) || out[`${off}_pings_per_s`] === undefined) continue;
    out[`metrics_cost_${c.name}_pings`] = Number(
      (1 - out[`${c.name}_pings_per_s`]! / out[`${off}_pings_per_s`]!).toFixed(3),
    );
    out[`metrics_cost_${c.name}_fanout`] = Number(
      (out[`${c.name}_fanout_100k_s`]! / out[`${off}_fanout_100k_s`]! - 1).toFixed(3),
    );
  }
} finally {
  for (const c of configs)
    for (const i of c.instances) {
      clearInterval(i.scraper);
      i.child.kill('SIGTERM');
    }
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
  writers.destroy();
  await sink.close();
}
if (sink.refused())
  throw new Error(`the subscribers refused ${sink.refused()} chunked requests they could not count`);
console.log(JSON.stringify(out));
