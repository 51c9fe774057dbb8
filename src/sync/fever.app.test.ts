/**
 * The Fever API on a running app over loopback (issue 32): a test client replays Reeder's Fever
 * sync, and marks meet the desktop's river.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FeverTestClient, feverKey } from '../testing/sync-clients.ts';
import { type SyncFixture, seed, startSyncApp } from '../testing/sync-fixture.ts';
import { waitFor } from '../testing/wait.ts';

let fx: SyncFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const client = (f: SyncFixture, key = f.feverKey) => new FeverTestClient(f.fever, key, { via: f.via });
const unreadTotal = async (f: SyncFixture) => (await f.app.listFeeds()).reduce((n, x) => n + x.unread, 0);

describe('Fever API', () => {
  it('answers auth 0 to a wrong or missing key, and 404 while off', async () => {
    fx = await startSyncApp();
    const wrong = await client(fx, feverKey(fx.user, 'not-the-password')).raw(['groups']);
    expect(wrong.status).toBe(200);
    expect(JSON.parse(wrong.text)).toEqual({ api_version: 3, auth: 0 });
    const missing = await client(fx, '').raw(['items']);
    expect(JSON.parse(missing.text)).toEqual({ api_version: 3, auth: 0 });
    const right = await client(fx).call([]);
    expect(right.auth).toBe(1);
    expect(typeof right.last_refreshed_on_time).toBe('number');
    await fx.app.setSyncEnabled(false);
    expect((await client(fx).raw([])).status).toBe(404);
  });

  it('replays a Reeder sync: groups, feeds, unread and saved ids, every item by since_id', async () => {
    fx = await startSyncApp();
    const feedIds = seed(fx.app, fx.host, { feeds: 4, perFeed: 60, folders: 2 });
    const river = (await fx.app.river({ limit: 10 })).groups.flatMap((g) => g.items);
    await fx.app.markRead([river[0]!.id, river[1]!.id], true);
    await fx.app.setStarred(river[2]!.id, true);
    const sync = await client(fx).syncLikeReeder();
    const folders = await fx.app.listFolders();
    expect(sync.groups.groups).toEqual(folders.map((f) => ({ id: f.id, title: f.path })));
    expect(sync.groups.feeds_groups).toEqual([
      { group_id: folders[0]!.id, feed_ids: `${feedIds[0]},${feedIds[2]}` },
      { group_id: folders[1]!.id, feed_ids: `${feedIds[1]},${feedIds[3]}` },
    ]);
    const feeds = sync.feeds.feeds as { id: number; title: string; is_spark: number }[];
    expect(feeds.map((f) => f.title).sort()).toEqual(['Feed 0', 'Feed 1', 'Feed 2', 'Feed 3']);
    expect(sync.items).toHaveLength(240);
    expect(new Set(sync.items.map((i) => i.id)).size).toBe(240);
    expect(sync.unread).toHaveLength(await unreadTotal(fx));
    expect(sync.unread).not.toContain(river[0]!.id);
    expect(sync.saved).toEqual([river[2]!.id]);
    const item = sync.items.find((i) => i.id === river[2]!.id)!;
    expect(item).toMatchObject({ is_saved: 1, is_read: 0 });
  });

  it('pages by max_id and with_ids, 50 at a time', async () => {
    fx = await startSyncApp();
    seed(fx.app, fx.host, { feeds: 1, perFeed: 120 });
    const c = client(fx);
    const newest = (await c.call(['items'], [['max_id', '0']])).items as { id: number }[];
    expect(newest).toHaveLength(50);
    expect(newest[0]!.id).toBeGreaterThan(newest[49]!.id);
    const older = (await c.call(['items'], [['max_id', String(newest[49]!.id)]])).items as { id: number }[];
    expect(older[0]!.id).toBe(newest[49]!.id - 1);
    const some = (await c.call(['items'], [['with_ids', `${older[3]!.id},${older[1]!.id},nonsense`]]))
      .items as {
      id: number;
    }[];
    expect(some.map((i) => i.id)).toEqual([older[3]!.id, older[1]!.id].sort((a, b) => a - b));
    const answer = await c.call(['items', 'links']);
    expect(answer.total_items).toBe(120);
    expect(answer.links).toEqual([]);
  });

  it('marks items, feeds and groups through the app: the desktop river hears of it', async () => {
    fx = await startSyncApp();
    const start = Date.now() - 100_000;
    const [f0, f1] = seed(fx.app, fx.host, { feeds: 3, perFeed: 4, folders: 2, start });
    const c = client(fx);
    const changed: number[] = [];
    fx.app.on('river.changed', (e) => changed.push(...e.changedItems));
    const ids = String((await c.call(['unread_item_ids'])).unread_item_ids)
      .split(',')
      .map(Number);
    expect(ids).toHaveLength(12);

    const read = await c.call(
      [],
      [
        ['mark', 'item'],
        ['as', 'read'],
        ['id', String(ids[0])],
      ],
    );
    expect(String(read.unread_item_ids).split(',')).toHaveLength(11);
    expect((await fx.app.riverItemsById([ids[0]!]))[0]?.read).toBe(true);
    expect(changed).toEqual([ids[0]]);
    await c.call(
      [],
      [
        ['mark', 'item'],
        ['as', 'saved'],
        ['id', String(ids[1])],
      ],
    );
    // Saved twice stays saved (Fever's "as" sets, it does not toggle).
    const saved = await c.call(
      [],
      [
        ['mark', 'item'],
        ['as', 'saved'],
        ['id', String(ids[1])],
      ],
    );
    expect(saved.saved_item_ids).toBe(String(ids[1]));
    expect((await fx.app.riverItemsById([ids[1]!]))[0]?.starred).toBe(true);
    await c.call(
      [],
      [
        ['mark', 'item'],
        ['as', 'unread'],
        ['id', String(ids[0])],
      ],
    );
    expect(await unreadTotal(fx)).toBe(12);

    // A feed, up to `before` (seconds): items that arrived later stay unread.
    await c.call(
      [],
      [
        ['mark', 'feed'],
        ['as', 'read'],
        ['id', String(f1)],
        ['before', String(Math.floor(start / 1000))],
      ],
    );
    expect(await unreadTotal(fx)).toBe(12);
    await c.call(
      [],
      [
        ['mark', 'feed'],
        ['as', 'read'],
        ['id', String(f1)],
        ['before', String(Math.floor(Date.now() / 1000))],
      ],
    );
    expect((await fx.app.listFeeds()).find((f) => f.id === f1)?.unread).toBe(0);
    // A group (folder), then everything (group 0).
    const folder1 = (await fx.app.listFolders()).find((f) => f.path === 'Folder 1')!;
    await c.call(
      [],
      [
        ['mark', 'group'],
        ['as', 'read'],
        ['id', String(folder1.id)],
        ['before', String(Math.floor(Date.now() / 1000))],
      ],
    );
    const left = await fx.app.listFeeds();
    expect(left.find((f) => f.id === f0)?.unread).toBe(0);
    expect(left.reduce((n, f) => n + f.unread, 0)).toBe(0);
    seed(fx.app, fx.host, { feeds: 1, perFeed: 3, name: 'more' });
    await c.call(
      [],
      [
        ['mark', 'group'],
        ['as', 'read'],
        ['id', '0'],
      ],
    );
    expect(await unreadTotal(fx)).toBe(0);
  });

  it('sends feed icons inline', async () => {
    fx = await startSyncApp();
    const { host } = fx;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    host.set('/favicon.ico', { body: png, type: 'image/png' });
    host.set(
      '/feed.xml',
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Iconic</title><link>${host.url}/</link><description>d</description><item><title>One</title><guid>1</guid></item></channel></rss>`,
    );
    const made = await fx.app.subscribe({ url: `${host.url}/feed.xml` });
    expect(made.ok).toBe(true);
    await waitFor(async () => (await fx!.app.listFeeds())[0]?.favicon !== null, 10_000, 'the feed read');
    const c = client(fx);
    const feeds = (await c.call(['feeds'])).feeds as { id: number; favicon_id: number }[];
    expect(feeds[0]!.favicon_id).toBe(feeds[0]!.id);
    const icons = (await c.call(['favicons'])).favicons as { id: number; data: string }[];
    expect(icons).toEqual([{ id: feeds[0]!.id, data: `image/png;base64,${png.toString('base64')}` }]);
  });

  it('rate-limits key checks, but a key already checked keeps working', async () => {
    fx = await startSyncApp({ loginLimits: { perCaller: 3, overall: 100 } });
    expect((await client(fx).call([])).auth).toBe(1); // one check
    const wrong = client(fx, feverKey(fx.user, 'guess'));
    expect(JSON.parse((await wrong.raw([])).text).auth).toBe(0);
    expect(JSON.parse((await wrong.raw([])).text).auth).toBe(0);
    expect((await wrong.raw([])).status).toBe(429);
    expect((await client(fx).call([])).auth).toBe(1);
  });

  it('refuses the old key once a new password is made', async () => {
    fx = await startSyncApp();
    expect((await client(fx).call([])).auth).toBe(1);
    const made = await fx.app.newSyncPassword(fx.user);
    expect(made.ok).toBe(true);
    expect((await client(fx).call([])).auth).toBe(0);
    if (made.ok) expect((await client(fx, feverKey(fx.user, made.value.password)).call([])).auth).toBe(1);
  });
});
