/**
 * The cloud as a WebSub hub over the one subscriber list, against real servers on loopback: the
 * subscribe/unsubscribe handshakes (202/400, intent verified by an exact echo), leases, signed
 * content distribution, 410, retries, expiry, and the cross-protocol fan-out both ways.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../common/clock.ts';
import { Peer, postForm, rpcCall, startCloud, type TestCloud } from '../../testing/cloud-kit.ts';

let peer: Peer;
let cloud: TestCloud;
let topic: string;

beforeEach(async () => {
  peer = await new Peer().start();
  topic = `${peer.url}/feed.xml`;
  peer.route('GET', '/feed.xml', 200, {
    body: '<rss>v1</rss>',
    headers: { 'content-type': 'application/rss+xml' },
  });
  cloud = await startCloud({ contentRetryMs: [60_000, 300_000] });
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

const hub = (fields: Record<string, string>) => postForm(`${cloud.url}/websub`, fields);
const echo = (r: { query: Record<string, string> }) => r.query['hub.challenge'] ?? '';
const change = (body: string) =>
  peer.route('GET', '/feed.xml', 200, { body, headers: { 'content-type': 'application/rss+xml' } });

/** Subscribes `path` (which echoes) and waits for the handshake. */
async function subscribed(path: string, extra: Record<string, string> = {}) {
  peer.route('GET', path, 200, echo);
  peer.route('POST', path, 200, 'ok');
  const res = await hub({
    'hub.mode': 'subscribe',
    'hub.callback': `${peer.url}${path}`,
    'hub.topic': topic,
    ...extra,
  });
  expect(res.status).toBe(202);
  await cloud.cloud.idle();
  const row = await cloud.cloud.store.getSubscription(topic, `${peer.url}${path}`);
  expect(row).toMatchObject({ protocol: 'websub', state: 'active' });
  return row!;
}

async function ping() {
  const res = await postForm(`${cloud.url}/ping`, { url: topic }, 'application/json');
  await cloud.cloud.idle();
  return JSON.parse(res.text) as { success: boolean };
}

