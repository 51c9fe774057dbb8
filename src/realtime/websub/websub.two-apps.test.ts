/**
 * Two Tidings on loopback and a WebSub hub between them: the writer's feeds name the hub and
 * tell it of each save (hub.mode=publish, shown in My posts); the reader subscribed through the
 * hub gets each post by content delivery, without fetching the writer's feed again (counted on
 * the reader's own HTTP client, the only way it reaches the writer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { FeedView, PostView } from '../../app/api.ts';
import { createTidings, type Tidings } from '../../app/tidings.ts';
import { parseFeed } from '../../feed/parse.ts';
import { createHttpClient } from '../../net/http-client.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { freePort } from '../../net/test-server.ts';
import { createLoopbackPublisher } from '../../testing/app-fixture.ts';
import { waitFor } from '../../testing/wait.ts';
import { type StrictHub, startStrictHub } from '../../testing/websub-hub.ts';

const dirs: string[] = [];
const apps: Tidings[] = [];
let hub: StrictHub | null = null;
afterEach(async () => {
  for (const a of apps.splice(0)) await a.stop();
  await hub?.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tidings-websub-two-'));
  dirs.push(d);
  return d;
};

/** The reader's one HTTP client, counting its feed fetches by URL. */
function countingClient(): { http: HttpClient; fetches: Map<string, number> } {
  const inner = createHttpClient({ hostPolicy: { allowLoopback: true } });
  const fetches = new Map<string, number>();
  return {
    fetches,
    http: {
      fetchFeed(req) {
        fetches.set(req.url, (fetches.get(req.url) ?? 0) + 1);
        return inner.fetchFeed(req);
      },
      request(req) {
        // Subscribing reads the feed this way once (its first read is that document).
        if (req.method === 'GET') fetches.set(req.url, (fetches.get(req.url) ?? 0) + 1);
        return inner.request(req);
      },
      close: () => inner.close(),
    },
  };
}

/** A writer hosting its feed, its own cloud (and hub) serving on loopback. */
async function startWriter(): Promise<{ writer: Tidings; base: string }> {
  const { app: writer, base } = await createLoopbackPublisher(tmp(), {
    publishRetry: { baseMs: 50, capMs: 200 },
  });
  writer.start();
  apps.push(writer);
  await waitFor(async () => (await writer.realtimeInfo()).cloud !== null);
  return { writer, base };
}

/** A reader reachable at its loopback receiver, its feed fetches counted. */
async function startReader(): Promise<{ reader: Tidings; fetches: Map<string, number> }> {
  const readerPort = await freePort();
  const { http, fetches } = countingClient();
  const reader = createTidings({
    dataDir: tmp(),
    http,
    realtime: {
      tunnelHost: false,
      publicBaseUrl: `http://127.0.0.1:${readerPort}`,
      receiverPort: readerPort,
    },
  });
  reader.start();
  apps.push(reader);
  return { reader, fetches };
}

/** Every format the writer's site at `base` serves names `hubUrl` as its hub. */
async function expectFormatsName(base: string, hubUrl: string): Promise<void> {
  for (const path of ['feed.xml', 'feed.atom', 'feed.json']) {
    const doc = parseFeed(await (await fetch(`${base}/site/${path}`)).text());
    if (doc.kind !== 'feed') throw new Error(`${path} does not parse`);
    expect(doc.feed.hubs).toEqual([hubUrl]);
  }
}

/** The reader subscribes to `feedUrl` and waits until it is live through a WebSub hub; returns how to read its row. */
async function subscribeLive(
  reader: Tidings,
  feedUrl: string,
  what: string,
): Promise<() => Promise<FeedView>> {
  const sub = await reader.subscribe({ url: feedUrl });
  if (!sub.ok) throw new Error(sub.error.message);
  const row = async () => (await reader.listFeeds()).find((f) => f.id === sub.value.id)!;
  await waitFor(
    async () => (await row()).delivery.startsWith('real-time via WebSub hub 127.0.0.1'),
    15_000,
    what,
  );
  return row;
}

