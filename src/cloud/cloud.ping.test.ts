/**
 * The reference cloud's own ping test list (rsscloud-server apps/e2e/test/ping.js), row by row,
 * for each subscriber protocol and each way of pinging. This cloud answers a ping right after
 * the read and compare; `cloud.idle()` waits for the fan-out before the deliveries are checked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, systemClock } from '../common/clock.ts';
import { delay, Peer, postForm, restXml, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import { SUBSCRIPTION_TTL_MS } from './core/core.ts';
import { messages } from './core/messages.ts';
import type { NotifyProtocol } from './core/types.ts';

type Asking = 'XML-RPC' | 'REST-XML' | 'REST-JSON';
const PROTOCOLS: NotifyProtocol[] = ['http-post', 'https-post', 'xml-rpc'];
const ASKING: Asking[] = ['XML-RPC', 'REST-XML', 'REST-JSON'];

let peer: Peer;
let cloud: TestCloud;

beforeEach(async () => {
  peer = await new Peer().start(true);
  // A per-notification budget a busy 2-core machine's TLS handshakes fit in (it stretched them
  // past 0.5 s, and past 1.5 s with the end-to-end tests running beside): no subscriber here
  // hangs, so it costs nothing. The "very slow subscriber" rows use a shorter one, and one test
  // the default 4 s.
  cloud = await startCloud({ notifyTimeoutMs: 5000 });
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

/** The cloud again, with other settings (a test's own notification budget). */
async function restartCloud(overrides: Parameters<typeof startCloud>[0] = {}): Promise<void> {
  await cloud.close();
  cloud = await startCloud(overrides);
}

async function ping(asking: Asking, url: string | null) {
  if (asking === 'XML-RPC') return rpcCall(`${cloud.url}/RPC2`, 'rssCloud.ping', url === null ? [] : [url]);
  return postForm(
    `${cloud.url}/ping`,
    url === null ? {} : { url },
    asking === 'REST-JSON' ? 'application/json' : undefined,
  );
}

function expectAnswer(asking: Asking, res: Awaited<ReturnType<typeof ping>>, success: boolean, msg: string) {
  expect(res.status).toBe(200);
  if ('answer' in res) expect(res.answer).toEqual({ kind: 'value', value: true });
  else if (asking === 'REST-JSON') expect(JSON.parse(res.text)).toEqual({ success, msg });
  else expect(res.text).toBe(restXml('result', success, msg));
}

async function subscribe(
  feed: string,
  callbackUrl: string,
  protocol: NotifyProtocol,
  extra: { expiresAt?: number; consecutiveErrors?: number } = {},
) {
  const now = cloud.clock.now();
  await cloud.cloud.store.insertSubscriptions(
    [
      {
        feedUrl: feed,
        callbackUrl,
        protocol,
        notifyProcedure: protocol === 'xml-rpc' ? 'river.feedUpdated' : null,
        expiresAt: extra.expiresAt ?? now + SUBSCRIPTION_TTL_MS,
        consecutiveErrors: extra.consecutiveErrors ?? 0,
      },
    ],
    now,
  );
}

