/**
 * Fan-out benchmark for the rssCloud server (src/cloud): time from a ping to the last of
 * N subscribers notified, for N = 10,000 and 100,000, and the cloud process's peak memory.
 *
 * Honest measurement: the subscribers (and the feed) live in a separate child process, a tiny
 * node:http server that counts notification POSTs and reports over IPC the moment the Nth
 * arrives. The cloud runs in this process behind serve(), and the ping is a real POST /ping.
 * Setup: the N subscriptions are inserted straight through the cloud's store API
 * (store.insertSubscriptions), not registered one by one over HTTP; that is not measured.
 *
 * Then a mixed run (issue 15): MIXED subscribers (default 100,000) on one feed, half rssCloud
 * http-post (told the URL), half WebSub with a secret each (the feed's body, signed), one ping.
 * Its peak RSS is sampled every 50 ms during that run only (the process's maxRSS covers every run).
 *
 * Run: npx node bench/fanout.ts   (ends with one JSON line; SIZES=10000 MIXED=0 to skip parts)
 *
 * Metrics: the cloud counts for /metrics as `tidings cloud` does (ops/metrics.ts, scraped every
 * 15 s meanwhile, as Prometheus does by default); BENCH_METRICS=off runs it without,
 * to measure what they cost (run both in turns: `metrics` in the JSON line says which).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createCloud } from '../src/cloud/cloud.ts';
import { SUBSCRIPTION_TTL_MS } from '../src/cloud/core/core.ts';
import { opsHandler } from '../src/cloud/ops/handler.ts';
import { CloudMetrics } from '../src/cloud/ops/metrics.ts';
import { systemClock } from '../src/common/clock.ts';
import { createHttpClient } from '../src/net/http-client.ts';
import { serve } from '../src/net/serve.ts';

const SIZES = (process.env.SIZES ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const MIXED = Number(process.env.MIXED ?? '100000');
const METRICS = (process.env.BENCH_METRICS ?? 'on') !== 'off';

// The subscriber process: counts POSTs per batch, serves a feed that changes on every read.
const SUBSCRIBER = `
const http = require('node:http');
let expected = 0, count = 0, reads = 0, cpu0 = process.cpuUsage();
const server = http.createServer({ keepAlive: true, keepAliveTimeout: 30000 }, (req, res) => {
  if (req.method === 'GET') {
    reads++;
    const body = '<rss version="2.0"><channel><title>bench</title><item><guid>' + reads + '</guid></item></channel></rss>';
    res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-length': Buffer.byteLength(body) });
    return res.end(body);
  }
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
    res.end('ok');
    count++;
    if (count === expected) {
      const c = process.cpuUsage(cpu0);
      process.send({ done: count, cpuMs: Math.round((c.user + c.system) / 1000) });
    }
  });
});
server.maxRequestsPerSocket = 0;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => { if (m.expect) { expected = m.expect; count = 0; cpu0 = process.cpuUsage(); process.send({ ready: true }); } });
process.on('disconnect', () => process.exit(0));
`;

function startSubscriber(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', SUBSCRIBER], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m: { port?: number }) =>
      m.port ? resolve({ child, port: m.port }) : reject(new Error('no port')),
    );
  });
}

function nextMessage<T>(
  child: ChildProcess,
  pick: (m: Record<string, unknown>) => T | undefined,
): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      const v = pick(m);
      if (v !== undefined) {
        child.off('message', on);
        resolve(v);
      }
    };
    child.on('message', on);
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-fanout-'));
  const sub = await startSubscriber();
  const base = `http://127.0.0.1:${sub.port}`;
  const http = createHttpClient({ hostPolicy: { allowLoopback: true } });
  const metrics = METRICS ? new CloudMetrics({ version: 'bench' }) : null;
  const cloud = createCloud({
    dbPath: join(dir, 'cloud.sqlite'),
    http,
    clock: systemClock,
    allow: { loopback: true },
    ...(metrics ? { observer: metrics } : {}),
  });
  metrics?.watch(cloud);
  // Served as `tidings cloud` serves it (request ids, the operator's routes), its log discarded.
  const logger = pino({ level: 'info' }, pino.destination('/dev/null'));
  const server = await serve(
    opsHandler({ cloud, logger, metrics, trustProxy: false, startedAt: Date.now() }, { admin: true }),
  );
  // A scrape every 15 s, Prometheus' default.
  const scraper = metrics
    ? setInterval(() => void fetch(`${server.url}/metrics`).then((r) => r.text()), 15_000)
    : undefined;

  let peakSampled = process.memoryUsage.rss();
  let peakHeap = 0;
  const heapSampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 100);
  const sampler = setInterval(() => {
    peakSampled = Math.max(peakSampled, process.memoryUsage.rss());
  }, 50); // maxRSS (below) is the exact peak; sampling more often only costs the cloud CPU

  const results: Record<string, number> = {};
  let delivered = 0;
  console.log(
    `Fan-out: ping -> last of N notified; subscribers in one loopback process (pid ${sub.child.pid}).`,
  );
  console.log('Setup: subscriptions inserted through the cloud store API (not timed).');
  try {
    const runs = [
      ...SIZES.map((n) => ({ n, mixed: false })),
      ...(MIXED > 0 ? [{ n: MIXED, mixed: true }] : []),
    ];
    for (const { n, mixed } of runs) {
      const key = mixed ? `mixed_n${n}` : `n${n}`;
      const feed = `${base}/feed-${key}.xml`;
      const now = Date.now();
      // In slices, so the setup's own garbage does not count as the cloud's peak memory.
      for (let from = 0; from < n; from += 10_000) {
        await cloud.store.insertSubscriptions(
          Array.from({ length: Math.min(10_000, n - from) }, (_, k) => {
            const i = from + k;
            const websub = mixed && i % 2 === 1;
            return {
              feedUrl: feed,
              callbackUrl: `${base}/cb/${key}/${i}`,
              protocol: websub ? ('websub' as const) : ('http-post' as const),
              notifyProcedure: null,
              expiresAt: now + SUBSCRIPTION_TTL_MS,
              ...(websub ? { secret: `secret-${i}`, leaseSeconds: 86_400 } : {}),
            };
          }),
          now,
        );
      }
      if (mixed) {
        global.gc?.();
        peakSampled = process.memoryUsage.rss();
      }
      const ready = nextMessage(sub.child, (m) => (m.ready ? true : undefined));
      sub.child.send({ expect: n });
      await ready;

      const done = nextMessage(sub.child, (m) =>
        typeof m.done === 'number' ? { received: m.done, subCpuMs: Number(m.cpuMs) } : undefined,
      );
      const rssAtPing = process.memoryUsage.rss();
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const res = await fetch(`${server.url}/ping`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ url: feed }),
      });
      const answer = (await res.json()) as { success: boolean; msg: string };
      const answeredMs = performance.now() - t0;
      if (!answer.success) throw new Error(`ping refused: ${answer.msg}`);
      // Counted by the subscribers as they arrive; the cloud's own failures would keep `done` away.
      const { received, subCpuMs } = await done;
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const cpuSeconds = Math.round((cpu.user + cpu.system) / 1e4) / 100;
      await cloud.idle();
      const failed = n - received;
      results[`${key}_s`] = Math.round(seconds * 1000) / 1000;
      results[`${key}_cpu_s`] = cpuSeconds;
      results[`${key}_cpu_system_s`] = Math.round(cpu.system / 1e4) / 100;
      results[`${key}_subscriber_cpu_s`] = Math.round(subCpuMs / 10) / 100;
      if (mixed) results.mixed_peak_rss_mb = Math.round((peakSampled / (1024 * 1024)) * 10) / 10;
      delivered += n - failed;
      console.log(
        `${mixed ? 'mixed (half http-post, half WebSub signed bodies) ' : ''}N=${String(n).padStart(6)}  last notified after ${seconds.toFixed(3)} s (cloud CPU ${cpuSeconds} s, ` +
          `${Math.round((cpuSeconds * 1e6) / n)} us per delivery; subscriber process CPU ${(subCpuMs / 1000).toFixed(2)} s; ` +
          `cloud RSS at the ping ${Math.round(rssAtPing / 1048576)} MB)  ` +
          `(ping answered in ${answeredMs.toFixed(1)} ms; ${n - failed} delivered, ${failed} failed)`,
      );
    }
  } finally {
    clearInterval(scraper);
    clearInterval(sampler);
    await server.close();
    await cloud.close();
    http.close();
    sub.child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
  clearInterval(heapSampler);
  const peakRss = Math.max(peakSampled, process.resourceUsage().maxRSS * 1024);
  console.log(
    `Peak JS heap in use: ${Math.round(peakHeap / 1024 / 1024)} MB (the rest of the RSS is V8's headroom, sockets, SQLite)`,
  );
  const peakMb = Math.round((peakRss / (1024 * 1024)) * 10) / 10;
  console.log(`Peak RSS of the cloud process: ${peakMb} MB (goal: 100,000 in under 10 s, under 400 MB)`);
  if (results.mixed_peak_rss_mb !== undefined)
    console.log(
      `Peak RSS during the mixed run (sampled): ${results.mixed_peak_rss_mb} MB (goal: under 10 s, under 400 MB)`,
    );
  console.log(
    JSON.stringify({
      ...results,
      peak_rss_mb: peakMb,
      delivered,
      metrics: METRICS ? 1 : 0,
      // The whole run's CPU (set-up included): what a scrape or a census costs lands here however
      // it falls against the timed fan-outs.
      process_cpu_s: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1e4) / 100,
      load_avg: Math.round(loadavg()[0]! * 10) / 10,
    }),
  );
}

await main();
