/**
 * The Google Reader API on a running app over loopback (issue 32): a test client replays what
 * NetNewsWire and Reeder do on a sync, and what the desktop and the phone change meets on the
 * other side.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RiverItem } from '../app/api.ts';
import { makeItem } from '../store/test-support.ts';
import { rssFeed } from '../testing/feed-host.ts';
import { GReaderTestClient, httpCall } from '../testing/sync-clients.ts';
import { type SyncFixture, seed, startSyncApp } from '../testing/sync-fixture.ts';
import { waitFor } from '../testing/wait.ts';

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
    expect(one.alternate[0]!.href).toBe('https://example.com/seed-f3-i7');
    expect(one.summary.content).toBe('<p>Summary of seed-f3-i7</p>');

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

  it('marks made on the phone show in the desktop river at once, and the desktop ones in the next sync', async () => {
    fx = await startSyncApp();
    seed(fx.app, fx.host, { feeds: 2, perFeed: 10 });
    const client = await loggedIn(fx);
    const [a, b, c, d] = (await riverItems(fx)).map((i) => i.id);
    const changed: number[] = [];
    fx.app.on('river.changed', (e) => changed.push(...e.changedItems));
    const statuses: number[] = [];
    fx.app.on('feed.status', (f) => statuses.push(f.id));

    // The phone reads a and c (long ids, unpadded hex as NetNewsWire sends them) and stars b (decimal).
    const read = await client.write('/reader/api/0/edit-tag', [
      ['i', `tag:google.com,2005:reader/item/${a!.toString(16)}`],
      ['i', c!.toString(16).padStart(16, '0')],
      ['a', 'user/-/state/com.google/read'],
    ]);
    expect(read.status).toBe(200);
    expect(read.text).toBe('OK');
    expect(
      (
        await client.write('/reader/api/0/edit-tag', [
          ['i', String(b)],
          ['a', 'user/-/state/com.google/starred'],
        ])
      ).text,
    ).toBe('OK');
    const byId = new Map((await fx.app.riverItemsById([a!, b!, c!])).map((i) => [i.id, i]));
    expect(byId.get(a!)?.read).toBe(true);
    expect(byId.get(c!)?.read).toBe(true);
    expect(byId.get(b!)?.starred).toBe(true);
    // The events the desktop's river and feed list follow fired for them.
    expect(new Set(changed)).toEqual(new Set([a, b, c]));
    expect(statuses.length).toBeGreaterThan(0);

    // kept-unread brings a back.
    await client.write('/reader/api/0/edit-tag', [
      ['i', String(a)],
      ['a', 'user/-/state/com.google/kept-unread'],
    ]);
    expect((await fx.app.riverItemsById([a!]))[0]?.read).toBe(false);

    // The desktop reads d and unstars b: the phone's next sync has it.
    await fx.app.markRead([d!], true);
    await fx.app.setStarred(b!, false);
    const sync = await client.syncLikeNetNewsWire();
    expect(sync.unread).not.toContain(String(d));
    expect(sync.unread).toContain(String(a));
    expect(sync.unread).not.toContain(String(c));
    expect(sync.starred).toEqual([]);

    // A contradiction is refused, and nothing changes.
    const both = await client.write('/reader/api/0/edit-tag', [
      ['i', String(d)],
      ['a', 'user/-/state/com.google/read'],
      ['r', 'user/-/state/com.google/read'],
    ]);
    expect(both.status).toBe(400);
  });

  it('pages 10,000 items by continuation without losing or repeating one, while items arrive', async () => {
    fx = await startSyncApp();
    seed(fx.app, fx.host, { feeds: 10, perFeed: 1000 });
    const client = await loggedIn(fx);
    const seen: string[] = [];
    let c: string | null = null;
    let pages = 0;
    do {
      const form: [string, string][] = [
        ['s', 'user/-/state/com.google/reading-list'],
        ['xt', 'user/-/state/com.google/read'],
        ['n', '1000'],
      ];
      if (c) form.push(['c', c]);
      const page: { itemRefs: { id: string }[]; continuation?: string } = await client.json(
        'GET',
        '/reader/api/0/stream/items/ids',
        form,
      );
      seen.push(...page.itemRefs.map((r) => r.id));
      c = page.continuation ?? null;
      pages++;
      // Newer items arrive between two pages (a poll, an rssCloud notification).
      if (pages === 3)
        seed(fx.app, fx.host, { feeds: 1, perFeed: 50, start: Date.now() + 60_000, name: 'later' });
    } while (c);
    expect(pages).toBe(10);
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
    // All their contents in one POST of 10,000 long ids (about 570 KB: past the receiver's own cap).
    const items = await client.contents(
      seen.map((id) => `tag:google.com,2005:reader/item/${Number(id).toString(16).padStart(16, '0')}`),
      10_000,
    );
    expect(items).toHaveLength(10_000);
    // Oldest first pages the same way.
    const oldest = await client.allIds('user/-/state/com.google/reading-list', [['r', 'o']], 700);
    expect(new Set(oldest.ids).size).toBe(10_050);
    expect(oldest.ids.slice(0, 1000).every((id) => seen.includes(id))).toBe(true);
    // The items that arrived meanwhile are in the next sync (ot: since the last one).
    const since = Math.floor((Date.now() + 3_600_000) / 1000);
    expect(
      (await client.allIds('user/-/state/com.google/reading-list', [['ot', String(since)]])).ids,
    ).toHaveLength(0);
    const recent = await client.allIds('user/-/state/com.google/reading-list', [
      ['ot', String(Math.floor(Date.now() / 1000) - 5)],
    ]);
    expect(recent.ids.length).toBeGreaterThanOrEqual(50);
  });

  it('answers 401 to a wrong password or a missing or dead token, rate-limits logins, and a new password ends logins', async () => {
    fx = await startSyncApp({ loginLimits: { perCaller: 4, overall: 100 } });
    const anonymous = new GReaderTestClient(fx.greader);
    const noToken = await anonymous.raw('GET', '/reader/api/0/subscription/list', [['output', 'json']]);
    expect(noToken.status).toBe(401);
    expect(noToken.headers['google-bad-token']).toBe('true');
    const forged = new GReaderTestClient(fx.greader);
    forged.token = `${fx.user}/${'0'.repeat(64)}`;
    expect((await forged.raw('GET', '/reader/api/0/tag/list')).status).toBe(401);

    const client = await loggedIn(fx); // attempt 1
    expect((await anonymous.login(fx.user, 'wrong-password')).status).toBe(401); // 2
    expect((await anonymous.login('someone-else', fx.password)).status).toBe(401); // 3
    expect((await anonymous.login(fx.user, 'wrong-again')).status).toBe(401); // 4
    const limited = await anonymous.login(fx.user, fx.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The phone already logged in keeps syncing meanwhile.
    expect((await client.raw('GET', '/reader/api/0/tag/list')).status).toBe(200);
    // A write with a T that is no token is refused even with a good header.
    const badT = await client.raw('POST', '/reader/api/0/edit-tag', [
      ['T', 'not-a-token'],
      ['i', '1'],
      ['a', 'user/-/state/com.google/read'],
    ]);
    expect(badT.status).toBe(401);

    // A new password ends every login made with the old one.
    const info = await fx.app.syncInfo();
    expect(info.logins).toBe(1);
    await fx.app.newSyncPassword(fx.user);
    expect((await client.raw('GET', '/reader/api/0/tag/list')).status).toBe(401);
    expect((await fx.app.syncInfo()).logins).toBe(0);
  });

  it('a revoked password logs nobody in and ends the logins made with it', async () => {
    fx = await startSyncApp();
    const client = await loggedIn(fx);
    await fx.app.revokeSyncPassword();
    expect((await client.raw('GET', '/reader/api/0/tag/list')).status).toBe(401);
    expect((await new GReaderTestClient(fx.greader).login(fx.user, fx.password)).status).toBe(401);
    expect((await fx.app.syncInfo()).hasPassword).toBe(false);
  });

  it('leaves out what mute filters hide, as the river does', async () => {
    fx = await startSyncApp();
    seed(fx.app, fx.host, { feeds: 1, perFeed: 3 });
    const added = await fx.app.addMuteFilter({ kind: 'keyword', pattern: 'crypto', action: 'hide' });
    expect(added.ok).toBe(true);
    const feedId = (await fx.app.listFeeds())[0]!.id;
    fx.app.context.store.upsertItems(
      feedId,
      [makeItem('m1', { title: 'All about crypto' }), makeItem('m2', { title: 'Gardening' })],
      Date.now(),
    );
    const client = await loggedIn(fx);
    const sync = await client.syncLikeNetNewsWire();
    const titles = sync.items.map((i) => i.title);
    expect(titles).toContain('Gardening');
    expect(titles).not.toContain('All about crypto');
    expect(sync.unread.length).toBe((await riverItems(fx, { unreadOnly: true })).length);
    const all = await client.allIds('user/-/state/com.google/reading-list');
    expect(all.ids.length).toBe((await riverItems(fx)).length);
  });

  it('subscribes (quickadd through autodiscovery, or subscribe into a label), renames, moves and unsubscribes', async () => {
    fx = await startSyncApp();
    const { host } = fx;
    host.set('/site/', {
      type: 'text/html',
      body: `<html><head><link rel="alternate" type="application/rss+xml" href="${host.url}/site/feed.xml"></head></html>`,
    });
    host.set('/site/feed.xml', rssFeed('A site', [{ title: 'Hello', guid: 'h1' }]));
    host.set('/other.xml', rssFeed('Other', [{ title: 'Other one', guid: 'o1' }]));
    const client = await loggedIn(fx);

    const quick = await client.write('/reader/api/0/subscription/quickadd', [
      ['quickadd', `${host.url}/site/`],
    ]);
    expect(quick.status).toBe(200);
    const added = JSON.parse(quick.text) as { numResults: number; streamId: string; streamName: string };
    expect(added.numResults).toBe(1);
    const siteId = Number(added.streamId.replace('feed/', ''));
    expect((await fx.app.listFeeds()).find((f) => f.id === siteId)?.url).toBe(`${host.url}/site/feed.xml`);
    // The first fetch follows, as for a feed added on the desktop.
    await waitFor(
      async () => (await fx!.app.listFeeds()).find((f) => f.id === siteId)?.title === 'A site',
      10_000,
      'the first fetch',
    );
    const nothing = await client.write('/reader/api/0/subscription/quickadd', [
      ['quickadd', `${host.url}/nothing-here`],
    ]);
    expect(JSON.parse(nothing.text).numResults).toBe(0);

    const sub = await client.write('/reader/api/0/subscription/edit', [
      ['ac', 'subscribe'],
      ['s', `feed/${host.url}/other.xml`],
      ['a', 'user/-/label/News/Tech'],
      ['t', 'My other feed'],
    ]);
    expect(sub.text).toBe('OK');
    let feeds = await fx.app.listFeeds();
    const other = feeds.find((f) => f.url === `${host.url}/other.xml`)!;
    expect(other.title).toBe('My other feed');
    expect(other.folderPath).toBe('News/Tech');

    // Rename, move to another label, take it out of its label.
    await client.write('/reader/api/0/subscription/edit', [
      ['ac', 'edit'],
      ['s', `feed/${siteId}`],
      ['t', 'Renamed'],
    ]);
    await client.write('/reader/api/0/subscription/edit', [
      ['ac', 'edit'],
      ['s', `feed/${siteId}`],
      ['a', 'user/-/label/Later'],
    ]);
    feeds = await fx.app.listFeeds();
    expect(feeds.find((f) => f.id === siteId)).toMatchObject({ title: 'Renamed', folderPath: 'Later' });
    await client.write('/reader/api/0/subscription/edit', [
      ['ac', 'edit'],
      ['s', `feed/${siteId}`],
      ['r', 'user/-/label/Later'],
    ]);
    expect((await fx.app.listFeeds()).find((f) => f.id === siteId)?.folderPath).toBeNull();

    // Labels: rename (and move under another), delete (feeds move up, nothing is unsubscribed).
    expect(
      (
        await client.write('/reader/api/0/rename-tag', [
          ['s', 'user/-/label/News/Tech'],
          ['dest', 'user/-/label/Science'],
        ])
      ).text,
    ).toBe('OK');
    expect((await fx.app.listFeeds()).find((f) => f.id === other.id)?.folderPath).toBe('Science');
    expect((await client.write('/reader/api/0/disable-tag', [['s', 'user/-/label/Science']])).text).toBe(
      'OK',
    );
    expect((await fx.app.listFeeds()).find((f) => f.id === other.id)?.folderPath).toBeNull();
    expect((await fx.app.listFolders()).map((f) => f.path)).toEqual(['Later', 'News']);

    // The subscriptions as OPML.
    const opml = await client.raw('GET', '/reader/api/0/subscription/export');
    expect(opml.status).toBe(200);
    expect(opml.text).toContain(`xmlUrl="${host.url}/other.xml"`);

    expect(
      (
        await client.write('/reader/api/0/subscription/edit', [
          ['ac', 'unsubscribe'],
          ['s', `feed/${other.id}`],
        ])
      ).text,
    ).toBe('OK');
    expect((await fx.app.listFeeds()).some((f) => f.id === other.id)).toBe(false);
    // Writes are POSTs.
    expect((await client.raw('GET', '/reader/api/0/edit-tag')).status).toBe(405);
  });

  it('mark-all-as-read marks what arrived up to ts, in a feed, a label or everything', async () => {
    fx = await startSyncApp();
    const start = Date.now() - 100_000;
    const [f0, f1] = seed(fx.app, fx.host, { feeds: 3, perFeed: 5, folders: 2, start });
    const client = await loggedIn(fx);
    // Feed 0's items arrived at start; feed 2's at start + 2 s. ts between them, in microseconds.
    const ts = `${start + 1000}000`;
    await client.write('/reader/api/0/mark-all-as-read', [
      ['s', 'user/-/label/Folder 1'],
      ['ts', ts],
    ]);
    const feeds = async () => new Map((await fx!.app.listFeeds()).map((f) => [f.id, f.unread]));
    let unread = await feeds();
    expect(unread.get(f0!)).toBe(0);
    expect([...unread.values()].reduce((a, b) => a + b, 0)).toBe(10);
    await client.write('/reader/api/0/mark-all-as-read', [['s', `feed/${f1}`]]);
    unread = await feeds();
    expect(unread.get(f1!)).toBe(0);
    await client.write('/reader/api/0/mark-all-as-read', [
      ['s', 'user/-/state/com.google/reading-list'],
      ['ts', String(Math.floor(start / 1000))],
    ]);
    expect([...(await feeds()).values()].reduce((a, b) => a + b, 0)).toBe(5);
    await client.write('/reader/api/0/mark-all-as-read', [['s', 'user/-/state/com.google/reading-list']]);
    expect([...(await feeds()).values()].reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('reads stream contents of a feed, a label, starred and read, and items in every id form', async () => {
    fx = await startSyncApp();
    const [f0] = seed(fx.app, fx.host, { feeds: 2, perFeed: 30, folders: 2 });
    const client = await loggedIn(fx);
    type Page = { items: { id: string; title: string }[]; continuation?: string };
    const feedPage = await client.json<Page>('GET', `/reader/api/0/stream/contents/feed/${f0}`, [
      ['n', '20'],
    ]);
    expect(feedPage.items).toHaveLength(20);
    expect(feedPage.items[0]!.title).toBe('Feed 0 item 0');
    const rest = await client.json<Page>('GET', `/reader/api/0/stream/contents/feed/${f0}`, [
      ['n', '20'],
      ['c', feedPage.continuation!],
    ]);
    expect(rest.items).toHaveLength(10);
    expect(rest.continuation).toBeUndefined();
    const label = await client.json<Page>('GET', '/reader/api/0/stream/contents/user/-/label/Folder%202', [
      ['n', '100'],
    ]);
    expect(label.items.every((i) => i.title.startsWith('Feed 1 '))).toBe(true);
    expect(label.items).toHaveLength(30);
    const first = Number(BigInt(`0x${feedPage.items[0]!.id.split('/').pop()}`));
    await fx.app.setStarred(first, true);
    await fx.app.markRead([first], true);
    const starred = await client.json<Page>(
      'GET',
      '/reader/api/0/stream/contents/user/-/state/com.google/starred',
    );
    expect(starred.items.map((i) => i.title)).toEqual(['Feed 0 item 0']);
    const read = await client.json<Page>('GET', '/reader/api/0/stream/contents/user/-/state/com.google/read');
    expect(read.items.map((i) => i.title)).toEqual(['Feed 0 item 0']);
    const forms = [
      `tag:google.com,2005:reader/item/${first.toString(16).padStart(16, '0')}`,
      `tag:google.com,2005:reader/item/${first.toString(16)}`,
      first.toString(16).padStart(16, '0'),
      String(first),
    ];
    for (const form of forms) {
      const got = await client.json<Page>('GET', '/reader/api/0/stream/items/contents', [['i', form]]);
      expect(got.items.map((i) => i.title)).toEqual(['Feed 0 item 0']);
    }
    expect(
      (await client.raw('GET', '/reader/api/0/stream/items/contents', [['i', 'not-an-id']])).status,
    ).toBe(400);
    expect((await client.raw('GET', '/reader/api/0/stream/items/ids', [['s', 'user/-/bogus']])).status).toBe(
      400,
    );
  });
});
