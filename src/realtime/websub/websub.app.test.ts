/**
 * WebSub reading as the app wires it, against a hub written to the spec's strictest reading
 * (src/testing/websub-hub.ts) on loopback: discovery (body and Link header, topic = self),
 * verification (exact challenge, only for what we asked), content delivery straight into the
 * river with no second fetch, signatures, deliveries we never asked for, bad bodies, leases
 * renewed on a driven clock, unsubscribe, and the choice between a hub and a <cloud>.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry, FeedView } from '../../app/api.ts';
import { createTidings, type RealtimeOptions, type Tidings } from '../../app/tidings.ts';
import { ManualClock } from '../../common/clock.ts';
import { freePort } from '../../net/test-server.ts';
import { type RealCloud, startRealCloud } from '../../testing/clouds.ts';
import { type FeedHost, rssFeed, startFeedHost, type TestItem } from '../../testing/feed-host.ts';
import { waitFor } from '../../testing/wait.ts';
import { type StrictHub, startStrictHub } from '../../testing/websub-hub.ts';
import { FALLBACK_FETCH_GAP_MS } from './reading.ts';
import { signBody } from './signature.ts';
import { VERIFY_TIMEOUT_MS } from './websub-subscriptions.ts';

const DAY = 86_400_000;
let cloud: RealCloud;
beforeAll(async () => {
  cloud = await startRealCloud();
});
afterAll(async () => {
  await cloud.close();
});

let host: FeedHost;
let hub: StrictHub;
let dataDir: string;
let clock: ManualClock;
let app: Tidings | null;
let activity: ActivityEntry[];

beforeEach(async () => {
  host = await startFeedHost();
  hub = await startStrictHub();
  dataDir = mkdtempSync(join(tmpdir(), 'tidings-websub-app-'));
  clock = new ManualClock(Date.now());
  activity = [];
});
afterEach(async () => {
  await app?.stop();
  app = null;
  await hub.close();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ATOM = 'xmlns:atom="http://www.w3.org/2005/Atom"';
const topicOf = () => `${host.url}/self.xml`;
/** How the feed row names the hub: its host and port. */
const hubHost = () => new URL(hub.url).host;
/** A feed naming the strict hub and a self URL other than the one we fetch. */
const hubbed = (items: TestItem[], extra = '') =>
  rssFeed(
    'Hubbed',
    items,
    `<atom:link ${ATOM} rel="hub" href="${hub.url}"/><atom:link ${ATOM} rel="self" href="${topicOf()}"/>${extra}`,
  );

async function start(
  realtime: Partial<RealtimeOptions> = {},
): Promise<{ a: Tidings; base: string; port: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const a = createTidings({
    dataDir,
    clock,
    random: () => 0,
    realtime: {
      tunnelHost: false,
      publicBaseUrl: base,
      receiverPort: port,
      tuning: { websub: { retry: { initialMs: 60_000 } } },
      ...realtime,
    },
  });
  a.on('activity', (e) => activity.push(e));
  a.start();
  app = a;
  await a.realtimeStarted();
  return { a, base, port };
}

async function subscribe(a: Tidings, path = '/feed.xml'): Promise<number> {
  const res = await a.subscribe({ url: `${host.url}${path}` });
  if (!res.ok) throw new Error(res.error.message);
  await a.context.scheduler.idle();
  return res.value.id;
}

const view = async (a: Tidings, id: number): Promise<FeedView> =>
  (await a.listFeeds()).find((f) => f.id === id)!;
const titles = async (a: Tidings) => (await a.river({})).groups.flatMap((g) => g.items.map((i) => i.title));
/** Live on our side; the hub has read our answer too (it records after the response). */
async function live(a: Tidings, id: number): Promise<void> {
  await waitFor(
    async () => (await view(a, id)).delivery.startsWith('real-time via WebSub'),
    10_000,
    'WebSub live',
  );
  await hub.idle();
}