describe('subscribe and unsubscribe', () => {
  it('answers 202, verifies the intent by GET with the granted lease, then records one websub row', async () => {
    await subscribed('/cb');
    const [verification] = peer.hits('GET', '/cb');
    expect(verification!.query).toMatchObject({
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.lease_seconds': '86400',
    });
    expect(verification!.query['hub.challenge']).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(1);
  });

  it('denies a subscription to a topic it cannot read (hub.mode=denied), verifying nothing', async () => {
    peer.route('GET', '/cb', 200, echo);
    const res = await hub({
      'hub.mode': 'subscribe',
      'hub.callback': `${peer.url}/cb`,
      'hub.topic': `${peer.url}/missing.xml`,
    });
    expect(res.status).toBe(202);
    await cloud.cloud.idle();
    expect(peer.hits('GET', '/cb').map((r) => r.query)).toEqual([
      {
        'hub.mode': 'denied',
        'hub.topic': `${peer.url}/missing.xml`,
        'hub.reason': 'The hub could not read the topic.',
      },
    ]);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(0);
  });

  it('keeps the topic as given, so a ping naming the same URL reaches it', async () => {
    const bare = `${peer.url}`; // no path: new URL() would add a "/" the publisher never sends
    peer.route('GET', '/', 200, '<rss>home</rss>');
    peer.route('GET', '/cb', 200, echo);
    peer.route('POST', '/cb', 200, 'ok');
    await hub({ 'hub.mode': 'subscribe', 'hub.callback': `${peer.url}/cb`, 'hub.topic': bare });
    await cloud.cloud.idle();
    expect((await cloud.cloud.store.allSubscriptions()).map((s) => s.feedUrl)).toEqual([bare]);
  });

  it('records nothing when the callback does not echo the challenge exactly (or answers 404)', async () => {
    peer.route('GET', '/almost', 200, (r) => `${echo(r)} `);
    peer.route('GET', '/refuses', 404, 'no');
    for (const path of ['/almost', '/refuses']) {
      const res = await hub({
        'hub.mode': 'subscribe',
        'hub.callback': `${peer.url}${path}`,
        'hub.topic': topic,
      });
      expect(res.status).toBe(202);
    }
    await cloud.cloud.idle();
    expect(peer.hits('GET', '/almost')).toHaveLength(1);
    expect(peer.hits('GET', '/refuses')).toHaveLength(1);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(0);
  });

  it('answers 400 with the reason for a missing or relative callback, an empty topic, an unknown mode, a long secret', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'hub.mode': 'subscribe', 'hub.topic': topic }, /hub\.callback is required/],
      [{ 'hub.mode': 'subscribe', 'hub.callback': '/cb', 'hub.topic': topic }, /absolute/],
      [
        { 'hub.mode': 'subscribe', 'hub.callback': `${peer.url}/cb`, 'hub.topic': '' },
        /hub\.topic is required/,
      ],
      [{ 'hub.mode': 'bogus', 'hub.callback': `${peer.url}/cb`, 'hub.topic': topic }, /not supported/],
      [{ 'hub.mode': 'subscribe' }, /required/],
      [
        {
          'hub.mode': 'subscribe',
          'hub.callback': `${peer.url}/cb`,
          'hub.topic': topic,
          'hub.secret': 'x'.repeat(200),
        },
        /less than 200 bytes/,
      ],
      [{ 'hub.mode': 'publish' }, /hub\.topic \(or hub\.url\)/],
    ];
    for (const [fields, reason] of cases) {
      const res = await hub(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.text).toMatch(reason);
    }
    await cloud.cloud.idle();
    expect(peer.requests).toHaveLength(0);
  });

  it('clamps leases to 5 minutes .. 10 days and expires them: not delivered, then swept', async () => {
    const short = await subscribed('/short', { 'hub.lease_seconds': '5' });
    expect(short.leaseSeconds).toBe(300);
    expect(peer.hits('GET', '/short')[0]!.query['hub.lease_seconds']).toBe('300');
    const long = await subscribed('/long', { 'hub.lease_seconds': '99999999' });
    expect(long.leaseSeconds).toBe(864_000);
    (cloud.clock as ManualClock).advance(300_000);
    change('<rss>v2</rss>');
    await ping();
    expect(peer.hits('POST', '/short')).toHaveLength(0);
    expect(peer.hits('POST', '/long')).toHaveLength(1);
    expect(await cloud.cloud.sweep()).toBe(1);
    expect((await cloud.cloud.store.allSubscriptions()).map((s) => s.callbackUrl)).toEqual([
      `${peer.url}/long`,
    ]);
  });

  it('unsubscribes only when the callback confirms the intent', async () => {
    await subscribed('/cb');
    peer.route('GET', '/cb', 200, (r) => (r.query['hub.mode'] === 'unsubscribe' ? 'no' : echo(r)));
    const unsub = { 'hub.mode': 'unsubscribe', 'hub.callback': `${peer.url}/cb`, 'hub.topic': topic };
    expect((await hub(unsub)).status).toBe(202);
    await cloud.cloud.idle();
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(1);
    peer.route('GET', '/cb', 200, echo);
    expect((await hub(unsub)).status).toBe(202);
    await cloud.cloud.idle();
    expect(peer.hits('GET', '/cb').filter((r) => r.query['hub.mode'] === 'unsubscribe')).toHaveLength(2);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(0);
  });

  it('refuses a callback to an address the operator has not opened, before any request', async () => {
    await cloud.close();
    cloud = await startCloud({ allow: { loopback: false } });
    const res = await hub({ 'hub.mode': 'subscribe', 'hub.callback': `${peer.url}/cb`, 'hub.topic': topic });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/loopback addresses are refused/);
    expect(peer.requests).toHaveLength(0);
  });

  it('caps the subscriptions one callback holds', async () => {
    await cloud.close();
    cloud = await startCloud({ maxSubscriptionsPerCallback: 1 });
    await subscribed('/cb');
    const res = await hub({
      'hub.mode': 'subscribe',
      'hub.callback': `${peer.url}/cb`,
      'hub.topic': `${peer.url}/other.xml`,
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/already holds 1 subscriptions/);
    // A renewal of the one it holds is not a new one.
    expect(
      (await hub({ 'hub.mode': 'subscribe', 'hub.callback': `${peer.url}/cb`, 'hub.topic': topic })).status,
    ).toBe(202);
    await cloud.cloud.idle();
  });
});

