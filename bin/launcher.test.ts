/**
 * The launchers: bin/tidings.cjs re-run on Node 24 by an older Node, and npm start's Electron
 * lookup. Real processes: the older Node is the machine's own (skipped, saying so, where every
 * Node on PATH is 24+).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { olderNode } from '../src/testing/older-node.ts';

const require = createRequire(import.meta.url);
const { electronBinary, readableReason } = require('../scripts/electron-binary.cjs') as {
  electronBinary(
    root: string,
    deps: {
      env?: Record<string, string>;
      log?: (line: string) => void;
      canReach?: (host: string) => Promise<boolean>;
      download?: () => { ok: boolean; output: string };
    },
  ): Promise<{ path?: string; why?: string }>;
  readableReason(output: string): string;
};

const BIN = resolve(import.meta.dirname, 'tidings.cjs');
const ROOT = resolve(import.meta.dirname, '..');

describe('bin/tidings.cjs on an older Node', () => {
  const node = olderNode();
  const children = new Set<ChildProcess>();
  let rendererDir: string;
  let dir: string;
  beforeAll(() => {
    rendererDir = mkdtempSync(join(tmpdir(), 'tidings-launcher-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>stand-in</title>');
  });
  afterAll(() => rmSync(rendererDir, { recursive: true, force: true }));
  afterEach(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    children.clear();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `tidings serve` through the old Node; resolves once it prints its URL. */
  async function serveThroughLauncher(): Promise<{
    launcher: ChildProcess;
    url: string;
    exited: Promise<{ code: number | null; signal: string | null }>;
  }> {
    dir = mkdtempSync(join(tmpdir(), 'tidings-launcher-'));
    const launcher = spawn(node!, [BIN, 'serve', '--port', '0', '--no-tunnel', '--data', dir], {
      env: { ...process.env, TIDINGS_RENDERER_DIR: rendererDir, PATH: '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(launcher);
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
      launcher.once('exit', (code, signal) => r({ code, signal })),
    );
    let out = '';
    let err = '';
    launcher.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const url = await new Promise<string>((resolveUrl, reject) => {
      launcher.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Open (http:\/\/[\d.:]+)\//.exec(out);
        if (m) resolveUrl(m[1]!);
      });
      void exited.then(({ code }) => reject(new Error(`launcher exited (${code}): ${err}`)));
    });
    return { launcher, url, exited };
  }

  /** One request: 'answered', 'refused' (nothing listens on the port) or 'no answer' (slow, or anything else). */
  async function knock(url: string): Promise<'answered' | 'refused' | 'no answer'> {
    try {
      // 10 s: on a machine kept busy by others the first page has taken more than 1 s.
      await fetch(url, { signal: AbortSignal.timeout(10_000) });
      return 'answered';
    } catch (error) {
      return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED'
        ? 'refused'
        : 'no answer';
    }
  }

  /** Whether the port is closed within `ms`: a slow answer is not a stop. */
  async function stopsAnswering(url: string, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if ((await knock(url)) === 'refused') return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  it.skipIf(!node)(
    'forwards SIGTERM to the Node 24 child and exits as it does',
    async () => {
      const { launcher, url, exited } = await serveThroughLauncher();
      expect(await knock(url)).toBe('answered');
      launcher.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(await stopsAnswering(url, 5_000)).toBe(true);
    },
    60_000,
  );

  it.skipIf(!node)(
    'its child stops when the launcher is killed with -9',
    async () => {
      const { launcher, url, exited } = await serveThroughLauncher();
      launcher.kill('SIGKILL');
      await exited;
      // Before: the child kept running and holding the port.
      expect(await stopsAnswering(url, 10_000)).toBe(true);
    },
    60_000,
  );

  it.skipIf(!node)(
    'passes the exit code through (1: failed, 2: usage)',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'tidings-launcher-codes-'));
      const code = (args: string[]) =>
        new Promise<number | null>((r) => {
          const c = spawn(node!, [BIN, ...args], {
            stdio: 'ignore',
            env: { ...process.env, PATH: '/usr/bin:/bin' },
          });
          c.once('exit', (n) => r(n));
        });
      expect(await code(['parse', join(dir, 'missing.xml')])).toBe(1);
      expect(await code(['parse', '--bogus'])).toBe(2);
    },
    60_000,
  );

  it.skipIf(!node)(
    'says how to get Node 24 when the pinned one was not installed (npm 12 skipped its install script)',
    async () => {
      // The launcher, its scripts and package.json without node_modules: what `npm ci` leaves
      // when npm 12 blocks the `node` package's install script.
      dir = mkdtempSync(join(tmpdir(), 'tidings-launcher-no-node-'));
      for (const f of [
        'bin/tidings.cjs',
        'scripts/child-process.cjs',
        'scripts/node-version.cjs',
        'package.json',
      ])
        cpSync(join(ROOT, f), join(dir, f), { recursive: true });
      const r = spawnSync(node!, [join(dir, 'bin', 'tidings.cjs'), '--version'], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^tidings: needs Node 24 or newer \(this is v\d+/);
      expect(r.stderr).toContain('"node": true under "allowScripts"');
    },
    60_000,
  );

  it.skipIf(!node)(
    'npm test on an older Node says why and ends with its totals line, one failure',
    () => {
      const r = spawnSync(node!, [join(ROOT, 'scripts', 'test.cjs')], { encoding: 'utf8', cwd: ROOT });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('tidings: needs Node 24 or newer');
      expect(r.stderr).toContain('run this through npm (npm start, npm test)');
      expect(r.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed, 0 skipped');
    },
    60_000,
  );

  // Only registered where it applies, so the report counts a skip only when these really did not run.
  if (!node) it.skip('no Node older than 24 on this machine to launch from', () => {});
});

