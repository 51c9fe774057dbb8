import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import type { CloudElement } from '../feed/model.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { type ActivityInput, RealtimeStore } from '../store/realtime.ts';
import { openStore, type Store } from '../store/store.ts';
import { type TempDir, tempDir } from '../store/test-support.ts';
import { type ScriptedCloud, startScriptedCloud, xmlAnswer } from '../testing/clouds.ts';
import type { Callback } from './subscriber.ts';
import { type CloudFeed, SubscriptionManager, type SubscriptionManagerDeps } from './subscriptions.ts';

const HOUR = 3_600_000;
const OK_MSG = 'Thanks for the registration.';
/** A feed's real-time status while it is polled, for `reason`. */
const polling = (reason: string | null) => ({ live: false, line: null, reason });

let http: HttpClient;
let cloud: ScriptedCloud;
let accept = true;
let refusal = 'The subscription was cancelled because the call failed when we tested the handler.';

beforeAll(async () => {
  http = createHttpClient({ hostPolicy: { allowLoopback: true } });
  cloud = await startScriptedCloud(() => (accept ? xmlAnswer(true, OK_MSG) : xmlAnswer(false, refusal)));
});
afterAll(async () => {
  await cloud.close();
  http.close();
});

let dir: TempDir;
let store: Store;
let rt: RealtimeStore;
let clock: ManualClock;
let log: ActivityInput[];
let changes: number[];
let manager: SubscriptionManager;

const A: Callback = { scheme: 'https', host: 'aaa.loca.lt', port: 443, path: '/rsscloud/tok/notify' };
const B: Callback = { scheme: 'https', host: 'bbb.loca.lt', port: 443, path: '/rsscloud/tok/notify' };

function feedsOf(s: Store): SubscriptionManagerDeps['feeds'] {
  const view = (id: number): CloudFeed | null => {
    const f = s.getFeed(id);
    return f ? { id: f.id, url: f.url, cloud: f.meta.cloud } : null;
  };
  return { get: view, list: () => s.listFeeds().map((f) => view(f.id)!) };
}

function newManager(over: Partial<SubscriptionManagerDeps> = {}): SubscriptionManager {
  return new SubscriptionManager({
    rt,
    http,
    clock,
    feeds: feedsOf(store),
    notifyProcedure: 'tidings.notify',
    log: (e) => log.push(e),
    onChange: (id) => changes.push(id),
    ...over,
  });
}

function addFeed(path: string, cloudEl: CloudElement | null = cloud.element('http-post')): number {
  const { feed } = store.addFeed({ url: `http://feeds.example${path}` });
  store.updateFeedMeta(feed.id, { meta: { cloud: cloudEl } });
  return feed.id;
}

const sent = () => cloud.requests.map((r) => new URLSearchParams(r.body));

beforeEach(() => {
  dir = tempDir('tidings-subs-');
  store = openStore(dir.file('tidings.db'));
  rt = new RealtimeStore(new DatabaseSync(':memory:'));
  clock = new ManualClock('2026-03-01T00:00:00Z');
  log = [];
  changes = [];
  accept = true;
  refusal = 'The subscription was cancelled because the call failed when we tested the handler.';
  cloud.requests.length = 0;
  manager = newManager();
  manager.start();
});

afterEach(async () => {
  await manager.stop();
  store.close();
  dir.remove();
});

