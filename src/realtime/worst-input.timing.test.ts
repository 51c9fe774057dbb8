/**
 * No single request can freeze the reader's receiver (issue 31). Each door gets its worst
 * allowed input, from outside the app's process: the answer must come in under 1 s, and a
 * `GET /` on the same port sent meanwhile in under 100 ms.
 * - rssCloud notify (16 KB bodies): an XML-RPC <double> of 16 KB of digits took 0.5 s to refuse
 *   (a regular expression that tried every split of the digits);
 * - WebSub callback (8 MB bodies, 16 KB of headers): a Link header of 16 KB of spaces took
 *   0.75 s (the same kind of expression), before any signature was checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, calmestOf, startAppProcess, timed, whileBusy } from '../testing/app-process.ts';
import { type FeedHost, startFeedHost } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';
import { type StrictHub, startStrictHub } from '../testing/websub-hub.ts';
import { hubbedFeed } from '../testing/websub-reader.ts';
import { DEFAULT_RECEIVER_MAX_BODY_BYTES, receiverPath } from './receiver.ts';
import { DEFAULT_DELIVERY_MAX_BYTES } from './websub/callback.ts';

/** Under Node's 16 KiB for a request's whole head. */
const HEADER_ROOM = 15 * 1024;

let dir: string;
let app: AppProcess;
let host: FeedHost;
let hub: StrictHub;
let probe: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-worst-input-'));
  host = await startFeedHost();
  hub = await startStrictHub();
  app = await startAppProcess(join(dir, 'app'));
  probe = `http://127.0.0.1:${app.receiverPort}/`;
}, 30_000);

afterAll(async () => {
  await app.stop();
  await hub.close();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectQuick(r: Awaited<ReturnType<typeof whileBusy>>, status: number): void {
  expect(r.heavy.status).toBe(status);
  expect(r.heavy.ms).toBeLessThan(1_000);
  expect(r.probes).toBeGreaterThan(0);
  expect(r.slowestProbe).toBeLessThan(100);
}

describe('the rssCloud receiver', () => {
  let notify: string;
  beforeAll(() => {
    // The receiver's path carries the install's secret: read it where the app keeps it.
    const db = new DatabaseSync(join(dir, 'app', 'tidings.db'), { readOnly: true });
    const row = db.prepare("SELECT value FROM settings WHERE key = 'realtime.receiverToken'").get() as {
      value: string;
    };
    db.close();
    notify = `http://127.0.0.1:${app.receiverPort}${receiverPath(JSON.parse(row.value) as string)}`;
  });

  const rpc = (value: string) =>
    `<?xml version="1.0"?><methodCall><methodName>tidings.notify</methodName><params><param><value>${value}</value></param></params></methodCall>`;
  /** `make(n)` grown to the cap exactly. */
  const fill = (make: (n: number) => string) => make(DEFAULT_RECEIVER_MAX_BODY_BYTES - make(1).length + 1);

  it.each([
    ['an XML-RPC double of 16 KB of digits', fill((n) => rpc(`<double>${'1'.repeat(n - 1)}x</double>`)), 400],
    [
      'an XML-RPC dateTime of 16 KB of digits',
      fill((n) => rpc(`<dateTime.iso8601>${'1'.repeat(n - 1)}x</dateTime.iso8601>`)),
      400,
    ],
    ['16 KB of unclosed tags', '<'.repeat(DEFAULT_RECEIVER_MAX_BODY_BYTES), 400],
    ['a form of 16 KB of escapes', `url=${'%'.repeat(DEFAULT_RECEIVER_MAX_BODY_BYTES - 4)}`, 404],
  ])('%s', async (_name, body, status) => {
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(DEFAULT_RECEIVER_MAX_BODY_BYTES);
    const type = body.startsWith('url=') ? 'application/x-www-form-urlencoded' : 'text/xml';
    const r = await calmestOf(() =>
      whileBusy(() => timed(notify, { body, headers: { 'content-type': type } }), probe),
    );
    expectQuick(r, status);
  });

  it('a verification of 15 KB of query', async () => {
    const r = await calmestOf(() =>
      whileBusy(
        () =>
          timed(`${notify}?url=${'%25'.repeat(HEADER_ROOM / 6)}&challenge=${'a'.repeat(HEADER_ROOM / 2)}`),
        probe,
      ),
    );
    expectQuick(r, 404);
  });
});

describe('the WebSub callback', () => {
  let callback: string;
  beforeAll(async () => {
    host.set('/feed.xml', hubbedFeed(hub, [{ title: 'one', guid: '1' }]));
    await app.call('subscribe', { url: `${host.url}/feed.xml` });
    await waitFor(() => hub.subscriptions().length === 1, 20_000, 'the hub verified the app');
    callback = hub.subscriptions()[0]!.callback;
  }, 30_000);

  it('an 8 MB delivery with 15 KB of Link header', async () => {
    const body = new Uint8Array(DEFAULT_DELIVERY_MAX_BYTES).fill(0x3c); // '<' all the way
    const link = `<a>${' '.repeat(HEADER_ROOM)}x`;
    const r = await calmestOf(() =>
      whileBusy(
        () => timed(callback, { body, headers: { 'content-type': 'application/rss+xml', link } }),
        probe,
      ),
    );
    expectQuick(r, 202);
  });

  it('a verification of 15 KB of query', async () => {
    const url = new URL(callback);
    url.searchParams.set('hub.mode', 'subscribe');
    url.searchParams.set('hub.topic', '%'.repeat(HEADER_ROOM / 6));
    url.searchParams.set('hub.challenge', 'c'.repeat(HEADER_ROOM / 4));
    const r = await calmestOf(() => whileBusy(() => timed(url.href), probe));
    expectQuick(r, 404);
  });
});