describe('content distribution', () => {
  it('POSTs the full body with its Content-Type and the hub/self Link; unsigned without a secret', async () => {
    await subscribed('/cb');
    change('<rss>v2 – ünïcode</rss>');
    expect(await ping()).toMatchObject({ success: true });
    const [delivery] = peer.hits('POST', '/cb');
    expect(delivery!.text).toBe('<rss>v2 – ünïcode</rss>');
    expect(delivery!.headers['content-type']).toBe('application/rss+xml');
    expect(delivery!.headers.link).toBe(`<${cloud.url}/websub>; rel="hub", <${topic}>; rel="self"`);
    expect(delivery!.headers).not.toHaveProperty('x-hub-signature');
  });

  it('signs with the subscriber secret: the right secret verifies the body, a wrong one does not', async () => {
    await subscribed('/cb', { 'hub.secret': 'right secret' });
    change('<rss>signed</rss>');
    await ping();
    const [delivery] = peer.hits('POST', '/cb');
    const signature = delivery!.headers['x-hub-signature'];
    const hmac = (key: string) => `sha256=${createHmac('sha256', key).update(delivery!.text).digest('hex')}`;
    expect(signature).toBe(hmac('right secret'));
    expect(signature).not.toBe(hmac('wrong secret'));
  });

  it('delivers the bytes as read: a large body, and one that is not UTF-8, signed over those bytes', async () => {
    await subscribed('/cb', { 'hub.secret': 'k' });
    const bodies = [
      Buffer.from(`<rss>${'x'.repeat(200_000)}</rss>`), // past the lean pool's size
      Buffer.from('<rss>caf\xe9 \x93quoted\x94</rss>', 'latin1'), // windows-1252, not UTF-8
    ];
    for (const body of bodies) {
      peer.route('GET', '/feed.xml', 200, {
        body,
        headers: { 'content-type': 'application/rss+xml; charset=windows-1252' },
      });
      await ping();
    }
    const posts = peer.hits('POST', '/cb');
    expect(posts.map((p) => p.raw)).toEqual(bodies);
    for (const p of posts) {
      expect(p.headers['x-hub-signature']).toBe(
        `sha256=${createHmac('sha256', 'k').update(p.raw).digest('hex')}`,
      );
      expect(p.headers['content-type']).toBe('application/rss+xml; charset=windows-1252');
    }
  });

  it('drops the subscription when the subscriber answers 410', async () => {
    await subscribed('/cb');
    peer.route('POST', '/cb', 410, 'gone');
    change('<rss>v2</rss>');
    await ping();
    expect(peer.hits('POST', '/cb')).toHaveLength(1);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(0);
  });

  it('retries a failed delivery later with the same body, and not after the topic changed again', async () => {
    await subscribed('/cb');
    peer.route('POST', '/cb', 500, 'busy');
    change('<rss>v2</rss>');
    await ping();
    expect(peer.hits('POST', '/cb')).toHaveLength(1);
    peer.route('POST', '/cb', 200, 'ok');
    (cloud.clock as ManualClock).advance(60_000);
    await cloud.cloud.idle();
    const posts = peer.hits('POST', '/cb');
    expect(posts.map((p) => p.text)).toEqual(['<rss>v2</rss>', '<rss>v2</rss>']);
    expect(await cloud.cloud.store.getSubscription(topic, `${peer.url}/cb`)).toMatchObject({
      ctConsecutiveErrors: 0,
    });

    peer.route('POST', '/cb', 500, 'busy');
    change('<rss>v3</rss>');
    await ping();
    change('<rss>v4</rss>');
    peer.route('POST', '/cb', 200, 'ok');
    await ping();
    (cloud.clock as ManualClock).advance(60_000);
    await cloud.cloud.idle();
    // v3's retry is dropped: v4 reached the subscriber already.
    expect(peer.hits('POST', '/cb').map((p) => p.text)).toEqual([
      '<rss>v2</rss>',
      '<rss>v2</rss>',
      '<rss>v3</rss>',
      '<rss>v4</rss>',
    ]);
  });
});

