/**
 * bench:poll — a poll cycle over 10,000 feeds served on loopback (by a child process), through
 * the real pipeline: scheduler -> HTTP client -> parser -> store. Three cycles: the first fetch
 * (all new), all-304 (conditional GET), and all-changed (every feed has 50 new items).
 * FEEDS=1000 for a quick run.
 * Ends with one JSON line: {"feeds":..,"first_fetch_s":..,"all304_s":..,"allchanged_s":..,"peak_rss_mb":..,"errors":..}
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTidings } from '../src/app/tidings.ts';

const FEEDS = Number(process.env.FEEDS ?? 10_000);
const HOSTS = 10;

const farm = spawn(
  process.execPath,
  [join(import.meta.dirname, 'support', 'feed-farm.ts'), String(HOSTS), '50'],
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
  store.addFeed({ url: `http://127.0.0.1:${ports[n % HOSTS]}/feed/${n}` });
}
app.start();

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);

// CPU seconds of this process beside the wall time: on a shared machine the wall time says how
// busy the neighbours were, the CPU time what the work cost.
const cpuSeconds: number[] = [];
async function cycle(): Promise<number> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await app.refresh(null);
  await scheduler.idle();
  const used = process.cpuUsage(cpu);
  cpuSeconds.push(round((used.user + used.system) / 1e6));
  return (performance.now() - started) / 1000;
}

const loadBefore = loadavg()[0]!;
const firstFetch = await cycle();
const items1 = store.riverItems({ limit: 1 }).items.length;
const all304 = await cycle();
farm.stdin!.write('bump\n');
await nextLine();
const allChanged = await cycle();
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());

const errors = store.listFeeds().filter((f) => f.status !== 'ok').length;
await app.stop();
farm.stdin!.end();
rmSync(dataDir, { recursive: true, force: true });

const figures = {
  feeds: FEEDS,
  first_fetch_s: round(firstFetch),
  all304_s: round(all304),
  allchanged_s: round(allChanged),
  peak_rss_mb: Math.round(peakRss / 1024 / 1024),
  errors,
  first_fetch_cpu_s: cpuSeconds[0],
  all304_cpu_s: cpuSeconds[1],
  allchanged_cpu_s: cpuSeconds[2],
  load_avg: round(Math.max(loadBefore, loadavg()[0]!)),
};
console.log(`poll cycle over ${FEEDS} feeds on ${HOSTS} loopback hosts (50 items each)`);
console.log(`  first fetch (all new):   ${figures.first_fetch_s} s (CPU ${cpuSeconds[0]} s)`);
console.log(`  all 304 Not Modified:    ${figures.all304_s} s (CPU ${cpuSeconds[1]} s)   (goal < 5 s)`);
console.log(`  all changed (50 new):    ${figures.allchanged_s} s (CPU ${cpuSeconds[2]} s)   (goal < 60 s)`);
console.log(`  load average (1 min):    ${figures.load_avg} on ${cpus().length} cores`);
console.log(`  peak RSS:                ${figures.peak_rss_mb} MB   (goal < 500 MB)`);
console.log(`  feeds not ok:            ${errors}${items1 ? '' : ' (no items stored!)'}`);
console.log(JSON.stringify(figures));
process.exit(errors > 0 ? 1 : 0);

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
