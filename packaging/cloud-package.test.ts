/**
 * The cloud's own package (`npm run pack:cloud`): what the tarball holds and how small it stays,
 * and a fresh machine simulated (a temporary HOME, prefix and npm cache, a Node 24 binary and
 * nothing else on PATH): installed with `npm install -g --offline`, the `tidings-cloud` command
 * runs the cloud, an older Node is told which Node it needs, and the systemd unit it carries
 * passes `systemd-analyze verify` and scores "OK" or better in `systemd-analyze security`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import rootPkg from '../package.json' with { type: 'json' };
import { Peer } from '../src/testing/cloud-kit.ts';
import { registerThenPing, startLoggedCloud } from '../src/testing/logged-cloud.ts';
import { olderNode } from '../src/testing/older-node.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** The most the tarball and the installed package may weigh (355 KB and 1.4 MB on 2026-11-29). */
const MAX_TARBALL_KB = 512;
const MAX_INSTALLED_KB = 2048;

let home: string;
let figures: { tarball: string; size_kb: number; unpacked_kb: number; files: number };
let prefix: string;
/** PATH of the simulated machine: the Node 24 binary's folder and the system's. */
let path: string;
let env: NodeJS.ProcessEnv;

/** Every file under `dir`, with its size in bytes. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? sizeOf(p) : e.isSymbolicLink() ? 0 : statSync(p).size;
  }
  return total;
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'tidings-cloud-package-'));
  const packed = execFileSync(
    process.execPath,
    [join(ROOT, 'scripts', 'pack-cloud.mjs'), '--json', '--out', join(home, 'out')],
    {
      encoding: 'utf8',
    },
  );
  figures = JSON.parse(packed.trim().split('\n').at(-1)!);
  prefix = join(home, 'prefix');
  path = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  // A machine that never saw this repository: its own HOME, npm cache and working folder.
  env = { PATH: path, HOME: join(home, 'home'), npm_config_cache: join(home, 'npm-cache'), LANG: 'C.UTF-8' };
  mkdirSync(env.HOME!);
  // npm itself is the one this test runs under (a Node install brings its own).
  const npm = process.env.npm_execpath;
  const install = npm
    ? [
        process.execPath,
        [npm, 'install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', figures.tarball],
      ]
    : ['npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', figures.tarball]];
  execFileSync(install[0] as string, install[1] as string[], { cwd: env.HOME, env, stdio: 'pipe' });
}, 120_000);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('the tidings-cloud package', () => {
  it('holds the cloud, its launcher, its unit and pg, pino and prom-client: nothing of the app', () => {
    const listed = execFileSync('tar', ['-tzf', figures.tarball], { encoding: 'utf8' }).trim().split('\n');
    const outside = listed
      .filter((f) => !/^package\/lib\/chunk-\w+\.mjs$/.test(f))
      .filter((f) => !f.startsWith('package/node_modules/'));
    expect(outside.sort()).toEqual([
      'package/README.md',
      'package/bin/tidings-cloud.cjs',
      'package/lib/parse-worker.mjs',
      'package/lib/tidings-cloud.mjs',
      'package/package.json',
      'package/systemd/tidings-cloud.service',
    ]);
    const packages = new Set(
      listed
        .filter((f) => f.startsWith('package/node_modules/'))
        .map((f) =>
          f
            .split('/')
            .slice(2, f.split('/')[2]!.startsWith('@') ? 4 : 3)
            .join('/'),
        ),
    );
    for (const app of [
      'react',
      'react-dom',
      'electron',
      'zustand',
      'dompurify',
      'ws',
      'localtunnel',
      '@tanstack/react-virtual',
    ])
      expect(packages.has(app), app).toBe(false);
    expect([...packages]).toEqual(expect.arrayContaining(['pg', 'pino', 'prom-client']));
    // The bundle: the cloud and what it imports, never the reader, the writer or the window.
    const inputs = JSON.parse(
      readFileSync(join(dirname(figures.tarball), 'inputs.json'), 'utf8'),
    ) as string[];
    expect(
      inputs.filter((i) =>
        /^(renderer|main)\/|^src\/(app|realtime|browser-mode|publish|poll|sync|backup)\//.test(i),
      ),
    ).toEqual([]);
    expect(inputs.filter((i) => /node_modules\/(react|electron|zustand|dompurify|ws)\//.test(i))).toEqual([]);
    expect(inputs).toContain('src/cloud/cli.ts');
  });

  it("parses saveRss feeds on its worker thread: the worker's module is beside the cloud's, and reads a feed", async () => {
    const file = join(prefix, 'lib', 'node_modules', 'tidings-cloud', 'lib', 'parse-worker.mjs');
    expect(existsSync(file)).toBe(true);
    const thread = new Worker(file);
    try {
      const answers: unknown[] = [];
      const parsed = new Promise<{ result: { kind: string; feed?: { title?: string } } }>((done, fail) => {
        thread.on('error', fail);
        thread.on('message', (m: { ready?: true }) => {
          answers.push(m);
          if (m.ready) {
            const body = new TextEncoder().encode(
              '<rss version="2.0"><channel><title>Packed</title><item><title>One</title></item></channel></rss>',
            );
            thread.postMessage({ id: 1, body, options: {} });
          } else done(m as never);
        });
      });
      const answer = await parsed;
      expect(answer.result.kind, JSON.stringify(answers)).toBe('feed');
      expect(answer.result.feed?.title).toBe('Packed');
    } finally {
      await thread.terminate();
    }
  });

  it(`stays small: under ${MAX_TARBALL_KB} KB packed, ${MAX_INSTALLED_KB} KB installed`, () => {
    const installed = sizeOf(join(prefix, 'lib', 'node_modules', 'tidings-cloud')) / 1024;
    console.log(
      `tidings-cloud package: ${figures.size_kb} KB packed, ${figures.unpacked_kb} KB unpacked, ${figures.files} files; installed ${Math.round(installed)} KB`,
    );
    expect(figures.size_kb).toBeLessThan(MAX_TARBALL_KB);
    expect(installed).toBeLessThan(MAX_INSTALLED_KB);
  });

  it('names its Node (24, as the app) and pins its three dependencies to the versions the app runs', () => {
    const manifest = JSON.parse(
      readFileSync(join(prefix, 'lib', 'node_modules', 'tidings-cloud', 'package.json'), 'utf8'),
    );
    expect(manifest).toMatchObject({
      name: 'tidings-cloud',
      version: rootPkg.version,
      bin: { 'tidings-cloud': 'bin/tidings-cloud.cjs' },
      engines: { node: '>=24' },
      dependencies: {
        pg: rootPkg.dependencies.pg,
        pino: rootPkg.dependencies.pino,
        'prom-client': rootPkg.dependencies['prom-client'],
      },
    });
    expect(Object.keys(manifest.dependencies)).toHaveLength(3);
  });

  const older = olderNode();
  it.skipIf(!older)(`on an older Node (${older}) says which Node it needs, exit 1`, () => {
    const r = spawnSync(older!, [join(prefix, 'bin', 'tidings-cloud'), '--version'], {
      encoding: 'utf8',
      env,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^tidings-cloud: needs Node 24 or newer \(this is v\d+\.\d+\.\d+, /);
    expect(r.stderr).toContain('Install Node 24 or newer');
  });

  it('installed alone, runs the cloud: a subscriber registered, a ping, the notification delivered and counted', async () => {
    const bin = join(prefix, 'bin', 'tidings-cloud');
    expect(execFileSync(bin, ['--version'], { env, encoding: 'utf8' }).trim()).toBe(rootPkg.version);
    const data = join(home, 'data');
    const added = spawnSync(bin, ['user', 'add', 'alice'], {
      env: { ...env, TIDINGS_CLOUD_DATA: data },
      input: 'pw\n',
    });
    expect(added.status).toBe(0);
    const peer = await new Peer().start();
    const cloud = await startLoggedCloud([], {
      command: bin,
      env: {
        ...env,
        TIDINGS_CLOUD_PORT: '0',
        TIDINGS_CLOUD_DATA: data,
        TIDINGS_CLOUD_ALLOW_LOOPBACK: 'true',
      },
    });
    try {
      expect(cloud.started).toMatchObject({ store: 'sqlite', version: rootPkg.version });
      expect(await (await registerThenPing(cloud, peer)).json()).toMatchObject({ success: true });
      expect(peer.hits('POST', '/cb')).toHaveLength(2);
      const metrics = await (await fetch(`${cloud.url}/metrics`)).text();
      expect(metrics).toContain('tidings_cloud_notifications_total{protocol="http-post",outcome="ok"} 1');
      expect(await cloud.stop()).toBe(0);
      expect(cloud.lines.at(-1)?.msg).toBe('Cloud stopped.');
    } finally {
      await cloud.stop();
      await peer.close();
    }
  });
});

describe('its systemd unit', () => {
  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  if (!analyze)
    console.log('systemd unit tests skipped: systemd-analyze is not installed here (Debian package systemd)');

  /** The unit as an operator installs it, ExecStart at this prefix's command (npm prefix -g). */
  function installedUnit(): string {
    const shipped = readFileSync(
      join(prefix, 'lib', 'node_modules', 'tidings-cloud', 'systemd', 'tidings-cloud.service'),
      'utf8',
    );
    expect(shipped).toContain('ExecStart=/usr/local/bin/tidings-cloud\n');
    const dir = join(home, 'units');
    mkdirSync(dir, { recursive: true });
    const unit = join(dir, 'tidings-cloud.service');
    writeFileSync(unit, shipped.replace('ExecStart=/usr/local/bin/', `ExecStart=${prefix}/bin/`));
    return unit;
  }

  it.skipIf(!analyze)('passes systemd-analyze verify', () => {
    const r = spawnSync('systemd-analyze', ['verify', installedUnit()], { encoding: 'utf8' });
    expect(r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it.skipIf(!analyze)('is hardened: DynamicUser, StateDirectory, exposure "OK" or better', () => {
    const unit = installedUnit();
    const text = readFileSync(unit, 'utf8');
    for (const line of [
      'DynamicUser=yes',
      'StateDirectory=tidings-cloud',
      'ProtectSystem=strict',
      'NoNewPrivileges=yes',
      'SystemCallFilter=@system-service',
    ])
      expect(text).toContain(`\n${line}\n`);
    const r = spawnSync('systemd-analyze', ['security', '--offline=yes', unit], { encoding: 'utf8' });
    const verdict = /Overall exposure level for tidings-cloud\.service: (\d+\.\d+) (\w+)/.exec(r.stdout);
    expect(verdict, r.stdout + r.stderr).not.toBeNull();
    console.log(`systemd-analyze security --offline=yes: ${verdict![1]} ${verdict![2]}`);
    expect(Number(verdict![1])).toBeLessThan(5); // 'OK' ends at 4.9
    expect(['PERFECT', 'SAFE', 'OK']).toContain(verdict![2]);
  });
});
