/**
 * `tidings cloud` as an operator runs it (a real process, real subscribers on loopback): what
 * /metrics counts, what the JSON log says and never says, the request ids, the admin port, the
 * health answers, the healthcheck command, and the User-Agent peers see.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { Peer, postForm, rpcCall } from '../../testing/cloud-kit.ts';
import {
  CLOUD_CLI,
  type LoggedCloud,
  registerThenPing,
  startLoggedCloud,
} from '../../testing/logged-cloud.ts';

let dir: string;
let peer: Peer;
const running: LoggedCloud[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-cloud-ops-'));
  peer = await new Peer().start();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
  await peer.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(...args: string[]): Promise<LoggedCloud> {
  const cloud = await startLoggedCloud(['--port', '0', '--data', dir, '--allow-loopback', ...args]);
  running.push(cloud);
  return cloud;
}

/** The value of one sample of /metrics (its name and labels as written), or undefined. */
async function sample(metricsUrl: string, series: string): Promise<number | undefined> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const version = 1;
const feed = () =>
  `<rss version="2.0"><channel><title>t</title><item><title>v${version}</title></item></channel></rss>`;

describe('tidings cloud for operators', () => {
  it('counts a registration, a ping and its notification in /metrics, logs them under the ping request id, and says its real version', async () => {
    const cloud = await start('--log-level', 'debug');
    expect(cloud.started).toMatchObject({
      level: 'info',
      store: 'sqlite',
      location: `data: ${dir}`,
      doors: expect.arrayContaining(['WebSub /websub', 'RSS Ping /rssPing']),
      metrics: `${cloud.url}/metrics`,
      version: pkg.version,
    });
    const ping = await registerThenPing(cloud, peer);
    expect(await ping.json()).toMatchObject({ success: true });
    const id = ping.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    // The fan-out the ping set going is logged under the ping's id.
    const done = await cloud.waitFor((l) => l.msg === 'fan-out done');
    expect(done).toMatchObject({ reqId: id, feedUrl: `${peer.url}/rss.xml`, level: 'info' });
    expect(cloud.lines.find((l) => l.msg === 'pinged')).toMatchObject({ reqId: id, detail: 'changed' });
    expect(cloud.lines.find((l) => l.msg === 'request' && l.reqId === id)).toMatchObject({
      level: 'debug',
      method: 'POST',
      path: '/ping',
      status: 200,
    });
    // The handler test and the notification.
    expect(peer.hits('POST', '/cb')).toHaveLength(2);

    const metrics = `${cloud.url}/metrics`;
    expect(
      await sample(metrics, 'tidings_cloud_registrations_total{protocol="http-post",outcome="ok"}'),
    ).toBe(1);
    expect(await sample(metrics, 'tidings_cloud_pings_total{protocol="rest",outcome="changed"}')).toBe(1);
    expect(
      await sample(metrics, 'tidings_cloud_notifications_total{protocol="http-post",outcome="ok"}'),
    ).toBe(1);
    expect(await sample(metrics, 'tidings_cloud_fanout_duration_seconds_count')).toBe(1);
    expect(await sample(metrics, 'tidings_cloud_subscribers{protocol="http-post"}')).toBe(1);
    expect(await sample(metrics, 'tidings_cloud_resources{protocol="http-post"}')).toBe(1);
    expect(await sample(metrics, 'tidings_cloud_subscribers{protocol="websub"}')).toBe(0);
    expect(await sample(metrics, 'tidings_cloud_store_up')).toBe(1);
    expect(await sample(metrics, 'tidings_cloud_delivery_queue_changes')).toBe(0);
    expect(await sample(metrics, `tidings_cloud_info{version="${pkg.version}",store="sqlite"}`)).toBe(1);

    // Feed reads and notifications name the package's version, not a placeholder.
    const agents = new Set(peer.requests.map((r) => r.headers['user-agent']));
    expect([...agents].every((a) => a?.startsWith(`Tidings/${pkg.version} (+${pkg.homepage}`))).toBe(true);
    expect(peer.hits('POST', '/cb').at(-1)!.headers['user-agent']).toBe(
      `Tidings/${pkg.version} (+${pkg.homepage})`,
    );
  });

  it('never writes a password or a secret to its log', async () => {
    peer.route('GET', '/rss.xml', 200, () => feed()).route('POST', '/cb', 200, 'ok');
    peer.route('GET', '/hub-cb', 200, (r) => r.query['hub.challenge'] ?? '');
    expect(
      spawnSync(process.execPath, [CLOUD_CLI, 'user', 'add', 'alice', '--data', dir], {
        input: 'correct-horse-9\n',
      }).status,
    ).toBe(0);
    const cloud = await start('--log-level', 'trace');
    const saved = await rpcCall(`${cloud.url}/RPC2`, 'rssCloud.saveRss', [
      'alice',
      'correct-horse-9',
      feed(),
    ]);
    expect(saved.answer.kind).toBe('value');
    const wrong = await rpcCall(`${cloud.url}/RPC2`, 'rssCloud.saveRss', ['alice', 'wrong-horse-7', feed()]);
    expect(wrong.answer.kind).toBe('fault');
    await postForm(`${cloud.url}/pleaseNotify`, {
      port: peer.port,
      path: '/cb?token=tok-3141592&x=1',
      protocol: 'http-post',
      url1: `${peer.url}/rss.xml`,
    });
    await postForm(`${cloud.url}/websub`, {
      'hub.mode': 'subscribe',
      'hub.topic': `${peer.url}/rss.xml`,
      'hub.callback': `${peer.url}/hub-cb?secret=cb-secret-2718`,
      'hub.secret': 'hub-secret-1618',
    });
    await cloud.waitFor((l) => l.msg === 'WebSub' && String(l.detail).startsWith('subscribed'));
    await fetch(`${cloud.url}/ping?url=${encodeURIComponent(`${peer.url}/rss.xml`)}&api_key=key-1414`, {
      method: 'POST',
    });
    await cloud.waitFor((l) => l.msg === 'request' && String(l.path).startsWith('/ping'));
    await cloud.stop();
    const out = cloud.output();
    for (const secret of [
      'correct-horse-9',
      'wrong-horse-7',
      'tok-3141592',
      'cb-secret-2718',
      'hub-secret-1618',
      'key-1414',
    ])
      expect(out).not.toContain(secret);
    // What was masked is still there to read.
    expect(out).toContain('token=***&x=1');
    expect(out).toContain('api_key=***');
  });

  it('--admin-port serves /healthz, /readyz and /metrics on loopback apart from the doors', async () => {
    const cloud = await start('--admin-port', '0', '--host', '127.0.0.1');
    const admin = new URL(String(cloud.started.health)).origin;
    expect(admin).not.toBe(cloud.url);
    expect(new URL(admin).hostname).toBe('127.0.0.1');
    const alive = await fetch(`${admin}/healthz`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toMatchObject({ alive: true });
    const ready = await fetch(`${admin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, store: 'sqlite' });
    expect((await fetch(`${admin}/metrics`)).headers.get('content-type')).toMatch(
      /^text\/plain; version=0\.0\.4/,
    );
    for (const path of ['/healthz', '/readyz', '/metrics'])
      expect((await fetch(`${cloud.url}${path}`)).status, path).toBe(404);
    expect((await fetch(`${admin}/`)).status).toBe(404);
    expect((await fetch(`${cloud.url}/`)).status).toBe(200);
  });

  it("behind a trusted proxy, takes the proxy's request id and logs whom it forwarded for; otherwise makes its own", async () => {
    const headers = { 'x-request-id': 'lb-7f3a9', 'x-forwarded-for': '203.0.113.9' };
    const open = await start('--log-level', 'debug');
    const own = await fetch(`${open.url}/`, { headers });
    expect(own.headers.get('x-request-id')).not.toBe('lb-7f3a9');
    const line = await open.waitFor((l) => l.msg === 'request' && l.path === '/');
    expect(line.forwardedFor).toBeUndefined();
    await open.stop();

    const proxied = await start('--log-level', 'debug', '--trust-proxy');
    const res = await fetch(`${proxied.url}/`, { headers });
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a9');
    expect(await proxied.waitFor((l) => l.msg === 'request' && l.path === '/')).toMatchObject({
      reqId: 'lb-7f3a9',
      forwardedFor: '203.0.113.9',
      remote: '127.0.0.1',
    });
    // An id that is not one (a header smuggled in it) is not taken.
    const odd = await fetch(`${proxied.url}/docs`, { headers: { 'x-request-id': 'a b\tc' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });

  it('--no-metrics counts nothing and has no /metrics; health answers stay', async () => {
    const cloud = await start('--no-metrics');
    expect(cloud.started.metrics).toBeUndefined();
    expect((await fetch(`${cloud.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${cloud.url}/healthz`)).status).toBe(200);
  });

  it('healthcheck exits 0 while the server it is configured for answers, 1 once it is gone', async () => {
    const cloud = await start('--admin-port', '0');
    const port = new URL(String(cloud.started.health)).port;
    const check = () =>
      spawnSync(process.execPath, [CLOUD_CLI, 'healthcheck'], {
        env: { ...process.env, TIDINGS_CLOUD_PORT: '1', TIDINGS_CLOUD_ADMIN_PORT: port },
        encoding: 'utf8',
      });
    expect(check().status).toBe(0);
    await cloud.stop();
    const after = check();
    expect(after.status).toBe(1);
    expect(after.stderr).toMatch(
      new RegExp(`^tidings cloud: http://127\\.0\\.0\\.1:${port}/healthz did not answer`),
    );
  });

  it('takes its settings from the environment, and refuses a wrong value naming the variable', async () => {
    const bad = spawnSync(process.execPath, [CLOUD_CLI, '--data', dir], {
      env: { ...process.env, TIDINGS_CLOUD_LOG_LEVEL: 'loud' },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      'tidings cloud: TIDINGS_CLOUD_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"\n',
    );
    const cloud = await startLoggedCloud([], {
      env: {
        ...process.env,
        TIDINGS_CLOUD_PORT: '0',
        TIDINGS_CLOUD_DATA: dir,
        TIDINGS_CLOUD_LOG_LEVEL: 'debug',
        TIDINGS_CLOUD_PUBLIC_URL: 'https://cloud.example.org',
      },
    });
    running.push(cloud);
    expect(cloud.started).toMatchObject({ location: `data: ${dir}`, publicUrl: 'https://cloud.example.org' });
    await fetch(`${cloud.url}/`);
    await cloud.waitFor((l) => l.msg === 'request' && l.path === '/');
  });
});
