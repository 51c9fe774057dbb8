/**
 * `tidings serve`'s lifecycle as a user meets it, in a real child process: a taken port ends it
 * at once with a line naming the port and the flag; Ctrl-C twice (terminal + launcher) stops it
 * once, cleanly, with a fetch in flight finishing and the databases closed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../testing/feed-host.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'tidings.cjs');
let dir: string;
let rendererDir: string;
const children = new Set<ChildProcess>();

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serve(...args: string[]): Run {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-tunnel', ...args], {
    env: { ...process.env, TIDINGS_RENDERER_DIR: rendererDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  return { child, out: () => out, err: () => err, exited };
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A port someone else holds. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, server };
}

/** Resolves with how long the promise took, or rejects after `ms` (the old bug: a hang). */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(() => {
  rendererDir = mkdtempSync(join(tmpdir(), 'tidings-serve-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>stand-in</title>');
});

afterAll(() => rmSync(rendererDir, { recursive: true, force: true }));

afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tidings serve on a port in use', () => {
  it('exits 1 at once, naming the port and --port', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-serve-busy-'));
    const taken = await occupiedPort();
    try {
      const run = serve('--port', String(taken.port), '--data', dir);
      const { code } = await within(15_000, run.exited);
      expect(code).toBe(1);
      const lines = run.err().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`port ${taken.port}`);
      expect(lines[0]).toContain('--port');
      // It closed the databases it had opened: no write-ahead log left behind.
      expect(existsSync(join(dir, 'tidings.db-wal')) && statSync(join(dir, 'tidings.db-wal')).size > 0).toBe(
        false,
      );
    } finally {
      taken.server.close();
    }
  }, 30_000);

  it('exits 1 when the fixed receiver port is taken, naming --receiver-port', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-serve-busy-rx-'));
    const taken = await occupiedPort();
    try {
      const run = serve('--receiver-port', String(taken.port), '--data', dir);
      const { code } = await within(15_000, run.exited);
      expect(code).toBe(1);
      expect(run.err()).toContain(`port ${taken.port}`);
      expect(run.err()).toContain('--receiver-port');
    } finally {
      taken.server.close();
    }
  }, 30_000);
});

describe('tidings serve and signals', () => {
  let host: FeedHost;
  beforeAll(async () => {
    host = await startFeedHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('stops once on SIGINT twice: the fetch in flight is stored, databases closed, exit 0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-serve-sigint-'));
    mkdirSync(dir, { recursive: true });
    host.set('/slow.xml', {
      body: rssFeed('Slow', [{ title: 'kept', guid: 'k1' }]),
      delayMs: 4_000,
    });
    const store = openStore(join(dir, 'tidings.db'));
    store.addFeed({ url: `${host.url}/slow.xml` });
    store.close();

    const run = serve('--data', dir);
    await until('the URL line', () => /Open http/.test(run.out()));
    await until('the fetch to be in flight', () => host.hits('/slow.xml') > 0);
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 150));
    run.child.kill('SIGINT'); // npm start's second Ctrl-C: must wait, not kill
    const { code, signal } = await within(20_000, run.exited);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(run.out()).toMatch(/Already stopping/);

    const after = openStore(join(dir, 'tidings.db'));
    try {
      expect(after.riverItems({ limit: 10 }).items.map((i) => i.title)).toEqual(['kept']);
    } finally {
      after.close();
    }
  }, 40_000);
});
