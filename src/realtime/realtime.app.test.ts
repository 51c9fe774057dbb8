/**
 * Real-time reading as the app wires it (createTidings with `realtime`): the feed's delivery line,
 * polling that relaxes to the safety net while a subscription is live and tightens back when it
 * lapses, the activity log through the API, and the settings that move the public address.
 * Real servers on loopback; the clock is driven.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry, FeedView } from '../app/api.ts';
import { createTidings, type RealtimeOptions, type Tidings } from '../app/tidings.ts';
import { ManualClock } from '../common/clock.ts';
import {
  type RealCloud,
  type ScriptedCloud,
  startRealCloud,
  startScriptedCloud,
  xmlAnswer,
} from '../testing/clouds.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';

const HOUR = 3_600_000;
let scripted: ScriptedCloud;
let accept = true;
let cloud: RealCloud;

beforeAll(async () => {
  scripted = await startScriptedCloud(() =>
    accept
      ? xmlAnswer(true, 'Thanks for the registration.')
      : xmlAnswer(false, 'We are not taking new subscribers.'),
  );
  cloud = await startRealCloud();
});
afterAll(async () => {
  await scripted.close();
  await cloud.close();
});

let host: FeedHost;
let dataDir: string;
let clock: ManualClock;
let app: Tidings | null;
let activity: ActivityEntry[];
let statuses: FeedView[];

beforeEach(async () => {
  host = await startFeedHost();
  dataDir = mkdtempSync(join(tmpdir(), 'tidings-realtime-app-'));
  clock = new ManualClock(Date.now());
  activity = [];
  statuses = [];
  accept = true;
});
afterEach(async () => {
  await app?.stop();
  app = null;
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(realtime: RealtimeOptions): Tidings {
  const a = createTidings({ dataDir, clock, random: () => 0, realtime });
  a.on('activity', (e) => activity.push(e));
  a.on('feed.status', (v) => statuses.push(v));
  a.start();
  app = a;
  return a;
}

async function subscribe(a: Tidings, path: string): Promise<number> {
  const res = await a.subscribe({ url: `${host.url}${path}` });
  if (!res.ok) throw new Error(res.error.message);
  await a.context.scheduler.idle();
  return res.value.id;
}

const feedView = async (a: Tidings, id: number) => (await a.listFeeds()).find((f) => f.id === id)!;
const scriptedMarkup = () =>
  `<cloud domain="127.0.0.1" port="${scripted.port}" path="/pleaseNotify" registerProcedure="" protocol="http-post"/>`;

describe('real-time reading in the app', () => {
  it('relaxes polling to the safety net while live, and tightens it back when the subscription lapses', async () => {
    host.set('/feed.xml', rssFeed('Relaxed', [{ title: 'one', guid: '1' }], scriptedMarkup()));
    const a = start({ tunnelHost: false, publicBaseUrl: 'https://reader.example', receiverPort: 0 });
    const id = await subscribe(a, '/feed.xml');
    await waitFor(async () => (await feedView(a, id)).delivery.startsWith('real-time'));

    let view = await feedView(a, id);
    expect(view.delivery).toBe(`real-time via 127.0.0.1:${scripted.port} (renews in 23 h)`);
    const fetchedAt = Date.parse(view.lastFetchedAt!);
    expect(Date.parse(view.nextDueAt!)).toBe(fetchedAt + 6 * HOUR);
    expect(view.dueReason).toBe('real-time; safety net every 6 h');
    // The same line reached the UI as an event, and the request is in the activity log.
    expect(statuses.at(-1)?.delivery).toBe(`real-time via 127.0.0.1:${scripted.port} (renews in 23 h)`);
    expect(activity.map((e) => [e.direction, e.procedure, e.ok])).toContainEqual([
      'out',
      'pleaseNotify',
      true,
    ]);
    expect(scripted.requests.at(-1)?.body).toContain('domain=reader.example');

    // The cloud stops accepting renewals; 25 h after the last success the subscription lapses.
    accept = false;
    for (let h = 0; h < 25; h++) {
      clock.advance(HOUR);
      await a.context.scheduler.idle();
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(async () => !(await feedView(a, id)).delivery.startsWith('real-time'));
    view = await feedView(a, id);
    expect(view.delivery).toBe(
      'polled every 60 min (The subscription lapsed; the last renewal failed: We are not taking new subscribers)',
    );
    expect(view.dueReason).toBe('interval 60 min');
    expect(Date.parse(view.nextDueAt!) - clock.now()).toBeLessThanOrEqual(60 * 60_000);
  });

  it("polls a feed whose cloud refuses, with the cloud's reason in its delivery line", async () => {
    accept = false;
    host.set('/feed.xml', rssFeed('Refused', [{ title: 'one', guid: '1' }], scriptedMarkup()));
    const a = start({ tunnelHost: false, publicBaseUrl: 'https://reader.example', receiverPort: 0 });
    const id = await subscribe(a, '/feed.xml');
    await waitFor(async () => (await feedView(a, id)).delivery.includes('not taking'));
    const view = await feedView(a, id);
    expect(view.delivery).toBe('polled every 60 min (We are not taking new subscribers)');
    expect(view.dueReason).toBe('interval 60 min');
    const entries = await a.activity(10);
    expect(entries[0]).toMatchObject({ direction: 'out', procedure: 'pleaseNotify', ok: false });
    expect(entries[0]!.result).toBe('We are not taking new subscribers.');
    expect(new Date(entries[0]!.at).toISOString()).toBe(entries[0]!.at);
  });

  it('shows the SOAP reason without asking anyone', async () => {
    const soap = `<cloud domain="127.0.0.1" port="${scripted.port}" path="/RPC2" registerProcedure="x" protocol="soap"/>`;
    host.set('/feed.xml', rssFeed('Soapy', [{ title: 'one', guid: '1' }], soap));
    const before = scripted.requests.length;
    const a = start({ tunnelHost: false, publicBaseUrl: 'https://reader.example', receiverPort: 0 });
    const id = await subscribe(a, '/feed.xml');
    await waitFor(async () => (await feedView(a, id)).delivery.includes('SOAP'));
    expect((await feedView(a, id)).delivery).toBe(
      'polled every 60 min (The cloud speaks SOAP, which no live cloud implements: polling instead)',
    );
    expect(scripted.requests.length).toBe(before);
  });

  it('brings a notified item into the river through the app, and forgets the cloud on unsubscribe', async () => {
    host.set('/feed.xml', rssFeed('Live', [{ title: 'one', guid: '1' }], cloud.markup('http-post')));
    const { freePort } = await import('../net/test-server.ts');
    const port = await freePort();
    const a = start({ tunnelHost: false, publicBaseUrl: `http://127.0.0.1:${port}`, receiverPort: port });
    const id = await subscribe(a, '/feed.xml');
    await waitFor(async () => (await feedView(a, id)).delivery.startsWith('real-time'));
    expect(await a.realtimeInfo()).toMatchObject({
      mode: 'public',
      // The own cloud is a WebSub hub too; the settings list every subscription.
      hub: `http://127.0.0.1:${port}/cloud/websub`,
      subscriptions: [
        { feedId: id, protocol: 'rssCloud', live: true, status: 'live', via: `127.0.0.1:${cloud.port}` },
      ],
      publicUrl: `http://127.0.0.1:${port}`,
      tunnel: null,
      cloud: {
        domain: '127.0.0.1',
        port,
        path: '/cloud/pleaseNotify',
        registerProcedure: '',
        protocol: 'http-post',
      },
    });

    host.set(
      '/feed.xml',
      rssFeed(
        'Live',
        [
          { title: 'two', guid: '2' },
          { title: 'one', guid: '1' },
        ],
        cloud.markup('http-post'),
      ),
    );
    const changed = new Promise<void>((resolve) => a.on('river.changed', () => resolve()));
    await cloud.ping(`${host.url}/feed.xml`);
    await changed;
    const titles = (await a.river({})).groups.flatMap((g) => g.items.map((i) => i.title));
    expect(titles).toContain('two');
    expect(activity.map((e) => `${e.direction} ${e.procedure} ${e.result}`)).toContain(
      'in notify fetch queued',
    );

    await a.unsubscribe(id);
    expect(a.context.realtime?.statusFor(id)).toEqual({ live: false, line: null, reason: null });
  });

  it('moves the public address when the settings change, and stays off without one', async () => {
    const a = start({ tunnelHost: false, receiverPort: 0 });
    await waitFor(() => a.context.realtime?.info().receiverUrl != null);
    expect((await a.realtimeInfo()).mode).toBe('off');
    expect(await a.getSettings()).toMatchObject({ tunnelEnabled: false, publicBaseUrl: null });
    const s = await a.updateSettings({ publicBaseUrl: 'https://me.example:8443/' });
    expect(s.publicBaseUrl).toBe('https://me.example:8443');
    expect(await a.realtimeInfo()).toMatchObject({ mode: 'public', publicUrl: 'https://me.example:8443' });
    await expect(a.updateSettings({ publicBaseUrl: 'ftp://nope' })).rejects.toThrow(/http\(s\) URL/);
    await a.updateSettings({ publicBaseUrl: null });
    expect((await a.realtimeInfo()).mode).toBe('off');
  });

  it('is off entirely when the app is created without it', async () => {
    const a = createTidings({ dataDir, clock });
    app = a;
    a.start();
    expect(a.context.realtime).toBeNull();
    expect(await a.activity()).toEqual([]);
    expect(await a.realtimeInfo()).toEqual({
      mode: 'off',
      publicUrl: null,
      tunnelHost: null,
      off: 'thisRun',
      tunnelQuestion: false,
      tunnel: null,
      cloud: null,
      hub: null,
      subscriptions: [],
    });
  });
});