describe('npm ci: install scripts (npm 12 runs only those package.json allows)', () => {
  it('every dependency with an install script is allowed or denied by name, and the pinned Node is allowed', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).toContain('node');
    // An unlisted one is skipped by npm 12 without an error: Node 24 itself was (Node 20 ran the tests).
    expect(withScripts.filter((name) => pkg.allowScripts?.[name] === undefined)).toEqual([]);
    expect(pkg.allowScripts?.node).toBe(true);
  });
});

describe('npm start: the Electron binary', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('tries the download on the first run only, then only when the server answers', async () => {
    root = mkdtempSync(join(tmpdir(), 'tidings-electron-'));
    const lines: string[] = [];
    let downloads = 0;
    let reachable = false;
    const deps = {
      env: { DISPLAY: ':0' },
      log: (l: string) => lines.push(l),
      canReach: async () => reachable,
      download: () => {
        downloads++;
        return {
          ok: false,
          output:
            'TypeError: fetch failed\n    at node:internal/deps/undici/undici:13502:13\n    at async downloadArtifact (/x/index.js:1:1) {\n  [cause]: Error: getaddrinfo ENOTFOUND github.com',
        };
      },
    };
    const first = await electronBinary(root, deps);
    expect(lines).toEqual(['Fetching the Electron binary (first run)…']);
    expect(first.why).toBe(
      'the Electron binary could not be downloaded (no network: github.com could not be looked up)',
    );
    expect(downloads).toBe(1);

    lines.length = 0;
    const second = await electronBinary(root, deps);
    expect(downloads).toBe(1); // not tried again while github.com cannot be reached
    expect(lines).toEqual([]);
    expect(second.why).toMatch(
      /^the Electron binary is not downloaded and github\.com cannot be reached \(last try: no network/,
    );

    reachable = true;
    await electronBinary(root, deps);
    expect(downloads).toBe(2);
    expect(lines.join('\n')).not.toContain('first run');
  });

  it.each([
    [
      'TypeError: fetch failed\n    at node:internal/deps/undici/undici:13502:13',
      'no network to download it from (fetch failed)',
    ],
    [
      'HTTPError: Response code 404 (Not Found) for https://github.com/x',
      'the download server answered HTTP 404',
    ],
    [
      'Error: connect ECONNREFUSED 127.0.0.1:443\n    at TCPConnectWrap.afterConnect',
      'the download server could not be reached (ECONNREFUSED)',
    ],
    [
      "Error: EACCES: permission denied, mkdir '/x/dist'\n    at Object.mkdirSync",
      'no permission to write into node_modules/electron',
    ],
    ['    at somewhere (file.js:1:1)\nError: something odd happened', 'something odd happened'],
  ])('one readable reason from %j', (output, reason) => {
    expect(readableReason(output)).toBe(reason);
  });
});
