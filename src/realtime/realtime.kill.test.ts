/**
 * Real time across a kill -9 of the reader (issue 31, "Done means"): a real `tidings serve`
 * process reads one feed through a WebSub hub and one through an rssCloud cloud, both on
 * loopback. It is killed with SIGKILL while its WebSub renewal waits for the hub's verification
 * and while the publisher's news is on its way (the hub's delivery and the cloud's notification
 * reach a frozen process, then a dead one). After the restart (the real app core on the same
 * data, on a driven clock) the subscription is renewed and both new items are in the river
 * within a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { FeedView } from '../app/api.ts';
import type { Tidings } from '../app/tidings.ts';
import { ManualClock } from '../common/clock.ts';
import { freePort } from '../net/test-server.ts';
import { isSafetyNet } from '../poll/due.ts';
import { TIDINGS_BIN } from '../testing/cli-run.ts';
import { type RealCloud, startRealCloud } from '../testing/clouds.ts';
import { rssFeed, startFeedHost, type TestItem } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';
import { startStrictHub } from '../testing/websub-hub.ts';
import { hubbedFeed, hubLine, startWebSubReader, subscribeLive } from '../testing/websub-reader.ts';

const DAY = 86_400_000;
let closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

/** `tidings serve` as a user runs it; resolves once it prints where its browser page is. */
async function serveProcess(
  dataDir: string,
  receiverPort: number,
): Promise<{ child: ChildProcess; call: (m: string, ...args: unknown[]) => Promise<unknown> }> {
  const rendererDir = mkdtempSync(join(tmpdir(), 'tidings-kill-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>stand-in</title>');
  closers.push(() => rmSync(rendererDir, { recursive: true, force: true }));
  const child = spawn(
    process.execPath,
    [
      TIDINGS_BIN,
      'serve',
      '--port',
      '0',
      '--no-tunnel',
      '--public-url',
      `http://127.0.0.1:${receiverPort}`,
      '--receiver-port',
      String(receiverPort),
      '--data',
      dataDir,
    ],
    { env: { ...process.env, TIDINGS_RENDERER_DIR: rendererDir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  closers.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await waitFor(() => /Open (http:\S+)/.test(out), 20_000, `tidings serve to start (${err})`);
  const open = new URL(/Open (http:\S+)/.exec(out)![1]!);
  const token = open.searchParams.get('token')!;
  const call = async (method: string, ...args: unknown[]) => {
    const res = await fetch(`${open.origin}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ args }),
    });
    return ((await res.json()) as { result: unknown }).result;
  };
  return { child, call };
}

it('a reader killed during a WebSub renewal and a publish renews and has the news within a minute of its restart', async () => {
  const host = await startFeedHost();
  const hub = await startStrictHub();
  const cloud: RealCloud = await startRealCloud();
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-kill-'));
  closers.push(
    () => host.close(),
    () => hub.close(),
    () => cloud.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const port = await freePort();
  const hubbed = (items: TestItem[]) => hubbedFeed(hub, items);
  const clouded = (items: TestItem[]) => rssFeed('Clouded', items, cloud.markup('http-post'));
  host.set('/hubbed.xml', hubbed([{ title: 'hub one', guid: 'h1' }]));
  host.set('/clouded.xml', clouded([{ title: 'cloud one', guid: 'c1' }]));

  // Subscribed nine days ago: the hub's renewal is due now, so the process below asks for it.
  const activity: never[] = [];
  const then = new ManualClock(Date.now() - 9 * DAY - 60_000);
  const before = await startWebSubReader({ dataDir, clock: then, port, activity });
  await subscribeLive(before, hub, `${host.url}/hubbed.xml`);
  const res = await before.subscribe({ url: `${host.url}/clouded.xml` });
  if (!res.ok) throw new Error(res.error.message);
  await waitFor(
    async () => (await before.listFeeds()).every((f) => isSafetyNet(f.dueReason)),
    10_000,
    'both live',
  );
  await before.stop();

  // The real process: it renews with the hub (which holds its verification) and with the cloud.
  hub.knobs.holdVerifications = true;
  const { child, call } = await serveProcess(dataDir, port);
  await waitFor(() => hub.heldVerifications() === 1, 20_000, 'the renewal asked by the process');
  await waitFor(
    async () => ((await call('listFeeds')) as FeedView[]).every((f) => isSafetyNet(f.dueReason)),
    20_000,
    'the process reading both in real time',
  );

  // The publisher posts; the news reaches a frozen reader, which is then killed.
  host.set(
    '/hubbed.xml',
    hubbed([
      { title: 'hub two', guid: 'h2' },
      { title: 'hub one', guid: 'h1' },
    ]),
  );
  host.set(
    '/clouded.xml',
    clouded([
      { title: 'cloud two', guid: 'c2' },
      { title: 'cloud one', guid: 'c1' },
    ]),
  );
  child.kill('SIGSTOP');
  const delivered = hub.deliver(`${host.url}/hubbed.xml`, hubbed([{ title: 'hub two', guid: 'h2' }]));
  expect(await cloud.ping(`${host.url}/clouded.xml`)).toContain('Thanks for the ping.');
  const exited = new Promise((r) => child.once('exit', (_c, signal) => r(signal)));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect((await delivered).map((d) => d.status)).toEqual([null]); // lost with the process
  // The hub verifies the renewal while nobody answers.
  await hub.releaseVerifications();
  expect(hub.verifications.at(-1)).toMatchObject({ accepted: false });
  hub.knobs.holdVerifications = false;

  // The restart: the real app core on the same data, its clock driven from now.
  const clock = new ManualClock(Date.now());
  const after: Tidings = await startWebSubReader({ dataDir, clock, port, activity });
  closers.push(() => after.stop());
  const titles = async () => (await after.river({})).groups.flatMap((g) => g.items.map((i) => i.title));
  for (
    let s = 0;
    s < 60 && !((await titles()).includes('hub two') && (await titles()).includes('cloud two'));
    s++
  ) {
    clock.advance(1_000);
    await new Promise((r) => setTimeout(r, 20));
    await after.context.scheduler.idle();
  }
  expect(await titles()).toEqual(expect.arrayContaining(['hub two', 'cloud two']));
  await waitFor(
    async () => (await after.listFeeds()).some((f) => f.delivery === `${hubLine(hub)} (renews in 9 d)`),
    10_000,
    'the renewal verified after the restart',
  );
  await hub.idle(); // the hub records a verification once it has read our answer
  expect(hub.verifications.at(-1)).toMatchObject({ mode: 'subscribe', accepted: true });
  expect((await after.listFeeds()).map((f) => f.delivery.startsWith('real-time via'))).toEqual([true, true]);
}, 90_000);
