/**
 * The drop-in pieces for the reference cloud: its test API (only when asked for, with its JSON
 * envelope and its housekeeping rules), its documentation pages and forms, and the reference's
 * answer timing as an option.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Peer, postForm, startCloud, type TestCloud } from '../../testing/cloud-kit.ts';

let cloud: TestCloud | null = null;
let peer: Peer | null = null;

afterEach(async () => {
  await cloud?.close();
  await peer?.close();
  cloud = null;
  peer = null;
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${cloud!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
};

const day = 86_400_000;
const sub = (url: string, whenExpires: number, extra: Record<string, unknown> = {}) => ({
  url,
  protocol: 'http-post',
  ctUpdates: 0,
  ctErrors: 0,
  ctConsecutiveErrors: 0,
  whenCreated: new Date(Date.now()).toISOString(),
  whenLastUpdate: null,
  whenLastError: null,
  whenExpires: new Date(whenExpires).toISOString(),
  ...extra,
});

describe('the test API', () => {
  it('is absent unless asked for', async () => {
    cloud = await startCloud();
    const res = await fetch(`${cloud.url}/test/clear`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
  });

  it('seeds and reads subscriptions and resources in the reference JSON shape', async () => {
    cloud = await startCloud({ testApi: true, clock: realClock });
    const feed = 'http://feeds.test/rss.xml';
    expect(await post('/test/getSubscriptions', { feedUrl: feed })).toEqual({
      status: 200,
      json: { success: true, found: false, subscriptions: [] },
    });
    const websub = sub('http://reader.test/cb', Date.now() + day, {
      protocol: 'websub',
      details: { leaseSeconds: 300, secret: 's' },
    });
    const rpc = sub('http://reader.test/RPC2', Date.now() + day, {
      protocol: 'xml-rpc',
      notifyProcedure: 'river.feedUpdated',
    });
    expect(
      (await post('/test/setSubscriptions', { feedUrl: feed, subscriptions: [websub, rpc] })).json,
    ).toEqual({
      success: true,
    });
    const got = await post('/test/getSubscriptions', { feedUrl: feed });
    expect(got.json).toEqual({ success: true, found: true, subscriptions: [websub, rpc] });
    // A seeded WebSub row is delivered to like a verified one.
    const targets = await cloud.cloud.store.liveTargetsPage(feed, Date.now(), '', 100);
    expect(targets.map((t) => t.protocol).sort()).toEqual(['websub', 'xml-rpc']);

    await post('/test/setResource', {
      feedUrl: feed,
      resource: { lastHash: 'abc', lastSize: 100, ctChecks: 1 },
    });
    expect((await post('/test/getResource', { feedUrl: feed })).json).toEqual({
      success: true,
      found: true,
      resource: {
        url: feed,
        lastHash: 'abc',
        lastSize: 100,
        ctChecks: 1,
        whenLastCheck: new Date(0).toISOString(),
        ctUpdates: 0,
        whenLastUpdate: new Date(0).toISOString(),
      },
    });
    const data = (await post('/test/getData', {})).json!.data as Record<string, { subscriptions: unknown[] }>;
    expect(data[feed]!.subscriptions).toHaveLength(2);
    await post('/test/clear', {});
    expect((await post('/test/getData', {})).json).toEqual({ success: true, data: {} });
  });

  it('removeExpired drops expired and failing subscriptions, and resources unused and unchanged for 7 days', async () => {
    cloud = await startCloud({ testApi: true, clock: realClock });
    await cloud.cloud.idle(); // the start-up sweep is done before anything is seeded
    const now = Date.now();
    const feeds = {
      expired: 'http://a.test/1',
      recent: 'http://a.test/2',
      stale: 'http://a.test/3',
      live: 'http://a.test/4',
    };
    await post('/test/setSubscriptions', {
      feedUrl: feeds.expired,
      subscriptions: [sub('http://r.test/cb', now - 1000)],
    });
    await post('/test/setSubscriptions', { feedUrl: feeds.recent, subscriptions: [] });
    await post('/test/setResource', {
      feedUrl: feeds.recent,
      resource: { whenLastUpdate: new Date(now - day).toISOString() },
    });
    await post('/test/setSubscriptions', { feedUrl: feeds.stale, subscriptions: [] });
    await post('/test/setResource', {
      feedUrl: feeds.stale,
      resource: { whenLastUpdate: new Date(now - 8 * day).toISOString() },
    });
    await post('/test/setSubscriptions', {
      feedUrl: feeds.live,
      subscriptions: [
        sub('http://r.test/a', now + day),
        sub('http://r.test/b', now + day, { ctConsecutiveErrors: 3 }),
      ],
    });
    const swept = await post('/test/removeExpired', {});
    expect(swept.json).toEqual({ success: true, result: { subscriptionsRemoved: 2, resourcesRemoved: 2 } });
    const found = async (feedUrl: string) => (await post('/test/getSubscriptions', { feedUrl })).json;
    expect(await found(feeds.expired)).toMatchObject({ found: false });
    expect(await found(feeds.recent)).toEqual({ success: true, found: true, subscriptions: [] });
    expect(await found(feeds.stale)).toMatchObject({ found: false });
    expect(((await found(feeds.live))!.subscriptions as { url: string }[]).map((s) => s.url)).toEqual([
      'http://r.test/a',
    ]);
  });

  it('removeExpired forgets a resource nobody subscribes to however lately it was read, as the reference', async () => {
    // The reference suite's RemoveExpiredSubscriptions cases: a resource with no subscription is
    // kept only when it changed within 7 days; reading it (whenLastCheck) keeps nothing.
    cloud = await startCloud({ testApi: true, clock: realClock });
    await cloud.cloud.idle(); // the start-up sweep is done before anything is seeded
    const now = Date.now();
    const hour = 3_600_000;
    const cases = [
      { feedUrl: 'http://a.test/checked-48h', resource: { whenLastCheck: now - 48 * hour }, kept: false },
      { feedUrl: 'http://a.test/checked-1h', resource: { whenLastCheck: now - hour }, kept: false },
      { feedUrl: 'http://a.test/checked-now', resource: { whenLastCheck: now }, kept: false },
      { feedUrl: 'http://a.test/updated-1d', resource: { whenLastUpdate: now - day }, kept: true },
      { feedUrl: 'http://a.test/updated-8d', resource: { whenLastUpdate: now - 8 * day }, kept: false },
    ];
    for (const c of cases) {
      const when = (ms?: number) => (ms === undefined ? undefined : new Date(ms).toISOString());
      await post('/test/setResource', {
        feedUrl: c.feedUrl,
        resource: {
          lastHash: 'abc',
          lastSize: 100,
          ctChecks: 1,
          ctUpdates: 0,
          whenLastCheck: when(c.resource.whenLastCheck),
          whenLastUpdate: when(c.resource.whenLastUpdate),
        },
      });
    }
    // One with an expired subscription, last checked 48 h ago: both go.
    await post('/test/setSubscriptions', {
      feedUrl: cases[0]!.feedUrl,
      subscriptions: [sub('http://r.test/cb', now - 1000)],
    });
    const swept = await post('/test/removeExpired', {});
    expect(swept.json).toEqual({ success: true, result: { subscriptionsRemoved: 1, resourcesRemoved: 4 } });
    const data = (await post('/test/getData', {})).json!.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(cases.filter((c) => c.kept).map((c) => c.feedUrl));
  });

  it('answers a bad request with the reference envelope and HTTP 500', async () => {
    cloud = await startCloud({ testApi: true });
    expect(
      await post('/test/setSubscriptions', { feedUrl: 'http://a.test/1', subscriptions: 'nope' }),
    ).toEqual({
      status: 500,
      json: { success: false, error: 'subscriptions must be an array' },
    });
    expect((await post('/test/getResource', {})).json).toEqual({
      success: false,
      error: 'feedUrl is required',
    });
  });
});

describe('pages', () => {
  it('serves /docs, a page per protocol and the two forms; an unknown page is 404', async () => {
    cloud = await startCloud({ basePath: '/cloud' });
    for (const path of [
      '/docs',
      '/docs/rsscloud-rest',
      '/docs/rsscloud-xml-rpc',
      '/docs/websub',
      '/docs/cross-protocol',
    ]) {
      const res = await fetch(`${cloud.url}/cloud${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toMatch(/Tidings cloud/);
    }
    const missing = await fetch(`${cloud.url}/cloud/docs/nonexistent`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/no documentation page "nonexistent"/);
    const ping = await (await fetch(`${cloud.url}/cloud/pingForm`)).text();
    expect(ping).toMatch(/<form method="post" action="\/cloud\/ping">/);
    const notify = await (await fetch(`${cloud.url}/cloud/pleaseNotifyForm`)).text();
    expect(notify).toMatch(/<form method="post" action="\/cloud\/pleaseNotify">/);
  });
});

describe('answer timing', () => {
  it('answers a ping at once by default; with pingWaitMs, after the notifications were delivered', async () => {
    peer = await new Peer().start();
    let n = 0;
    peer.route('GET', '/rss.xml', 200, () => `<rss>${n++}</rss>`);
    let release = () => {};
    peer.route('POST', '/slow', 200, () => new Promise<string>((r) => (release = () => r('ok'))));
    const feedUrl = `${peer.url}/rss.xml`;
    const callbackUrl = `${peer.url}/slow`;
    for (const pingWaitMs of [0, 3000]) {
      cloud = await startCloud({ pingWaitMs, clock: realClock });
      await cloud.cloud.store.insertSubscriptions(
        [{ feedUrl, callbackUrl, protocol: 'http-post', notifyProcedure: null, expiresAt: Date.now() + day }],
        Date.now(),
      );
      const answer = postForm(`${cloud.url}/ping`, { url: feedUrl });
      if (pingWaitMs === 0) {
        expect((await answer).text).toMatch(/Thanks for the ping/);
        // Answered while the subscriber still holds its notification: nothing recorded yet.
        expect(await cloud.cloud.store.getSubscription(feedUrl, callbackUrl)).toMatchObject({
          ctUpdates: 0,
          ctErrors: 0,
        });
        await waitFor(() => peer!.hits('POST', '/slow').length > 0);
        release();
      } else {
        await waitFor(() => peer!.hits('POST', '/slow').length > 0);
        release();
        expect((await answer).text).toMatch(/Thanks for the ping/);
        // The answer came after the delivery was recorded, as the reference cloud's does.
        expect(await cloud.cloud.store.getSubscription(feedUrl, callbackUrl)).toMatchObject({ ctUpdates: 1 });
      }
      await cloud.cloud.idle();
      await cloud.close();
      cloud = null;
      peer.requests.length = 0;
    }
  });
});

const realClock = {
  now: () => Date.now(),
  setTimer: (ms: number, fn: () => void) => {
    const t = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error('condition not met');
}
