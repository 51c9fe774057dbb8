/**
 * The writer's side of bench:publish, in a child process so the reader's figures are its own:
 * a whole Tidings (createTidings, as `tidings serve` runs it) with built-in hosting and its own
 * cloud, on 127.0.0.1 (`direct`) or behind the given localtunnel server (`tunnel <host>`).
 * It fills the feed to 25 posts, then prints "ready <home page URL> <data folder>". For each stdin line
 * "post <n>" it calls the API's post() and answers "posted <n> ok" (or "posted <n> error <why>")
 * once the post is stored; the saves and pings then run in its outbox as in the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTidings } from '../../src/app/tidings.ts';
import { freePort } from '../../src/net/test-server.ts';

const [mode, tunnelHost] = process.argv.slice(2);
const FEED_SIZE = 25;

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`writer: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const dataDir = mkdtempSync(join(tmpdir(), `tidings-bench-writer-${mode}-`));
const port = await freePort();
const app = createTidings({
  dataDir,
  realtime:
    mode === 'tunnel'
      ? { tunnelHost, receiverPort: 0, ownCloudAllow: { loopback: true }, installId: `writer-${process.pid}` }
      : {
          tunnelHost: false,
          publicBaseUrl: `http://127.0.0.1:${port}`,
          receiverPort: port,
          ownCloudAllow: { loopback: true },
          installId: `writer-${process.pid}`,
        },
});
app.start();
const settings = await app.updatePublishSettings({ feedSize: FEED_SIZE, title: `Bench writer (${mode})` });
if (!settings.ok) throw new Error(settings.error.message);
await until('a public home page', async () => (await app.publishInfo()).feedUrls.home !== null);

// The feed holds 25 posts before the measured ones, as the bench asks.
const published = new Set<number>();
app.on('post.changed', (p) => {
  if (p.state === 'published') published.add(p.id);
});
for (let k = 1; k <= FEED_SIZE; k++) {
  const r = await app.post({ text: `Earlier post ${k}` });
  if (!r.ok) throw new Error(r.error.message);
}
await until('the first 25 posts to be published', () => published.size >= FEED_SIZE);

const home = (await app.publishInfo()).feedUrls.home!;
console.log(`ready ${home} ${dataDir}`);

// Post -> 'published' (saved and the cloud's answer in) per measured post, for the breakdown.
const startedAt = new Map<number, number>();
const toPublished: number[] = [];
app.on('post.changed', (p) => {
  const t = startedAt.get(p.id);
  if (t !== undefined && p.state === 'published') {
    toPublished.push(performance.now() - t);
    startedAt.delete(p.id);
  }
});

const lines = createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  const [cmd, n] = line.trim().split(' ');
  if (cmd === 'post') {
    const t = performance.now();
    const r = await app.post({ text: `Bench post ${n} (${mode})`, tags: ['bench'] });
    if (r.ok) startedAt.set(r.value.id, t);
    console.log(r.ok ? `posted ${n} ok` : `posted ${n} error ${r.error.message}`);
  } else if (cmd === 'stop') {
    if (toPublished.length === 0) {
      // bench:publish's cli phase: the posts came from `tidings post`, not through this API.
      console.log('writer: the posts came from tidings post (timed by the bench)');
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
    const sorted = toPublished.sort((a, b) => a - b);
    const q = (x: number) =>
      (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * x) - 1)] ?? 0).toFixed(2);
    console.log(
      `writer: post -> published (stored, saved, cloud answered): p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`,
    );
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
