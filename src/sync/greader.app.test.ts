/**
 * The Google Reader API on a running app over loopback (issue 32): a test client replays what
 * NetNewsWire and Reeder do on a sync, and what the desktop and the phone change meets on the
 * other side.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RiverItem } from '../app/api.ts';
import { GReaderTestClient, httpCall } from '../testing/sync-clients.ts';
import { type SyncFixture, seed, startSyncApp } from '../testing/sync-fixture.ts';

let fx: SyncFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

async function loggedIn(f: SyncFixture): Promise<GReaderTestClient> {
  const client = new GReaderTestClient(f.greader, { via: f.via });
  const res = await client.login(f.user, f.password);
  expect(res.status).toBe(200);
  return client;
}

async function riverItems(f: SyncFixture, query: { unreadOnly?: boolean; starredOnly?: boolean } = {}) {
  const out: RiverItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await f.app.river({ ...query, cursor, limit: 200 });
    out.push(...page.groups.flatMap((g) => g.items));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

describe('Google Reader API', () => {
  it('answers 404 while the feature is off, and logs in once it is on', async () => {
    fx = await startSyncApp({ enable: false });
    const login = () =>
      httpCall(`${fx!.greader}/accounts/ClientLogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ Email: fx!.user, Passwd: fx!.password }).toString(),
      });
    expect(fx.greader).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/greader$/);
    expect((await login()).status).toBe(404);
    expect((await httpCall(`${fx.fever}?api`, { method: 'POST' })).status).toBe(404);
    await fx.app.setSyncEnabled(true);
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /^SID=reader\/[0-9a-f]{64}\nLSID=reader\/[0-9a-f]{64}\nAuth=reader\/[0-9a-f]{64}\n$/,
    );
  });

  it('replays a NetNewsWire sync: unread counts agree with the river, labels are folders', async () => {
    fx = await startSyncApp();
    seed(fx.app, fx.host, { feeds: 6, perFeed: 40, folders: 2 });
    const some = (await riverItems(fx)).slice(0, 25);
    await fx.app.markRead(
      some.map((i) => i.id),
      true,
    );
    await fx.app.setStarred(some[0]!.id, true);
    const client = await loggedIn(fx);
    const sync = await client.syncLikeNetNewsWire();

    const unreadInRiver = await riverItems(fx, { unreadOnly: true });
    const feeds = await fx.app.listFeeds();
    expect(sync.unread.length).toBe(unreadInRiver.length);
    expect(sync.unread.length).toBe(feeds.reduce((n, f) => n + f.unread, 0));
    expect(new Set(sync.unread)).toEqual(new Set(unreadInRiver.map((i) => String(i.id))));
    expect(sync.starred).toEqual([String(some[0]!.id)]);
    expect(sync.tags.map((t) => t.id)).toEqual([
      'user/-/state/com.google/starred',
      'user/-/label/Folder 1',
      'user/-/label/Folder 2',
    ]);
    expect(sync.subscriptions).toHaveLength(6);
    expect(sync.subscriptions.find((s) => s.title === 'Feed 1')?.categories.map((c) => c.id)).toEqual([
      'user/-/label/Folder 2',
    ]);
    // Every unread item and the starred one, with their state and feed.
    expect(sync.items).toHaveLength(unreadInRiver.length + 1);
    const starred = sync.items.find((i) => i.categories.includes('user/-/state/com.google/starred'))!;
    expect(starred.id).toBe(`tag:google.com,2005:reader/item/${some[0]!.id.toString(16).padStart(16, '0')}`);
    expect(starred.categories).toContain('user/-/state/com.google/read');
    const one = sync.items.find((i) => i.title === 'Feed 3 item 7')!;
    expect(one.origin.streamId).toBe(`feed/${feeds.find((f) => f.title === 'Feed 3')!.id}`);
    expect(one.categories).toEqual(['user/-/state/com.google/reading-list', 'user/-/label/Folder 2']);
    expect(one.alternate[0]!.href).toBe('https://example.com/f3-i7');
    expect(one.summary.content).toBe('<p>Summary of f3-i7</p>');

    // unread-count says the same as the river, per feed, per label and in all.
    const counts = await client.json<{ unreadcounts: { id: string; count: number }[] }>(
      'GET',
      '/reader/api/0/unread-count',
      [['output', 'json']],
    );
    const count = (id: string) => counts.unreadcounts.find((c) => c.id === id)?.count;
    expect(count('user/-/state/com.google/reading-list')).toBe(unreadInRiver.length);
    for (const f of feeds) expect(count(`feed/${f.id}`)).toBe(f.unread);
    const folders = await fx.app.listFolders();
    for (const folder of folders) expect(count(`user/-/label/${folder.path}`)).toBe(folder.unread);
  });

  it('a Reeder sync reads the same, with decimal ids in batches', async () => {
    fx = await startSyncApp();
    seed(fx.app, fx.host, { feeds: 3, perFeed: 300 });
    const client = await loggedIn(fx);
    const sync = await client.syncLikeReeder();
    expect(sync.unread).toHaveLength(900);
    expect(sync.items).toHaveLength(900);
    expect(new Set(sync.items.map((i) => i.id)).size).toBe(900);
  });
});
