/**
 * `tidings serve`'s sync flags (issue 32) in a real child process: --sync with --new-sync-password
 * prints the app password once and where both APIs answer (browser mode's port and the
 * receiver's); a phone-like client logs in with it; the next run with --no-sync answers 404 and
 * prints no password; contradicting flags are refused before anything starts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { TIDINGS_BIN, tidings } from '../testing/cli-run.ts';
import { FeverTestClient, feverKey, GReaderTestClient } from '../testing/sync-clients.ts';

let dir: string;
let child: ChildProcess | null = null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-serve-sync-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>stand-in</title>');
});
afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  child = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs serve until `ready` shows in its output; the output so far. */
async function serveUntil(args: string[], ready: RegExp): Promise<string> {
  const proc = spawn(
    process.execPath,
    [TIDINGS_BIN, 'serve', '--port', '0', '--no-tunnel', '--data', join(dir, 'data'), ...args],
    {
      env: { ...process.env, TIDINGS_RENDERER_DIR: join(dir, 'renderer') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = proc;
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print ${ready}:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
}

it('--sync --new-sync-password prints the password once and the addresses; --no-sync closes the doors', async () => {
  const out = await serveUntil(['--sync', '--sync-user', 'me', '--new-sync-password'], /Fever API: .+\n/);
  const password = /app password for me is ([a-z2-9-]{23}) \(shown this once/.exec(out)?.[1];
  expect(password).toBeDefined();
  const addresses = /Google Reader API: (.+)\n/.exec(out)![1]!.split(', ');
  expect(addresses).toHaveLength(2); // the receiver's port and browser mode's
  for (const address of addresses) {
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/greader$/);
    const client = new GReaderTestClient(address);
    expect((await client.login('me', password!)).status).toBe(200);
    expect((await client.raw('GET', '/reader/api/0/user-info')).status).toBe(200);
  }
  // A big write (2 MiB of item ids) gets the same answer from both servers: browser mode's caps
  // its own API at 1 MiB, never the doors.
  const big: [string, string][] = [['a', 'user/-/state/com.google/read']];
  for (let i = 0; big.length * 12 < 2 * 1024 * 1024; i++) big.push(['i', String(1_000_000 + i)]);
  const answers: number[] = [];
  for (const address of addresses) {
    const client = new GReaderTestClient(address);
    await client.login('me', password!);
    answers.push((await client.write('/reader/api/0/edit-tag', big)).status);
  }
  expect(answers[0]).not.toBe(413);
  expect(answers[1]).toBe(answers[0]);
  const fever = /Fever API: (\S+?)(,|\n)/.exec(out)![1]!;
  expect((await new FeverTestClient(fever, feverKey('me', password!)).call([])).auth).toBe(1);
  child!.kill('SIGTERM');
  await new Promise((r) => child!.once('exit', r));

  const again = await serveUntil(['--no-sync'], /Sync for reading apps: .+\n/);
  expect(again).toContain('Sync for reading apps: off');
  expect(again).not.toContain(password!);
  const browserMode = /Open (http:\/\/[^/\s]+)\//.exec(again)![1]!;
  expect((await new GReaderTestClient(`${browserMode}/api/greader`).login('me', password!)).status).toBe(404);
}, 60_000);

it('refuses contradicting sync flags before starting', async () => {
  const both = await tidings('serve', '--sync', '--no-sync', '--data', join(dir, 'other'));
  expect(both.code).not.toBe(0);
  expect(both.stderr).toContain('--sync and --no-sync contradict each other');
  const lonely = await tidings('serve', '--sync-user', 'me', '--data', join(dir, 'other'));
  expect(lonely.stderr).toContain('--sync-user goes with --new-sync-password');
});