/** The writer posts `text`; waits until it is in the reader's river. */
async function postAndSee(writer: Tidings, reader: Tidings, text: string): Promise<void> {
  const p = await writer.post({ text });
  if (!p.ok) throw new Error(p.error.message);
  const texts = async () =>
    (await reader.river({})).groups.flatMap((g) => g.items.map((i) => i.summary ?? ''));
  await waitFor(async () => (await texts()).includes(text), 15_000, `"${text}" in the reader's river`);
}

/** The reader's activity log shows at least `n` WebSub deliveries taken. */
async function expectDeliveries(reader: Tidings, n: number): Promise<void> {
  const log = await reader.activity(50);
  expect(log.filter((e) => e.procedure === 'websub deliver' && e.ok).length).toBeGreaterThanOrEqual(n);
}

it('a reader subscribed through the hub gets each post by content delivery, with no fetch of the feed', async () => {
  hub = await startStrictHub();
  const { writer, base } = await startWriter();
  const set = await writer.updatePublishSettings({ hubs: [hub.url] });
  expect(set.ok).toBe(true);

  const { reader, fetches } = await startReader();

  const published = async (id: number): Promise<PostView> => {
    let v: PostView | undefined;
    await waitFor(
      async () => {
        v = (await writer.listPosts()).find((p) => p.id === id);
        return v?.state === 'published' && v.pings.every((p) => p.ok === true);
      },
      15_000,
      'the post published and pinged',
    );
    return v!;
  };

  const first = await writer.post({ text: 'First, fetched when subscribing' });
  if (!first.ok) throw new Error(first.error.message);
  const v1 = await published(first.value.id);
  const feedUrl = `${base}/site/feed.xml`;
  // The hub heard of the save; its answer is shown with the post.
  expect(v1.pings).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ kind: 'hub', endpoint: hub.url, url: feedUrl, ok: true }),
    ]),
  );
  expect(v1.pings.find((p) => p.kind === 'hub')?.message).toBe('The hub answered HTTP 202.');
  expect((await writer.publishInfo()).hubs).toEqual([hub.url]);
  // Every format names the hub.
  await expectFormatsName(base, hub.url);

  const row = await subscribeLive(reader, feedUrl, 'WebSub live');
  expect((await row()).delivery).toMatch(/; chosen over its rssCloud: the hub sends the new feed itself$/);
  await hub.idle();
  const fetchedBefore = fetches.get(feedUrl) ?? 0;
  expect(fetchedBefore).toBeGreaterThan(0);

  for (const text of ['Second, delivered by the hub', 'Third, delivered by the hub']) {
    const started = Date.now();
    await postAndSee(writer, reader, text);
    expect(Date.now() - started).toBeLessThan(15_000);
  }
  expect(fetches.get(feedUrl) ?? 0).toBe(fetchedBefore); // no fetch of the feed: the hub's bodies sufficed
  await hub.idle();
  expect(hub.deliveries.filter((d) => d.status === 202).length).toBeGreaterThanOrEqual(2);
  await expectDeliveries(reader, 2);
});

it("with no hub configured, the writer's own cloud is its hub: the reader gets each post by content delivery", async () => {
  // Tidings' own hub (src/cloud at POST /websub), not a double: the reader subscribes through it,
  // the cloud verifies the reader's callback, and each save reaches the reader as a signed body.
  const { writer, base } = await startWriter();
  const ownHub = `${base}/cloud/websub`;

  const { reader, fetches } = await startReader();

  const first = await writer.post({ text: 'Own hub: fetched when subscribing' });
  if (!first.ok) throw new Error(first.error.message);
  const feedUrl = `${base}/site/feed.xml`;
  await waitFor(
    async () => (await writer.listPosts()).find((p) => p.id === first.value.id)?.state === 'published',
    15_000,
    'the first post published',
  );
  await expectFormatsName(base, ownHub);

  await subscribeLive(reader, feedUrl, 'WebSub live through the own hub');
  const fetchedBefore = fetches.get(feedUrl) ?? 0;
  for (const text of ['Own hub: second, delivered', 'Own hub: third, delivered'])
    await postAndSee(writer, reader, text);
  expect(fetches.get(feedUrl) ?? 0).toBe(fetchedBefore);
  await expectDeliveries(reader, 2);
});
