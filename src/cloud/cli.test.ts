/**
 * `tidings cloud` as a real child process: it starts, answers, stops cleanly on SIGTERM, keeps
 * its state through kill -9, and manages accounts. Bad input: one line, non-zero exit.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Peer, postForm, rpcCall, spawnCloudCli } from '../testing/cloud-kit.ts';
import { isLoopbackHost } from './cli.ts';
import { messages } from './core/messages.ts';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
let dir: string;
const children = new Set<ChildProcess>();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-cloud-cli-'));
});

afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the cloud; resolves with its URL once it printed the listening line. */
async function start(...extra: string[]) {
  const started = await spawnCloudCli(['--port', '0', '--data', dir, ...extra]);
  children.add(started.child);
  return started;
}

async function waitUntil(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
}

function run(args: string[], input = '') {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('tidings cloud (server)', () => {
  it('starts, answers GET /, and exits 0 promptly on SIGTERM', async () => {
    const { child, url, exited } = await start();
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Tidings cloud');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('stops on SIGINT too, with a connection still open, saying it is stopping then stopped', async () => {
    const { child, url, exited } = await start();
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const hello = await rpcCall(`${url}/RPC2`, 'rssCloud.hello', []);
    expect(hello.answer).toEqual({ kind: 'value', value: true });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // JSON lines (ops/logging.ts), each with its level and time.
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; msg: string; time: string });
    expect(lines.map((l) => l.msg)).toEqual([
      'SIGINT received',
      'Stopping the cloud (closing connections and the database)...',
      'Cloud stopped.',
    ]);
    expect(lines.every((l) => l.level === 'info' && !Number.isNaN(Date.parse(l.time)))).toBe(true);
  });

  it('--test-api mounts the test routes on loopback and says so; without it they are absent', async () => {
    const plain = await start();
    expect((await fetch(`${plain.url}/test/clear`, { method: 'POST', body: '{}' })).status).toBe(404);
    plain.child.kill('SIGTERM');
    await plain.exited;
    let out = '';
    const withApi = spawn(process.execPath, [CLI, '--port', '0', '--data', dir, '--test-api'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(withApi);
    const url = await new Promise<string>((resolve) => {
      withApi.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/[^\s/]+)\//.exec(out);
        if (m) resolve(m[1]!);
      });
    });
    const res = await fetch(`${url}/test/clear`, { method: 'POST', body: '{}' });
    expect(await res.json()).toEqual({ success: true });
    await waitUntil(() => out.includes('test API is mounted'));
    const warning = out.split('\n').find((l) => l.includes('test API is mounted'))!;
    expect(JSON.parse(warning)).toMatchObject({
      level: 'warn',
      msg: expect.stringMatching(/^the test API is mounted at http:\/\/127\.0\.0\.1:\d+\/test\//),
    });
    expect(warning).not.toMatch(/WARNING/);
    withApi.kill('SIGTERM');
    // Binding beyond loopback (not done here: tests bind 127.0.0.1) is what draws the warning.
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.10', 'cloud.example.org'].some(isLoopbackHost)).toBe(false);
  });

  it('a second SIGINT while stopping waits for the stop: exit 0, not death by signal', async () => {
    const { child, url, exited } = await start();
    await rpcCall(`${url}/RPC2`, 'rssCloud.hello', []);
    const died = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await died).toBeNull();
  });

  it('keeps subscriptions and accounts through kill -9', async () => {
    expect(run(['user', 'add', 'alice', '--data', dir], 'pw one\n').code).toBe(0);
    const peer = await new Peer().start();
    try {
      peer.route('GET', '/rss.xml', 200, '<rss/>').route('POST', '/cb', 200, 'ok');
      const first = await start('--allow-loopback');
      const reg = await postForm(
        `${first.url}/pleaseNotify`,
        { port: peer.port, path: '/cb', protocol: 'http-post', url1: `${peer.url}/rss.xml` },
        'application/json',
      );
      expect(JSON.parse(reg.text)).toEqual({ success: true, msg: messages.subscribed });
      first.child.kill('SIGKILL');
      await first.exited;

      const second = await start('--allow-loopback');
      const subs = (await (await fetch(`${second.url}/subscriptions.json`)).json()) as {
        feeds: Record<string, { subscriptions: unknown[] }>;
      };
      expect(subs.feeds[`${peer.url}/rss.xml`]?.subscriptions).toHaveLength(1);
      const saved = await rpcCall(`${second.url}/RPC2`, 'rssCloud.saveRss', [
        'alice',
        'pw one',
        '<rss version="2.0"><channel><title>t</title></channel></rss>',
      ]);
      expect(saved.answer).toEqual({ kind: 'value', value: `${second.url}/feeds/alice.xml` });
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await peer.close();
    }
  });

  it('refuses loopback feeds unless --allow-loopback', async () => {
    const peer = await new Peer().start();
    try {
      peer.route('GET', '/rss.xml', 200, '<rss/>');
      const { child, url, exited } = await start();
      const res = await postForm(`${url}/ping`, { url: `${peer.url}/rss.xml` }, 'application/json');
      expect(JSON.parse(res.text)).toEqual({
        success: false,
        msg: messages.pingReadResource(`${peer.url}/rss.xml`),
      });
      expect(peer.requests).toHaveLength(0);
      // The log says why, naming the flag that opens it (not an internal setting's name).
      const log = await (await fetch(`${url}/viewLog.json`)).text();
      expect(log).toContain('start the cloud with --allow-loopback');
      expect(log).not.toContain('hostPolicy');
      child.kill('SIGTERM');
      await exited;
    } finally {
      await peer.close();
    }
  });

  it.each([
    [['--port', 'eighty'], /--port must be a whole number/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /unexpected argument "extra"/],
    [['--public-url', 'ftp://x'], /--public-url must be an http or https address/],
    [['--lease-min', '900', '--lease-max', '300'], /--lease-min \(900\) is longer than --lease-max \(300\)/],
    [['--subscription-lifetime', '0'], /--subscription-lifetime must be a whole number from 1/],
    [['--pings-per-minute', 'many'], /--pings-per-minute must be a whole number/],
    [
      ['--database-statements', '4'],
      /--database-statements applies to a PostgreSQL cloud \(--database\) only/,
    ],
    [
      ['--database', 'postgres://127.0.0.1:1/none', '--database-statements', '0'],
      /--database-statements must be a whole number from 1 to 1000, not "0"/,
    ],
  ])('bad input %j: one line, exit 2', (args, reason) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(reason);
  });

  it('a port in use is a one-line reason naming --port, exit 1', async () => {
    const { child, url, exited } = await start();
    const port = new URL(url).port;
    const r = run(['--port', port, '--data', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `tidings cloud: port ${port} on 127.0.0.1 is already in use; choose another with --port N (0 takes any free one)`,
    );
    child.kill('SIGTERM');
    await exited;
  });

  it('--help', () => {
    const r = run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: tidings cloud');
  });
});