describe('SubscriptionManager', () => {
  it('keeps the last notification time to the second without a write per notification', async () => {
    const id = addFeed('/storm.xml');
    manager.setCallback(A);
    manager.sync(id);
    await manager.idle();
    let writes = 0;
    const markNotified = rt.markNotified.bind(rt);
    rt.markNotified = (feedId, at) => {
      writes++;
      markNotified(feedId, at);
    };
    const first = clock.now();
    for (let i = 0; i < 1000; i++) manager.notified(id);
    clock.advance(999);
    manager.notified(id);
    expect(writes).toBe(1);
    expect(rt.getSubscription(id)?.lastNotifiedAt).toBe(first);
    clock.advance(2);
    manager.notified(id);
    expect(writes).toBe(2);
    expect(rt.getSubscription(id)?.lastNotifiedAt).toBe(first + 1001);
  });

  it('waits for a public address, then subscribes and reports the feed live', async () => {
    const id = addFeed('/a.xml');
    manager.sync(id);
    await manager.idle();
    expect(cloud.requests).toHaveLength(0);
    expect(manager.statusFor(id)).toEqual(polling('no public address for notifications yet'));

    manager.setCallback(A);
    await manager.idle();
    expect(sent().map((f) => [f.get('url1'), f.get('domain'), f.get('protocol')])).toEqual([
      ['http://feeds.example/a.xml', 'aaa.loca.lt', 'https-post'],
    ]);
    expect(manager.statusFor(id)).toEqual({
      live: true,
      line: `real-time via 127.0.0.1:${cloud.port} (renews in 23 h)`,
      reason: null,
    });
    expect(log).toEqual([
      expect.objectContaining({
        direction: 'out',
        peer: `127.0.0.1:${cloud.port}`,
        procedure: 'pleaseNotify',
        feedUrl: 'http://feeds.example/a.xml',
        result: OK_MSG,
        ok: true,
      }),
    ]);
    expect(log[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(changes).toContain(id);
    expect(manager.feedFor('http://feeds.example/a.xml')).toEqual({ feedId: id, verifying: false });
    expect(manager.feedFor('http://feeds.example/other.xml')).toBeNull();
  });

  it('renews every 23 hours on the driven clock, and only then', async () => {
    manager.setCallback(A);
    const id = addFeed('/a.xml');
    manager.sync(id);
    await manager.idle();
    expect(cloud.requests).toHaveLength(1);

    clock.advance(22 * HOUR);
    await manager.idle();
    expect(cloud.requests).toHaveLength(1);
    expect(manager.statusFor(id).line).toBe(`real-time via 127.0.0.1:${cloud.port} (renews in 60 min)`);
    clock.advance(30 * 60_000);
    expect(manager.statusFor(id).line).toBe(`real-time via 127.0.0.1:${cloud.port} (renews in 30 min)`);

    clock.advance(30 * 60_000);
    await manager.idle();
    expect(cloud.requests).toHaveLength(2);
    expect(manager.statusFor(id)).toMatchObject({
      live: true,
      line: `real-time via 127.0.0.1:${cloud.port} (renews in 23 h)`,
    });
    expect(rt.getSubscription(id)).toMatchObject({
      lastOkAt: clock.now(),
      nextRenewalAt: clock.now() + 23 * HOUR,
    });

    // Two more days: two more renewals, never more.
    for (let i = 0; i < 46; i++) {
      clock.advance(HOUR);
      await manager.idle();
    }
    expect(cloud.requests).toHaveLength(4);
    expect(sent().every((f) => f.get('url1') === 'http://feeds.example/a.xml')).toBe(true);
  });

  it('renews every subscription at once when the callback address changes', async () => {
    manager.setCallback(A);
    const ids = [addFeed('/a.xml'), addFeed('/b.xml'), addFeed('/c.xml', cloud.element('SOAP'))];
    for (const id of ids) manager.sync(id);
    await manager.idle();
    expect(cloud.requests).toHaveLength(2);

    clock.advance(HOUR);
    manager.setCallback(null, { problem: 'the tunnel is down: reconnecting' });
    expect(manager.statusFor(ids[0]!)).toEqual(polling('the tunnel is down: reconnecting'));
    manager.setCallback(B);
    // Not live until the cloud has the new address.
    expect(manager.statusFor(ids[0]!).live).toBe(false);
    await manager.idle();
    expect(cloud.requests).toHaveLength(4);
    expect(
      sent()
        .slice(2)
        .map((f) => f.get('domain')),
    ).toEqual(['bbb.loca.lt', 'bbb.loca.lt']);
    expect(manager.statusFor(ids[0]!).live).toBe(true);
    expect(manager.statusFor(ids[1]!).live).toBe(true);
    expect(manager.statusFor(ids[2]!).reason).toMatch(/SOAP/);

    // The same address again asks nobody, unless forced (e.g. after a long outage).
    manager.setCallback(B);
    await manager.idle();
    expect(cloud.requests).toHaveLength(4);
    manager.setCallback(B, { force: true });
    await manager.idle();
    expect(cloud.requests).toHaveLength(6);
  });

  it("keeps a refusing cloud's reason, retries with capped back-off, and goes live when it accepts", async () => {
    accept = false;
    manager.setCallback(A);
    const id = addFeed('/a.xml');
    manager.sync(id);
    await manager.idle();
    expect(manager.statusFor(id)).toEqual(polling(refusal));
    expect(log.at(-1)).toMatchObject({ ok: false, result: refusal });
    expect(manager.feedFor('http://feeds.example/a.xml')).toBeNull();

    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      const row = rt.getSubscription(id)!;
      delays.push(row.nextRenewalAt! - clock.now());
      clock.advance(row.nextRenewalAt! - clock.now());
      await manager.idle();
    }
    const m = 60_000;
    expect(delays).toEqual([
      m,
      2 * m,
      4 * m,
      8 * m,
      16 * m,
      32 * m,
      64 * m,
      128 * m,
      256 * m,
      360 * m,
      360 * m,
      360 * m,
    ]);
    expect(rt.getSubscription(id)).toMatchObject({ status: 'failed', failures: 13 });

    accept = true;
    clock.advance(rt.getSubscription(id)!.nextRenewalAt! - clock.now());
    await manager.idle();
    expect(manager.statusFor(id).live).toBe(true);
    expect(rt.getSubscription(id)).toMatchObject({ failures: 0, message: OK_MSG });
  });

  it('stays live through failed renewals until 25 hours after the last success, then lapses', async () => {
    manager.setCallback(A);
    const id = addFeed('/a.xml');
    manager.sync(id);
    await manager.idle();
    const okAt = clock.now();
    accept = false;
    refusal = 'Server busy.';

    clock.advance(23 * HOUR);
    await manager.idle();
    expect(rt.getSubscription(id)).toMatchObject({ status: 'live', failures: 1, message: 'Server busy.' });
    expect(manager.statusFor(id).live).toBe(true);

    changes.length = 0;
    clock.set(okAt + 25 * HOUR - 1);
    await manager.idle();
    expect(manager.statusFor(id).live).toBe(true);
    clock.advance(1);
    await manager.idle();
    expect(manager.statusFor(id)).toEqual(
      polling('The subscription lapsed; the last renewal failed: Server busy.'),
    );
    expect(changes).toContain(id);
    expect(manager.feedFor('http://feeds.example/a.xml')).toBeNull();
  });

  it('asks nothing of a SOAP cloud, and subscribes once the feed names a usable one', async () => {
    manager.setCallback(A);
    const id = addFeed('/a.xml', cloud.element('soap'));
    manager.sync(id);
    await manager.idle();
    expect(cloud.requests).toHaveLength(0);
    expect(manager.statusFor(id)).toEqual(
      polling('The cloud speaks SOAP, which no live cloud implements: polling instead.'),
    );
    clock.advance(48 * HOUR);
    await manager.idle();
    expect(cloud.requests).toHaveLength(0);

    store.updateFeedMeta(id, { meta: { cloud: cloud.element('xml-rpc') } });
    cloud.answer(
      () =>
        new Response(
          '<methodResponse><params><param><value><boolean>1</boolean></value></param></params></methodResponse>',
        ),
    );
    manager.sync(id);
    await manager.idle();
    cloud.answer(() => (accept ? xmlAnswer(true, OK_MSG) : xmlAnswer(false, refusal)));
    expect(cloud.requests).toHaveLength(1);
    expect(cloud.requests[0]!.path).toBe('/RPC2');
    expect(manager.statusFor(id).live).toBe(true);
  });

  it('forgets a feed that lost its cloud or was removed, and ignores unchanged syncs', async () => {
    manager.setCallback(A);
    const a = addFeed('/a.xml');
    const b = addFeed('/b.xml');
    manager.sync(a);
    manager.sync(b);
    await manager.idle();
    manager.sync(a);
    manager.sync(a);
    await manager.idle();
    expect(cloud.requests).toHaveLength(2);

    store.updateFeedMeta(a, { meta: { cloud: null } });
    manager.sync(a);
    expect(rt.getSubscription(a)).toBeNull();
    expect(manager.statusFor(a)).toEqual(polling(null));
    manager.remove(b);
    expect(rt.listSubscriptions()).toEqual([]);
    expect(manager.feedFor('http://feeds.example/b.xml')).toBeNull();
    clock.advance(30 * HOUR);
    await manager.idle();
    expect(cloud.requests).toHaveLength(2);
  });

  it('tells a verification call (first request in flight) from a notification', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    cloud.answer(async () => {
      await held;
      return xmlAnswer(true, OK_MSG);
    });
    manager.setCallback(A);
    const id = addFeed('/a.xml');
    manager.sync(id);
    await new Promise((r) => setTimeout(r, 50));
    expect(manager.feedFor('http://feeds.example/a.xml')).toEqual({ feedId: id, verifying: true });
    expect(manager.statusFor(id).reason).toBe(`asking 127.0.0.1:${cloud.port} for notifications`);
    release();
    await manager.idle();
    cloud.answer(() => (accept ? xmlAnswer(true, OK_MSG) : xmlAnswer(false, refusal)));
    expect(manager.feedFor('http://feeds.example/a.xml')).toEqual({ feedId: id, verifying: false });
  });

  it('picks up where it left off after a restart: live rows wait for their renewal', async () => {
    manager.setCallback(A);
    const live = addFeed('/a.xml');
    manager.sync(live);
    await manager.idle();
    await manager.stop();
    const pendingId = addFeed('/b.xml'); // gained a cloud while we were stopped

    clock.advance(2 * HOUR);
    manager = newManager();
    manager.start();
    manager.setCallback(A);
    await manager.idle();
    expect(sent().map((f) => f.get('url1'))).toEqual([
      'http://feeds.example/a.xml',
      'http://feeds.example/b.xml',
    ]);
    expect(manager.statusFor(live)).toMatchObject({
      live: true,
      line: `real-time via 127.0.0.1:${cloud.port} (renews in 21 h)`,
    });
    expect(manager.statusFor(pendingId).live).toBe(true);
    clock.advance(21 * HOUR);
    await manager.idle();
    expect(sent().map((f) => f.get('url1'))).toHaveLength(3);
  });
});