describe('WebSub reading', () => {
  it('subscribes to the self topic, echoes exactly the challenge, and takes deliveries into the river without fetching', async () => {
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a, base } = await start();
    const id = await subscribe(a);
    await live(a, id);

    // The subscribe request: our public callback, the self URL as topic, no secret over http.
    const asked = hub.requests.find((r) => r.mode === 'subscribe')!;
    expect(asked.status).toBe(202);
    expect(asked.params['hub.topic']).toBe(topicOf());
    expect(asked.params['hub.callback']).toMatch(new RegExp(`^${base}/websub/[A-Za-z0-9_-]{24}$`));
    expect(asked.params['hub.secret']).toBeUndefined();
    // The lease we asked for, clamped by the hub to 10 days, drives the renewal line.
    expect(hub.verifications).toHaveLength(1);
    expect(hub.verifications[0]).toMatchObject({ accepted: true, status: 200 });
    expect(hub.verifications[0]!.body).toBe(hub.verifications[0]!.challenge);
    expect((await view(a, id)).delivery).toBe(`real-time via WebSub hub ${hubHost()} (renews in 9 d)`);
    expect((await view(a, id)).dueReason).toBe('real-time; safety net every 6 h');

    const fetched = host.hits('/feed.xml');
    const changed = new Promise<void>((r) => a.on('river.changed', () => r()));
    const [d] = await hub.deliver(
      topicOf(),
      hubbed([
        { title: 'two', guid: '2' },
        { title: 'one', guid: '1' },
      ]),
    );
    expect(d?.status).toBe(202);
    await changed;
    expect(await titles(a)).toContain('two');
    expect(host.hits('/feed.xml')).toBe(fetched); // no second fetch

    // The log shows the subscribe, the verification and the delivery.
    const procs = activity.map((e) => `${e.direction} ${e.procedure} ${e.ok}`);
    expect(procs).toEqual(
      expect.arrayContaining([
        'out websub subscribe true',
        'in websub verify subscribe true',
        'in websub deliver true',
      ]),
    );
    // The settings list the hub subscription.
    expect((await a.realtimeInfo()).subscriptions).toMatchObject([
      { feedId: id, protocol: 'WebSub', via: new URL(hub.url).host, status: 'live', live: true },
    ]);

    // Unsubscribing the feed tells the hub, which verifies on our callback.
    await a.unsubscribe(id);
    await waitFor(() => hub.subscriptions().length === 0, 10_000, 'the hub to drop us');
    expect(hub.verifications.at(-1)).toMatchObject({ mode: 'unsubscribe', accepted: true });
  });

  it('finds the hub and the topic in the Link header', async () => {
    host.set('/feed.xml', {
      body: rssFeed('Linked', [{ title: 'one', guid: '1' }]),
      type: 'application/rss+xml',
      headers: { link: `<${hub.url}>; rel="hub", </canonical.xml>; rel="self"` },
    });
    const { a } = await start();
    const id = await subscribe(a);
    await live(a, id);
    expect(hub.subscriptions()[0]?.topic).toBe(`${host.url}/canonical.xml`);
  });

  it('refuses what it did not ask for: a second verification, an unknown callback, another topic', async () => {
    hub.knobs.verifyTwice = true;
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a, base } = await start();
    const id = await subscribe(a);
    await live(a, id);
    await hub.idle();
    expect(hub.verifications.map((v) => [v.status, v.accepted])).toEqual([
      [200, true],
      [404, false],
    ]);
    // A verification for a callback nobody was given.
    const stranger = await fetch(
      `${base}/websub/AAAAAAAAAAAAAAAAAAAAAAAA?hub.mode=subscribe&hub.topic=x&hub.challenge=abc`,
    );
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain('abc');
    // A verification of another topic on our live callback: refused, and logged as what it is
    // (it was logged "already verified").
    const callback = hub.requests.find((r) => r.mode === 'subscribe')!.params['hub.callback']!;
    const elsewhere = new URL(callback);
    elsewhere.searchParams.set('hub.mode', 'subscribe');
    elsewhere.searchParams.set('hub.topic', 'http://elsewhere.example/other.xml');
    elsewhere.searchParams.set('hub.challenge', 'abc');
    const otherTopic = await fetch(elsewhere);
    expect(otherTopic.status).toBe(404);
    expect(await otherTopic.text()).not.toContain('abc');
    // A delivery on a callback we do not hold (410: the hub may drop it), and one naming a topic
    // we never asked for.
    const unknown = await fetch(`${base}/websub/AAAAAAAAAAAAAAAAAAAAAAAA`, { method: 'POST', body: 'x' });
    expect(unknown.status).toBe(410);
    const before = await titles(a);
    const [other] = await hub.deliver(topicOf(), hubbed([{ title: 'intruder', guid: 'x' }]), {
      self: 'http://elsewhere.example/feed.xml',
    });
    expect(other?.status).toBe(404);
    expect(await titles(a)).toEqual(before);
    const refused = activity.filter((e) => e.procedure.startsWith('websub') && !e.ok).map((e) => e.result);
    expect(refused).toEqual(
      expect.arrayContaining([
        '404: a verification we are not waiting for (already verified)',
        '404: a verification for a request we did not make',
        `404: a verification of another topic (http://elsewhere.example/other.xml) on the callback of ${topicOf()}`,
        '410: a delivery for a subscription we do not have (any more); ignored',
        '404: a delivery for a topic we never asked for; ignored',
      ]),
    );
  });

  it('fetches instead when a delivery is empty or not a feed, and refuses a body over the cap', async () => {
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a } = await start({ tuning: { websub: { maxBodyBytes: 64 * 1024 } } });
    const id = await subscribe(a);
    await live(a, id);
    host.set(
      '/feed.xml',
      hubbed([
        { title: 'fetched', guid: 'f' },
        { title: 'one', guid: '1' },
      ]),
    );

    let hits = host.hits('/feed.xml');
    expect((await hub.deliver(topicOf(), 'this is not a feed', { type: 'text/plain' }))[0]?.status).toBe(202);
    await waitFor(() => host.hits('/feed.xml') === hits + 1, 10_000, 'the fallback fetch');
    await waitFor(async () => (await titles(a)).includes('fetched'), 10_000, 'the fetched item');
    expect((await view(a, id)).status).toBe('ok'); // a hub's junk is not the feed's error

    // Fallback fetches of one feed are spaced (strangers can ask for them on an unsigned callback).
    hits = host.hits('/feed.xml');
    expect((await hub.deliver(topicOf(), ''))[0]?.status).toBe(202);
    clock.advance(FALLBACK_FETCH_GAP_MS);
    await waitFor(() => host.hits('/feed.xml') === hits + 1, 10_000, 'the fetch after an empty delivery');

    hits = host.hits('/feed.xml');
    const huge = new Uint8Array(65 * 1024).fill(0x20);
    expect((await hub.deliver(topicOf(), huge))[0]?.status).toBe(413);
    clock.advance(FALLBACK_FETCH_GAP_MS);
    await waitFor(() => host.hits('/feed.xml') === hits + 1, 10_000, 'the fetch after a refused body');
    expect(activity.some((e) => /^413: body over 65536 bytes refused/.test(e.result))).toBe(true);
  });

  it('refuses a 50 MB delivery at the default cap, without reading it, and fetches the feed instead', async () => {
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a, base } = await start();
    const id = await subscribe(a);
    await live(a, id);
    const hits = host.hits('/feed.xml');
    const before = process.memoryUsage.rss();
    const [d] = await hub.deliver(topicOf(), new Uint8Array(50 * 1024 * 1024));
    // 413 (or the connection closed on the hub mid-body): either way nothing was taken.
    expect([413, null]).toContain(d?.status ?? null);
    await waitFor(() => host.hits('/feed.xml') === hits + 1, 10_000, 'the fetch instead');
    expect(activity.some((e) => /^413: body over 8388608 bytes refused/.test(e.result))).toBe(true);
    expect(process.memoryUsage.rss() - before).toBeLessThan(200 * 1024 * 1024);
    // A feed of a few hundred KB is taken whole.
    const items = Array.from({ length: 2000 }, (_, i) => ({ title: `big ${i}`, guid: `big-${i}` }));
    const big = hubbed(items);
    expect(big.length).toBeGreaterThan(200 * 1024);
    expect((await hub.deliver(topicOf(), big))[0]?.status).toBe(202);
    await waitFor(async () => (await titles(a)).includes('big 1999'), 10_000, 'the big delivery stored');
    // Only the WebSub callbacks take whole feeds: every other route on the port keeps its small cap.
    const other = await fetch(`${base}/rsscloud/${'x'.repeat(24)}/notify`, {
      method: 'POST',
      body: new Uint8Array(1024 * 1024),
    }).catch(() => null);
    expect(other === null || other.status === 413).toBe(true);
    // Refused by the socket layer before any handler read it (the receiver's own check would log).
    expect(activity.some((e) => e.result.startsWith('413: body over 16384'))).toBe(false);
  });

  it('quitting for good tells the hub to stop delivering', async () => {
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a } = await start();
    const id = await subscribe(a);
    await live(a, id);
    expect(hub.subscriptions()).toHaveLength(1);
    await a.stop({ forGood: true });
    app = null;
    await hub.idle();
    expect(hub.subscriptions()).toEqual([]);
    expect(hub.verifications.at(-1)).toMatchObject({ mode: 'unsubscribe', accepted: true });
  });

  it('renews before the lease ends, on the driven clock, and marks a hub that never verifies', async () => {
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a } = await start();
    const id = await subscribe(a);
    await live(a, id);
    const subscribes = () => hub.requests.filter((r) => r.mode === 'subscribe').length;
    expect(subscribes()).toBe(1);

    clock.advance(9 * DAY - 60_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(subscribes()).toBe(1); // not yet
    clock.advance(60_000);
    await waitFor(() => hub.verifications.length === 2, 10_000, 'the renewal verified');
    await waitFor(async () => (await view(a, id)).delivery.endsWith('(renews in 9 d)'));
    expect(activity.map((e) => e.procedure)).toContain('websub renew');

    // The hub stops verifying: the subscription stays live until its lease ends, then fails.
    hub.knobs.neverVerify = true;
    clock.advance(9 * DAY);
    await waitFor(() => subscribes() === 3, 10_000, 'the second renewal');
    await new Promise((r) => setTimeout(r, 50));
    clock.advance(VERIFY_TIMEOUT_MS);
    await waitFor(
      () => activity.some((e) => e.result.endsWith('accepted the request but never verified it.')),
      10_000,
      'the verification timeout',
    );
    expect((await view(a, id)).delivery).toMatch(/^real-time via WebSub/); // the lease still runs
    clock.advance(DAY);
    await waitFor(async () => !(await view(a, id)).delivery.startsWith('real-time'), 10_000, 'the lapse');
    expect((await view(a, id)).delivery).toMatch(/^polled every/);
  });

  it('prefers the hub over a <cloud>, says so, and hands the feed to the cloud when the hub denies it', async () => {
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }], cloud.markup('http-post')));
    const { a } = await start();
    const id = await subscribe(a);
    await live(a, id);
    expect((await view(a, id)).delivery).toBe(
      `real-time via WebSub hub ${hubHost()} (renews in 9 d); chosen over its rssCloud: the hub sends the new feed itself`,
    );
    expect(activity.some((e) => e.procedure === 'pleaseNotify')).toBe(false);

    // Another reader's view: a hub that denies.
    await a.unsubscribe(id);
    hub.knobs.deny = 'Topic not allowed';
    const again = await subscribe(a);
    await waitFor(
      async () => (await view(a, again)).delivery.includes('WebSub hub refused'),
      10_000,
      'fallback',
    );
    await waitFor(async () =>
      (await view(a, again)).delivery.startsWith(`real-time via 127.0.0.1:${cloud.port}`),
    );
    expect((await view(a, again)).delivery).toBe(
      `real-time via 127.0.0.1:${cloud.port} (renews in 23 h); its WebSub hub refused: The hub denied the subscription: Topic not allowed`,
    );
    // The hub is asked again later; while it still refuses, the cloud's subscription stays as is.
    const asks = () => activity.filter((e) => e.procedure === 'pleaseNotify').length;
    const denials = () => hub.verifications.filter((v) => v.mode === 'denied').length;
    const [askedBefore, deniedBefore] = [asks(), denials()];
    clock.advance(2 * 3_600_000);
    await waitFor(() => denials() > deniedBefore, 10_000, 'the hub asked again');
    await hub.idle();
    await a.context.realtime!.websub.manager.idle();
    expect(asks()).toBe(askedBefore);
    expect((await view(a, again)).delivery).toMatch(
      new RegExp(`^real-time via 127\\.0\\.0\\.1:${cloud.port} \\(renews in 21 h\\); its WebSub hub refused`),
    );
  });
});