describe('tidings cloud user', () => {
  it('adds (password from stdin), lists, changes the password and removes', () => {
    expect(
      run(['user', 'add', 'alice', '--data', dir, '--password-stdin'], 'first secret\nignored\n'),
    ).toMatchObject({ code: 0, stdout: 'Added alice.\n' });
    expect(run(['cloud', 'user', 'add', 'bob', '--data', dir], 'x\n').code).toBe(0);
    const list = run(['user', 'list', '--data', dir]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^alice\tcreated \d{4}-.*\nbob\tcreated /);
    expect(list.stdout).not.toContain('secret');
    expect(run(['user', 'passwd', 'alice', '--data', dir], 'second\n').code).toBe(0);
    expect(run(['user', 'remove', 'bob', '--data', dir]).stdout).toBe('Removed bob.\n');
    expect(run(['user', 'list', '--data', dir]).stdout).not.toContain('bob');
  });

  it.each([
    [['user', 'add', 'alice'], 'pw\n', /already exists/, 1],
    [['user', 'add', 'no spaces'], 'pw\n', /not a usable account name/, 2],
    [['user', 'add', 'carol'], '\n', /The password is empty/, 1],
    [['user', 'add'], '', /needs a NAME/, 2],
    [['user', 'remove', 'nobody'], '', /no account named "nobody"/, 1],
    [['user', 'frobnicate'], '', /unknown user command/, 2],
  ])('%j: one line, exit 1 (failed) or 2 (usage)', (args, input, reason, code) => {
    run(['user', 'add', 'alice', '--data', dir], 'pw\n');
    const r = run([...args, '--data', dir], input);
    expect(r.code).toBe(code);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(reason);
  });

  it('a wrong password cannot save after a password change', async () => {
    run(['user', 'add', 'alice', '--data', dir], 'old\n');
    run(['user', 'passwd', 'alice', '--data', dir], 'new\n');
    const { child, url, exited } = await start();
    const feed = '<rss version="2.0"><channel><title>t</title></channel></rss>';
    expect((await rpcCall(`${url}/RPC2`, 'rssCloud.saveRss', ['alice', 'old', feed])).answer).toEqual({
      kind: 'fault',
      faultCode: 4,
      faultString: messages.saveRssBadLogin,
    });
    expect((await rpcCall(`${url}/RPC2`, 'rssCloud.saveRss', ['alice', 'new', feed])).answer.kind).toBe(
      'value',
    );
    child.kill('SIGTERM');
    await exited;
  });
});
