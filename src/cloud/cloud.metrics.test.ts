/**
 * /metrics counts what the cloud did, on both stores (this file runs in the SQLite and the
 * PostgreSQL projects): deliveries by protocol and outcome (ok, failed, timed out), pings by the
 * door they came in by, registrations by protocol, budget refusals, and the figures read at each
 * scrape (subscribers, resources, leases, queue, and on PostgreSQL the pool).
 */
import pino from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { type RunningServer, serve } from '../net/serve.ts';
import { Peer, postForm, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import { SUBSCRIPTION_TTL_MS } from './core/core.ts';
import { opsHandler } from './ops/handler.ts';
import { CloudMetrics } from './ops/metrics.ts';

let peer: Peer;
let test: TestCloud;
let metrics: CloudMetrics;
let server: RunningServer;
let version = 0;

async function startWith(overrides: Parameters<typeof startCloud>[0] = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  metrics = new CloudMetrics({ version: 'test', now: () => clock.now() });
  test = await startCloud({ clock, observer: metrics, notifyTimeoutMs: 400, ...overrides });
  metrics.watch(test.cloud);
  server = await serve(
    opsHandler(
      {
        cloud: test.cloud,
        logger: pino({ level: 'silent' }),
        metrics,
        trustProxy: false,
        startedAt: Date.now(),
      },
      { admin: true },
    ),
  );
}

beforeEach(async () => {
  peer = await new Peer().start();
  peer.route(
    'GET',
    '/rss.xml',
    200,
    () => `<rss version="2.0"><channel><title>v${version}</title></channel></rss>`,
  );
  peer.route('POST', '/ok', 200, 'ok').route('POST', '/fail', 500, 'no').route('POST', '/slow', 200, 'hang');
});

afterEach(async () => {
  await server?.close();
  await test?.close();
  await peer.close();
});

/** Every sample of /metrics, by its name and labels as written. */
async function samples(): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const feedUrl = () => `${peer.url}/rss.xml`;

async function subscribe(paths: string[]) {
  await test.cloud.store.insertSubscriptions(
    paths.map((path) => ({
      feedUrl: feedUrl(),
      callbackUrl: `${peer.url}${path}`,
      protocol: 'http-post' as const,
      notifyProcedure: null,
      expiresAt: test.clock.now() + SUBSCRIPTION_TTL_MS,
    })),
    test.clock.now(),
  );
}

async function ping(via: 'rest' | 'xml-rpc' | 'websub' | 'ping-site-form'): Promise<void> {
  version++;
  if (via === 'rest') await postForm(`${server.url}/ping`, { url: feedUrl() });
  if (via === 'xml-rpc') await rpcCall(`${server.url}/RPC2`, 'rssCloud.ping', [feedUrl()]);
  if (via === 'websub')
    await postForm(`${server.url}/websub`, { 'hub.mode': 'publish', 'hub.topic': feedUrl() });
  if (via === 'ping-site-form')
    await fetch(`${server.url}/pingSiteForm?name=site&url=${encodeURIComponent(feedUrl())}`);
  await test.cloud.idle();
}

it('counts each delivery by protocol and outcome: ok, failed, and timed out', async () => {
  await startWith();
  await subscribe(['/ok', '/fail', '/slow']);
  await ping('rest');
  const m = await samples();
  expect(m.get('tidings_cloud_notifications_total{protocol="http-post",outcome="ok"}')).toBe(1);
  expect(m.get('tidings_cloud_notifications_total{protocol="http-post",outcome="failed"}')).toBe(1);
  expect(m.get('tidings_cloud_notifications_total{protocol="http-post",outcome="timed_out"}')).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="rest",outcome="changed"}')).toBe(1);
  expect(m.get('tidings_cloud_fanout_duration_seconds_count')).toBe(1);
  expect(m.get('tidings_cloud_fanout_duration_seconds_bucket{le="0.25"}')).toBe(0); // it waited for the slow one
  expect(m.get('tidings_cloud_subscribers{protocol="http-post"}')).toBe(3);
  expect(m.get('tidings_cloud_resources{protocol="http-post"}')).toBe(1);
  expect(m.get('tidings_cloud_delivery_queue_changes')).toBe(0);
  expect(m.get('tidings_cloud_store_up')).toBe(1);
  expect(m.get('tidings_cloud_http_requests_total{door="rest",status="200"}')).toBe(1);
  if (test.cloud.store.kind === 'postgres') {
    expect(m.get('tidings_cloud_delivery_queue_deliveries')).toBe(0);
    expect(m.get('tidings_cloud_db_connections{state="open"}')).toBeGreaterThan(0);
    expect(m.get('tidings_cloud_db_statements{state="share"}')).toBe(8);
    expect(m.get('tidings_cloud_db_errors_total')).toBe(0);
  } else {
    expect(m.has('tidings_cloud_db_connections{state="open"}')).toBe(false);
  }
});

