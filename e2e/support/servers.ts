/** `tidings serve` as a child process for end-to-end tests; feed hosts come from src/testing. */
export { type FeedHost, rssFeed, startFeedHost } from '../../src/testing/feed-host.ts';

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface TidingsProcess {
  /** The URL printed by `tidings serve` (carries the token). */
  openUrl: string;
  dataDir: string;
  /** Everything the process has printed so far, and how it ended if it has (attached to a failed test). */
  output(): string;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface TidingsChild {
  /** The first match of `ready` in the child's output (e.g. the URL it printed). */
  ready: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** Runs `tidings <command> --data <temp dir> ...args` until its output matches `ready`. */
export async function spawnTidings(command: string, args: string[], ready: RegExp): Promise<TidingsChild> {
  const dataDir = mkdtempSync(join(tmpdir(), `tidings-e2e-${command}-`));
  const child = await spawnTidingsOn(dataDir, command, args, ready);
  return {
    ready: child.ready,
    dataDir,
    output: child.output,
    async stop() {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `tidings <command> --data <dataDir> ...args` until its output matches `ready`; stopping it
 * keeps the data folder (the caller's), so a test can start it again on the same data.
 */
export async function spawnTidingsOn(
  dataDir: string,
  command: string,
  args: string[],
  ready: RegExp,
): Promise<{ ready: string; output(): string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'tidings.cjs'), command, '--data', dataDir, ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const matched = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`tidings ${command} did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1] ?? match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      output += `\n[tidings ${command} exited: ${signal ?? `code ${code}`}]\n`;
      reject(new Error(`tidings ${command} exited with ${code}:\n${output}`));
    });
  });
  return {
    ready: matched,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startTidings(extraArgs: string[] = []): Promise<TidingsProcess> {
  // Tests stay on loopback: without a loopback tunnel server or a public URL, no tunnel at all
  // (the default would reach the public localtunnel service).
  const args =
    extraArgs.includes('--tunnel-host') || extraArgs.includes('--public-url')
      ? extraArgs
      : ['--no-tunnel', ...extraArgs];
  const child = await spawnTidings('serve', ['--port', '0', ...args], /Open (http:\/\/\S+)/);
  return { openUrl: child.ready, dataDir: child.dataDir, output: child.output, stop: child.stop };
}
