/**
 * bench:poll — a poll cycle over 10,000 feeds served on loopback (by a child process), through
 * the real pipeline: scheduler -> HTTP client -> parser -> store. Three cycles: the first fetch
 * (all new), all-304 (conditional GET), and all-changed (every feed has 50 new items).
 * FEEDS=1000 for a quick run.
 *
 * The corpus's shape (so no one shape flatters the code; bench/support/feed-farm.ts):
 * HOSTS=10 (feed hosts: a few, or thousands, each a port of its own), VALIDATORS=etag (lastmod,
 * both, mix), GZIP=1 (gzip bodies), FOLDERS=0 (feeds filed in that many folders).
 * POLL_PROFILE=<dir> writes a CPU profile of the main thread for each cycle there
 * (first.cpuprofile, all304.cpuprofile, allchanged.cpuprofile).
 * Ends with one JSON line: {"feeds":..,"first_fetch_s":..,"all304_s":..,"allchanged_s":..,"peak_rss_mb":..,"errors":..}
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTidings } from '../src/app/tidings.ts';

const FEEDS = Number(process.env.FEEDS ?? 10_000);
const HOSTS = Number(process.env.HOSTS ?? 10);
const VALIDATORS = process.env.VALIDATORS ?? 'etag';
const GZIP = process.env.GZIP === '1';
const FOLDERS = Number(process.env.FOLDERS ?? 0);
const PROFILE_DIR = process.env.POLL_PROFILE ?? null;

const farm = spawn(
  process.execPath,
  [join(import.meta.dirname, 'support', 'feed-farm.ts'), String(HOSTS), '50', VALIDATORS, GZIP ? '1' : '0'],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const lines = createInterface({ input: farm.stdout! });
const nextLine = () => new Promise<string>((resolve) => lines.once('line', resolve));
const ready = await nextLine();
const ports = ready.replace('ready ', '').split(',').map(Number);

const dataDir = mkdtempSync(join(tmpdir(), 'tidings-bench-poll-'));
// The app's own defaults (8 at once, 2 per host): the figures are what a user gets.
const app = createTidings({ dataDir });
const { store, scheduler } = app.context;
for (let n = 0; n < FEEDS; n++) {
  const folder = FOLDERS > 0 ? `Folder ${n % FOLDERS}` : null;
  store.addFeed({ url: `http://127.0.0.1:${ports[n % HOSTS]}/feed/${n}`, folder });
}
// The window is open: every event goes to the renderer as the browser-mode transport sends it
// (one JSON text per event), so what events cost is in the figures. EVENTS=0 leaves them unheard.
let eventsSent = 0;
if (process.env.EVENTS !== '0') {
  app.onAny((event, payload) => {
    eventsSent += JSON.stringify({ event, payload }).length > 0 ? 1 : 0;
  });
}
app.start();

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);

// CPU seconds of this process beside the wall time: on a shared machine the wall time says how
// busy the neighbours were, the CPU time what the work cost.
const cpuSeconds: number[] = [];
const profiler = PROFILE_DIR ? new Session() : null;
profiler?.connect();
async function cycle(name: string): Promise<number> {
  if (profiler) {
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  await app.refresh(null);
  await scheduler.idle();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  cpuSeconds.push(round((used.user + used.system) / 1e6));
  if (profiler && PROFILE_DIR) {
    const { profile } = await profiler.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  return seconds;
}

const loadBefore = loadavg()[0]!;
const firstFetch = await cycle('first');
const items1 = store.riverItems({ limit: 1 }).items.length;
const all304 = await cycle('all304');
farm.stdin!.write('bump\n');
await nextLine();
const allChanged = await cycle('allchanged');
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());

const errors = store.listFeeds().filter((f) => f.status !== 'ok').length;
await app.stop();
farm.stdin!.end();
rmSync(dataDir, { recursive: true, force: true });

const figures = {
  feeds: FEEDS,
  hosts: HOSTS,
  validators: VALIDATORS,
  gzip: GZIP,
  folders: FOLDERS,
  first_fetch_s: round(firstFetch),
  all304_s: round(all304),
  allchanged_s: round(allChanged),
  peak_rss_mb: Math.round(peakRss / 1024 / 1024),
  errors,
  events_sent: eventsSent,
  first_fetch_cpu_s: cpuSeconds[0],
  all304_cpu_s: cpuSeconds[1],
  allchanged_cpu_s: cpuSeconds[2],
  // CPU per feed: the same at FEEDS=1000 and 10,000 when the cycle grows linearly.
  first_fetch_cpu_ms_per_feed: round((cpuSeconds[0]! * 1000) / FEEDS),
  all304_cpu_ms_per_feed: round((cpuSeconds[1]! * 1000) / FEEDS),
  allchanged_cpu_ms_per_feed: round((cpuSeconds[2]! * 1000) / FEEDS),
  load_avg: round(Math.max(loadBefore, loadavg()[0]!)),
};
console.log(
  `poll cycle over ${FEEDS} feeds on ${HOSTS} loopback hosts (50 items each; validators ${VALIDATORS}` +
    `${GZIP ? ', gzip' : ''}${FOLDERS > 0 ? `, in ${FOLDERS} folders` : ''})`,
);
console.log(`  first fetch (all new):   ${figures.first_fetch_s} s (CPU ${cpuSeconds[0]} s)   (goal < 60 s)`);
console.log(
  `  all 304 Not Modified:    ${figures.all304_s} s (CPU ${cpuSeconds[1]} s)   (goal < 4 s, CPU < 4 s)`,
);
console.log(`  all changed (50 new):    ${figures.allchanged_s} s (CPU ${cpuSeconds[2]} s)   (goal < 45 s)`);
console.log(`  load average (1 min):    ${figures.load_avg} on ${cpus().length} cores`);
console.log(`  peak RSS:                ${figures.peak_rss_mb} MB   (goal < 500 MB)`);
console.log(`  feeds not ok:            ${errors}${items1 ? '' : ' (no items stored!)'}`);
console.log(JSON.stringify(figures));
process.exit(errors > 0 ? 1 : 0);

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