describe('mounted under a path (the app embeds the cloud at /cloud)', () => {
  it('is the hub at {base}/websub and names that URL in deliveries', async () => {
    await cloud.close();
    cloud = await startCloud({ basePath: '/cloud', publicBaseUrl: 'https://me.example' });
    peer.route('GET', '/cb', 200, echo);
    peer.route('POST', '/cb', 200, 'ok');
    const res = await postForm(`${cloud.url}/cloud/websub`, {
      'hub.mode': 'subscribe',
      'hub.callback': `${peer.url}/cb`,
      'hub.topic': topic,
    });
    expect(res.status).toBe(202);
    await cloud.cloud.idle();
    change('<rss>v2</rss>');
    await postForm(`${cloud.url}/cloud/ping`, { url: topic });
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/cb')[0]!.headers.link).toBe(
      `<https://me.example/cloud/websub>; rel="hub", <${topic}>; rel="self"`,
    );
  });
});

describe('one subscriber list, every protocol', () => {
  it('an rssCloud ping reaches a WebSub subscriber (the body) and an http-post one (the URL)', async () => {
    await subscribed('/websub-cb');
    peer.route('POST', '/rest-cb', 200, 'ok');
    const reg = await postForm(`${cloud.url}/pleaseNotify`, {
      port: peer.port,
      path: '/rest-cb',
      protocol: 'http-post',
      url1: topic,
    });
    expect(reg.text).toMatch(/success="true"/);
    change('<rss>v2</rss>');
    await ping();
    expect(peer.hits('POST', '/websub-cb').map((r) => r.text)).toEqual(['<rss>v2</rss>']);
    expect(peer.hits('POST', '/rest-cb').map((r) => r.form.url)).toEqual([topic, topic]); // the test call, then the change
  });

  it('a WebSub publish (hub.topic or hub.url) reaches http-post and xml-rpc subscribers', async () => {
    peer.route('POST', '/rest-cb', 200, 'ok');
    peer.rpc('river.feedUpdated', true);
    await postForm(`${cloud.url}/pleaseNotify`, {
      port: peer.port,
      path: '/rest-cb',
      protocol: 'http-post',
      url1: topic,
    });
    await rpcCall(`${cloud.url}/RPC2`, 'rssCloud.pleaseNotify', [
      'river.feedUpdated',
      peer.port,
      '/RPC2',
      'xml-rpc',
      [topic],
    ]);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(2);
    change('<rss>v2</rss>');
    const res = await hub({ 'hub.mode': 'publish', 'hub.topic': topic });
    expect(res.status).toBe(202);
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/rest-cb')).toHaveLength(2);
    expect(peer.rpcHits('river.feedUpdated').map((r) => r.rpc!.params[0])).toEqual([topic, topic]);

    change('<rss>v3</rss>');
    expect((await hub({ 'hub.mode': 'publish', 'hub.url': topic })).status).toBe(202);
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/rest-cb')).toHaveLength(3);
    // Unchanged: a publish reads once and tells no one.
    expect((await hub({ 'hub.mode': 'publish', 'hub.url': topic })).status).toBe(202);
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/rest-cb')).toHaveLength(3);
    expect(peer.hits('GET', '/feed.xml')).toHaveLength(5);
  });
});
