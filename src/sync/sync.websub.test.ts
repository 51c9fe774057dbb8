/**
 * Items that arrive in real time are in a phone's next sync (issue 32): a WebSub hub (the strict
 * one on loopback) delivers a feed's new body to the app's receiver, the item lands in the river
 * by the poll's own path, and the phone's next sync, asking for what arrived since its last one
 * (NetNewsWire's `ot`, from the server's Date header), gets it.
 */
import { afterEach, expect, it } from 'vitest';
import { freePort } from '../net/test-server.ts';
import { rssFeed, type TestItem } from '../testing/feed-host.ts';
import { GReaderTestClient } from '../testing/sync-clients.ts';
import { type SyncFixture, startSyncApp } from '../testing/sync-fixture.ts';
import { waitFor } from '../testing/wait.ts';
import { type StrictHub, startStrictHub } from '../testing/websub-hub.ts';

let fx: SyncFixture | null = null;
let hub: StrictHub | null = null;
afterEach(async () => {
  await fx?.close();
  await hub?.close();
  fx = null;
  hub = null;
});

it('an item a WebSub hub delivers is in the next sync', async () => {
  hub = await startStrictHub();
  const port = await freePort();
  fx = await startSyncApp({ realtime: { publicBaseUrl: `http://127.0.0.1:${port}`, receiverPort: port } });
  const { host } = fx;
  const ATOM = 'xmlns:atom="http://www.w3.org/2005/Atom"';
  const feed = (items: TestItem[]) =>
    rssFeed(
      'Pushed',
      items,
      `<atom:link ${ATOM} rel="hub" href="${hub!.url}"/><atom:link ${ATOM} rel="self" href="${host.url}/feed.xml"/>`,
    );
  host.set('/feed.xml', feed([{ title: 'Old news', guid: 'a' }]));
  const made = await fx.app.subscribe({ url: `${host.url}/feed.xml` });
  if (!made.ok) throw new Error(made.error.message);
  const delivery = async () => (await fx!.app.listFeeds())[0]!.delivery;
  await waitFor(async () => (await delivery()).startsWith('real-time via WebSub'), 20_000, 'WebSub live');

  // ot has second precision: the first item arrived in an earlier second than the first sync.
  await new Promise((r) => setTimeout(r, 1100));
  const phone = new GReaderTestClient(fx.greader);
  expect((await phone.login(fx.user, fx.password)).status).toBe(200);
  const first = await phone.raw('GET', '/reader/api/0/stream/items/ids', [
    ['s', 'user/-/state/com.google/reading-list'],
    ['n', '1000'],
  ]);
  const lastSync = Math.floor(Date.parse(String(first.headers.date)) / 1000);
  expect(JSON.parse(first.text).itemRefs).toHaveLength(1);

  await new Promise((r) => setTimeout(r, 1100));
  const fetched = host.hits('/feed.xml');
  await hub.deliver(
    `${host.url}/feed.xml`,
    feed([
      { title: 'Pushed news', guid: 'b' },
      { title: 'Old news', guid: 'a' },
    ]),
  );
  await waitFor(
    async () => (await fx!.app.river({})).groups.some((g) => g.items.some((i) => i.title === 'Pushed news')),
    10_000,
    'the delivered item in the river',
  );
  expect(host.hits('/feed.xml')).toBe(fetched); // it came by delivery, not a fetch

  const since = await phone.allIds('user/-/state/com.google/reading-list', [['ot', String(lastSync)]]);
  const items = await phone.contents(since.ids);
  expect(items.map((i) => i.title)).toEqual(['Pushed news']);
}, 60_000);