it('counts pings by the door they came in by, and how they ended', async () => {
  await startWith();
  await subscribe(['/ok']);
  await ping('rest');
  await ping('xml-rpc');
  await ping('websub');
  await ping('ping-site-form');
  await test.cloud.idle();
  version--; // the next read finds what the last one did
  await ping('rest');
  await test.cloud.ping(`${peer.url}/missing.xml`); // in-process, no request: the app's door
  const m = await samples();
  for (const door of ['xml-rpc', 'websub', 'ping-site-form'])
    expect(m.get(`tidings_cloud_pings_total{protocol="${door}",outcome="changed"}`), door).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="rest",outcome="changed"}')).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="rest",outcome="unchanged"}')).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="app",outcome="failed"}')).toBe(1);
  expect(m.get('tidings_cloud_notifications_total{protocol="http-post",outcome="ok"}')).toBe(4);
});

it('counts a door however its path is spelled: a trailing slash, other letter cases', async () => {
  await startWith();
  await subscribe(['/ok']);
  version++;
  // Routed as pings (routes.ts): so they are counted, not as pages.
  await postForm(`${server.url}/ping/`, { url: feedUrl() });
  await test.cloud.idle();
  version++;
  await rpcCall(`${server.url}/rpc2/`, 'rssCloud.ping', [feedUrl()]);
  await test.cloud.idle();
  await fetch(`${server.url}/PingSiteForm/?name=site&url=${encodeURIComponent(feedUrl())}`);
  await test.cloud.idle();
  const m = await samples();
  expect(m.get('tidings_cloud_pings_total{protocol="rest",outcome="changed"}')).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="xml-rpc",outcome="changed"}')).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="ping-site-form",outcome="unchanged"}')).toBe(1);
  expect(m.get('tidings_cloud_http_requests_total{door="rest",status="200"}')).toBe(1);
  expect(m.get('tidings_cloud_http_requests_total{door="xml-rpc",status="200"}')).toBe(1);
  expect(m.has('tidings_cloud_http_requests_total{door="page",status="200"}')).toBe(false);
});

it('counts registrations by protocol and outcome, and WebSub leases ending within the hour', async () => {
  await startWith({ leases: { minSeconds: 60, defaultSeconds: 1800 } });
  peer.route('GET', '/hub', 200, (r) => r.query['hub.challenge'] ?? '');
  peer.route('GET', '/no-hub', 404, 'no');
  const reg = (path: string) =>
    postForm(`${server.url}/pleaseNotify`, { port: peer.port, path, protocol: 'http-post', url1: feedUrl() });
  await reg('/ok');
  await reg('/fail');
  for (const cb of ['/hub', '/no-hub'])
    await postForm(`${server.url}/websub`, {
      'hub.mode': 'subscribe',
      'hub.topic': feedUrl(),
      'hub.callback': `${peer.url}${cb}`,
    });
  await test.cloud.idle();
  const m = await samples();
  expect(m.get('tidings_cloud_registrations_total{protocol="http-post",outcome="ok"}')).toBe(1);
  expect(m.get('tidings_cloud_registrations_total{protocol="http-post",outcome="failed"}')).toBe(1);
  expect(m.get('tidings_cloud_registrations_total{protocol="websub",outcome="ok"}')).toBe(1);
  expect(m.get('tidings_cloud_registrations_total{protocol="websub",outcome="failed"}')).toBe(1);
  expect(m.get('tidings_cloud_subscribers{protocol="websub"}')).toBe(1);
  expect(m.get('tidings_cloud_websub_leases_ending_soon')).toBe(1); // 30 minutes
});

it('counts requests refused for their budget, by budget', async () => {
  await startWith({ pingLimits: { perMinute: 1, burst: 1 }, callerLimits: { maxUrlsPerRequest: 1 } });
  await ping('rest');
  await ping('rest');
  await postForm(`${server.url}/pleaseNotify`, {
    port: peer.port,
    path: '/ok',
    protocol: 'http-post',
    url1: feedUrl(),
    url2: `${peer.url}/other.xml`,
  });
  // A ping is answered at once; its feed is read and compared after (the outcome counted then).
  await test.cloud.idle();
  const m = await samples();
  expect(m.get('tidings_cloud_budget_refusals_total{budget="pings"}')).toBe(1);
  expect(m.get('tidings_cloud_budget_refusals_total{budget="resources"}')).toBe(1);
  expect(m.get('tidings_cloud_pings_total{protocol="rest",outcome="changed"}')).toBe(1);
});