for (const protocol of PROTOCOLS) {
  for (const asking of ASKING) {
    const rpc = protocol === 'xml-rpc';
    const base = () => (protocol === 'https-post' ? peer.secureUrl : peer.url);
    const callback = (path: string) => (rpc ? `${peer.url}/RPC2` : `${base()}${path}`);

    /** Notifications the peer got at `path` (or as XML-RPC calls), each carrying the feed URL. */
    const notified = (path: string, feed: string) => {
      const hits = rpc ? peer.rpcHits('river.feedUpdated') : peer.hits('POST', path);
      for (const h of hits) expect(rpc ? h.rpc!.params[0] : h.form.url).toBe(feed);
      return hits.length;
    };

    /** The reference's usual row: the feed at /rss.xml answers `status`, one subscriber waits at /feedupdated. */
    const feedWithSubscriber = async (
      status: number,
      body: string,
      extra?: Parameters<typeof subscribe>[3],
    ): Promise<string> => {
      const feed = `${peer.url}/rss.xml`;
      peer
        .route('GET', '/rss.xml', status, body)
        .route('POST', '/feedupdated', 200, 'Thanks!')
        .rpc('river.feedUpdated');
      await subscribe(feed, callback('/feedupdated'), protocol, extra);
      return feed;
    };

    /** Pings `feed` this way, checks the answer, and waits for the fan-out it started. */
    const pingAndSettle = async (feed: string, success = true, msg: string = messages.pinged) => {
      expectAnswer(asking, await ping(asking, feed), success, msg);
      await cloud.cloud.idle();
    };

    describe(`ping ${asking} to ${protocol}`, () => {
      it('accepts a ping for a new resource and notifies', async () => {
        const feed = await feedWithSubscriber(200, '<RSS Feed />');
        await pingAndSettle(feed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(notified('/feedupdated', feed)).toBe(1);
      });

      it('pings multiple subscribers on the same domain', async () => {
        const feed = `${peer.url}/rss.xml`;
        peer.route('GET', '/rss.xml', 200, '<RSS Feed />').rpc('river.feedUpdated');
        peer.route('POST', '/feedupdated1', 200, 'Thanks!').route('POST', '/feedupdated2', 200, 'Thanks!');
        await subscribe(feed, callback('/feedupdated1'), protocol);
        await subscribe(feed, `${peer.url}/feedupdated2`, 'http-post');

        await pingAndSettle(feed);
        expect(notified('/feedupdated1', feed)).toBe(1);
        expect(peer.hits('POST', '/feedupdated2')).toHaveLength(1);
        expect(peer.hits('POST', '/feedupdated2')[0]!.form.url).toBe(feed);
      });

      it('rejects a ping for a bad resource and notifies no one', async () => {
        const feed = await feedWithSubscriber(404, 'Not Found');
        await pingAndSettle(feed, false, messages.pingReadResource(feed));
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(notified('/feedupdated', feed)).toBe(0);
      });

      it('rejects a ping with a missing url', async () => {
        peer.route('GET', '/rss.xml', 404, 'Not Found');
        const res = await ping(asking, null);
        if ('answer' in res) {
          expect(res.answer).toEqual({
            kind: 'fault',
            faultCode: 4,
            faultString: messages.notEnoughParams('ping'),
          });
        } else expectAnswer(asking, res, false, messages.missingParams(['url']));
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(0);
      });

      it('accepts a ping for an unchanged resource and notifies only once', async () => {
        const feed = await feedWithSubscriber(200, '<RSS Feed />');
        await pingAndSettle(feed);
        await pingAndSettle(feed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(2);
        expect(notified('/feedupdated', feed)).toBe(1);
      });

      it('accepts a ping with slow subscribers and notifies them all', async () => {
        // What matters here is that every slow subscriber is notified, not how fast: a budget no
        // loaded machine's TLS handshakes reach (at load 15 the file's 1.5 s was passed).
        await restartCloud({ notifyTimeoutMs: 15_000 });
        const feed = `${peer.url}/rss.xml`;
        peer.route('GET', '/rss.xml', 200, '<RSS Feed />');
        const slow = async () => {
          await delay(200);
          return 'Thanks!';
        };
        peer.rpc('river.feedUpdated', async () => {
          await delay(200);
          return true;
        });
        const paths = rpc ? ['/RPC2'] : Array.from({ length: 10 }, (_, i) => `/feedupdated${i}`);
        for (const p of paths) {
          peer.route('POST', p, 200, slow);
          await subscribe(feed, callback(p), protocol);
        }

        await pingAndSettle(feed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        if (rpc) expect(notified('/RPC2', feed)).toBe(1);
        else for (const p of paths) expect(notified(p, feed)).toBe(1);
        const subs = await cloud.cloud.store.allSubscriptions();
        expect(subs.every((s) => s.ctConsecutiveErrors === 0 && s.ctUpdates === 1)).toBe(true);
      });

      it('does not notify expired subscribers', async () => {
        const feed = await feedWithSubscriber(200, '<RSS Feed />', {
          expiresAt: cloud.clock.now() - 2 * SUBSCRIPTION_TTL_MS,
        });
        await pingAndSettle(feed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(notified('/feedupdated', feed)).toBe(0);
      });

      it('does not notify subscribers with 3 consecutive errors', async () => {
        const feed = await feedWithSubscriber(200, '<RSS Feed />', { consecutiveErrors: 3 });
        await pingAndSettle(feed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(notified('/feedupdated', feed)).toBe(0);
      });

      it('counts a very slow subscription as an error', async () => {
        // The subscriber never answers: any budget is passed, so a short one keeps the row quick
        // (300 ms was too short on a loaded machine: the request was abandoned before it was sent).
        await restartCloud({ notifyTimeoutMs: 1000 });
        const feed = `${peer.url}/rss.xml`;
        peer.route('GET', '/rss.xml', 200, '<RSS Feed />').route('POST', '/feedupdated', 200, () => 'hang');
        peer.rpc('river.feedUpdated', () => 'hang');
        await subscribe(feed, callback('/feedupdated'), protocol);

        await pingAndSettle(feed);
        const sub = (await cloud.cloud.store.allSubscriptions())[0]!;
        expect(sub.ctConsecutiveErrors).toBe(1);
        expect(sub.ctErrors).toBe(1);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(notified('/feedupdated', feed)).toBe(1);
      });
    });
  }
}

describe('ping behaviour beyond the reference list', () => {
  it('gives a never-answering subscriber the default 4 s, then counts an error', async () => {
    await restartCloud();
    const feed = `${peer.url}/rss.xml`;
    peer.route('GET', '/rss.xml', 200, '<rss/>').route('POST', '/cb', 200, () => 'hang');
    await subscribe(feed, `${peer.url}/cb`, 'http-post');
    await ping('REST-JSON', feed);
    await cloud.cloud.idle();
    expect((await cloud.cloud.store.allSubscriptions())[0]!.ctConsecutiveErrors).toBe(1);
  });

  it('skips a subscriber after 3 failed notifications, and a renewal brings it back', async () => {
    const feed = `${peer.url}/rss.xml`;
    let version = 0;
    peer.route('GET', '/rss.xml', 200, () => `<rss>${version}</rss>`).route('POST', '/cb', 500, 'down');
    await subscribe(feed, `${peer.url}/cb`, 'http-post');
    for (version = 1; version <= 4; version++) {
      await ping('REST-JSON', feed);
      await cloud.cloud.idle();
    }
    expect(peer.hits('POST', '/cb')).toHaveLength(3);
    expect((await cloud.cloud.store.allSubscriptions())[0]!.ctConsecutiveErrors).toBe(3);

    peer.route('POST', '/cb', 200, 'back');
    const res = await postForm(
      `${cloud.url}/pleaseNotify`,
      { port: peer.port, path: '/cb', protocol: 'http-post', url1: feed },
      'application/json',
    );
    expect(JSON.parse(res.text).success).toBe(true);
    expect((await cloud.cloud.store.allSubscriptions())[0]!.ctConsecutiveErrors).toBe(0);
    version = 9;
    await ping('REST-JSON', feed);
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/cb').filter((h) => h.form.url === feed).length).toBe(5); // 3 failed, test call, notification
  });

  it('a success resets the consecutive error count', async () => {
    const feed = `${peer.url}/rss.xml`;
    let version = 0;
    let up = false;
    peer
      .route('GET', '/rss.xml', 200, () => `<rss>${version}</rss>`)
      .route('POST', '/cb', 200, () => (up ? 'ok' : { status: 503, body: 'busy' }));
    await subscribe(feed, `${peer.url}/cb`, 'http-post');
    for (version = 1; version <= 2; version++) {
      await ping('REST-JSON', feed);
      await cloud.cloud.idle();
    }
    expect((await cloud.cloud.store.allSubscriptions())[0]!.ctConsecutiveErrors).toBe(2);
    up = true;
    await ping('REST-JSON', feed);
    await cloud.cloud.idle();
    const sub = (await cloud.cloud.store.allSubscriptions())[0]!;
    expect(sub.ctConsecutiveErrors).toBe(0);
    expect(sub.ctErrors).toBe(2);
  });

  it('refuses pings closer together than the minimum interval', async () => {
    await restartCloud({ minPingIntervalSec: 60 });
    const feed = `${peer.url}/rss.xml`;
    peer.route('GET', '/rss.xml', 200, '<rss/>');
    expectAnswer('REST-JSON', await ping('REST-JSON', feed), true, messages.pinged);
    (cloud.clock as ManualClock).advance(10_000);
    expectAnswer('REST-XML', await ping('REST-XML', feed), false, messages.pingTooRecent(60, 10));
    (cloud.clock as ManualClock).advance(50_000);
    expectAnswer('REST-JSON', await ping('REST-JSON', feed), true, messages.pinged);
    expect(peer.hits('GET', '/rss.xml')).toHaveLength(2);
  });

  it('uses a conditional GET: a 304 is unchanged and notifies no one', async () => {
    const feed = `${peer.url}/rss.xml`;
    peer.route('GET', '/rss.xml', 200, (r) =>
      r.headers['if-none-match'] === '"v1"' ? { status: 304 } : { body: '<rss/>', headers: { etag: '"v1"' } },
    );
    peer.route('POST', '/cb', 200, 'ok');
    await subscribe(feed, `${peer.url}/cb`, 'http-post');
    await ping('REST-JSON', feed);
    await cloud.cloud.idle();
    await ping('REST-JSON', feed);
    await cloud.cloud.idle();
    expect(peer.hits('GET', '/rss.xml')[1]!.headers['if-none-match']).toBe('"v1"');
    expect(peer.hits('POST', '/cb')).toHaveLength(1);
  });

  it('two pings of one changed feed at once notify once', async () => {
    const feed = `${peer.url}/rss.xml`;
    peer.route('GET', '/rss.xml', 200, '<rss>new</rss>').route('POST', '/cb', 200, 'ok');
    await subscribe(feed, `${peer.url}/cb`, 'http-post');
    await Promise.all([ping('REST-JSON', feed), ping('REST-JSON', feed), ping('REST-JSON', feed)]);
    await cloud.cloud.idle();
    expect(peer.hits('GET', '/rss.xml')).toHaveLength(3);
    expect(peer.hits('POST', '/cb')).toHaveLength(1);
  });

  it('with pingWaitMs the answer waits for the fan-out (the reference timing)', async () => {
    await restartCloud({ pingWaitMs: 4000, clock: systemClock });
    const feed = `${peer.url}/rss.xml`;
    peer.route('GET', '/rss.xml', 200, '<rss/>').route('POST', '/cb', 200, async () => {
      await delay(100);
      return 'ok';
    });
    await subscribe(feed, `${peer.url}/cb`, 'http-post');
    await ping('REST-JSON', feed);
    expect(peer.hits('POST', '/cb')).toHaveLength(1);
    expect((await cloud.cloud.store.allSubscriptions())[0]!.ctUpdates).toBe(1);
  });
});