describe('several hubs', () => {
  it('asks the next hub the feed names when the first denies', async () => {
    const second = await startStrictHub();
    try {
      hub.knobs.deny = 'Not here';
      host.set(
        '/feed.xml',
        hubbed([{ title: 'one', guid: '1' }], `<atom:link ${ATOM} rel="hub" href="${second.url}"/>`),
      );
      const { a } = await start();
      const id = await subscribe(a);
      await waitFor(() => second.subscriptions().length === 1, 10_000, 'the second hub');
      await live(a, id);
      expect((await view(a, id)).delivery).toBe(
        `real-time via WebSub hub ${new URL(second.url).host} (renews in 9 d)`,
      );
      expect((await a.realtimeInfo()).subscriptions).toMatchObject([
        { protocol: 'WebSub', via: new URL(second.url).host },
      ]);
      // It stays with the hub that serves.
      await a.refresh(id);
      await a.context.scheduler.idle();
      expect(second.requests.filter((r) => r.mode === 'subscribe')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('WebSub signatures (an https callback carries a secret)', () => {
  it('takes deliveries signed with sha1/256/384/512, and acknowledges but ignores bad or missing ones', async () => {
    const port = await freePort();
    // The public address is https (a TLS tunnel in front); the hub dials the receiver directly.
    hub.knobs.reach = (cb) => cb.replace('https://reader.example', `http://127.0.0.1:${port}`);
    host.set('/feed.xml', hubbed([{ title: 'one', guid: '1' }]));
    const { a } = await start({ publicBaseUrl: 'https://reader.example', receiverPort: port });
    const id = await subscribe(a);
    await live(a, id);
    const secret = hub.requests.find((r) => r.mode === 'subscribe')!.params['hub.secret']!;
    expect(secret.length).toBeGreaterThanOrEqual(24);
    expect(Buffer.byteLength(secret)).toBeLessThan(200);

    let n = 0;
    const deliver = async (signature: (body: string) => string | null) => {
      n++;
      const body = hubbed([{ title: `item ${n}`, guid: String(n) }]);
      const [d] = await hub.deliver(topicOf(), body, { signature: signature(body) });
      await a.context.realtime!.websub.queue.idle();
      return { status: d?.status, stored: (await titles(a)).includes(`item ${n}`) };
    };
    for (const method of ['sha1', 'sha256', 'sha384', 'sha512'] as const) {
      expect(await deliver((b) => signBody(method, secret, b))).toEqual({ status: 202, stored: true });
    }
    expect(await deliver((b) => signBody('sha256', 'not the secret', b))).toEqual({
      status: 202,
      stored: false,
    });
    expect(await deliver(() => null)).toEqual({ status: 202, stored: false });
    expect(await deliver((b) => signBody('sha256', secret, `${b} `))).toEqual({ status: 202, stored: false });
    expect(await deliver((b) => `md5=${signBody('sha1', secret, b).slice(5)}`)).toEqual({
      status: 202,
      stored: false,
    });
    const ignored = activity.filter((e) => e.result.startsWith('ignored:')).map((e) => e.result);
    expect(ignored).toEqual([
      'ignored: a sha256 signature that does not match (acknowledged, as the spec says)',
      'ignored: no X-Hub-Signature (acknowledged, as the spec says)',
      'ignored: a sha256 signature that does not match (acknowledged, as the spec says)',
      'ignored: an unknown signature method "md5" (acknowledged, as the spec says)',
    ]);
  });
});
