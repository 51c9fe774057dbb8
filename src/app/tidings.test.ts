/**
 * The whole reader path with real parts: a feed host on loopback, the real HTTP client, parser,
 * scheduler and SQLite store, driven through the one API a UI uses.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import { type FeedHost, rssFeed } from '../testing/feed-host.ts';
import type { Notice, TidingsEvents } from './api.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;
let dataDir: string;
let notices: Notice[];
let riverEvents: TidingsEvents['river.changed'][];

startAppEachTest('tidings-app-', (fx) => ({ host, app, dataDir, notices, riverEvents } = fx));

const settle = () => app.context.scheduler.idle();
const d = (iso: string) => new Date(iso);

async function subscribed(path: string) {
  const res = await app.subscribe({ url: `${host.url}${path}` });
  if (!res.ok) throw new Error(res.error.message);
  await settle();
  return res.value;
}

describe('reading feeds through the API', () => {
  it('subscribes, shows a river newest first, and asks politely next time', async () => {
    host.set('/a.xml', {
      etag: '"v1"',
      body: rssFeed('Feed A', [
        { title: 'older', guid: 'a1', date: d('2026-11-20T08:00:00Z') },
        { title: 'newer', guid: 'a2', date: d('2026-11-20T09:00:00Z') },
      ]),
    });
    const feed = await subscribed('/a.xml');
    expect(feed.url).toBe(`${host.url}/a.xml`);

    // A new subscription's backlog goes by its own dates (issue 17): one group per date.
    const page = await app.river({});
    expect(page.groups.map((g) => g.feedTitle)).toEqual(['Feed A', 'Feed A']);
    expect(page.groups.flatMap((g) => g.items.map((i) => i.title))).toEqual(['newer', 'older']);
    expect(riverEvents).toEqual([{ feedId: feed.id, newItems: 2, changedItems: [] }]);

    const [row] = await app.listFeeds();
    expect(row).toMatchObject({ title: 'Feed A', status: 'ok', unread: 2, error: null });
    expect(row!.nextDueAt).not.toBeNull();

    await app.refresh(feed.id);
    await settle();
    expect(host.hits('/a.xml')).toBeGreaterThanOrEqual(2);
    expect(host.lastHeaders('/a.xml')?.['if-none-match']).toBe('"v1"');
    expect(riverEvents).toHaveLength(1);
  });

  it('puts a later fetch of new items at the top of the river, as their own group', async () => {
    host.set('/a.xml', rssFeed('Feed A', [{ title: 'one', guid: '1' }]));
    host.set('/b.xml', rssFeed('Feed B', [{ title: 'bee', guid: 'b' }]));
    const a = await subscribed('/a.xml');
    await subscribed('/b.xml');
    host.set(
      '/a.xml',
      rssFeed('Feed A', [
        { title: 'two', guid: '2' },
        { title: 'one', guid: '1' },
      ]),
    );
    await app.refresh(a.id);
    await settle();
    const { groups } = await app.river({});
    expect(groups.map((g) => [g.feedTitle, g.items.map((i) => i.title)])).toEqual([
      ['Feed A', ['two']],
      ['Feed B', ['bee']],
      ['Feed A', ['one']],
    ]);
  });

  it('names a changed item in river.changed and re-reads it by id, keeping read state', async () => {
    host.set('/a.xml', rssFeed('Feed A', [{ title: 'first words', guid: 'p1' }]));
    const a = await subscribed('/a.xml');
    const [item] = (await app.river({})).groups[0]!.items;
    await app.markRead([item!.id], true);
    // The writer edits the post: same guid, new text.
    host.set('/a.xml', rssFeed('Feed A', [{ title: 'edited words', guid: 'p1' }]));
    await app.refresh(a.id);
    await settle();
    expect(riverEvents.at(-1)).toEqual({ feedId: a.id, newItems: 0, changedItems: [item!.id] });
    const [again] = await app.riverItemsById([item!.id, 987654]);
    expect(again).toMatchObject({ id: item!.id, title: 'edited words', read: true });
    expect(await app.riverItemsById([987654])).toEqual([]);
    // Fetched again unchanged: nothing to say.
    const before = riverEvents.length;
    await app.refresh(a.id);
    await settle();
    expect(riverEvents).toHaveLength(before);
  });

  it('follows a 301, stores the new address and tells the user', async () => {
    host.set('/old.xml', rssFeed('Moving Feed', [{ title: 'hi', guid: 'm1' }]));
    const feed = await subscribed('/old.xml');
    host.set(
      '/new.xml',
      rssFeed('Moving Feed', [
        { title: 'hi', guid: 'm1' },
        { title: 'there', guid: 'm2' },
      ]),
    );
    host.set('/old.xml', { status: 301, headers: { location: '/new.xml' } });
    await app.refresh(feed.id);
    await settle();
    const [row] = await app.listFeeds();
    expect(row!.url).toBe(`${host.url}/new.xml`);
    expect(row!.id).toBe(feed.id);
    expect(notices.some((n) => /moved permanently/.test(n.message))).toBe(true);
    // The same items under the new address are not new again.
    expect((await app.river({})).groups.flatMap((g) => g.items.map((i) => i.title)).sort()).toEqual([
      'hi',
      'there',
    ]);
    const oldHits = host.hits('/old.xml');
    await app.refresh(feed.id);
    await settle();
    expect(host.hits('/old.xml')).toBe(oldHits);
    expect(host.hits('/new.xml')).toBe(2);
  });

  it('stops polling a feed that answers 410 Gone, and says why', async () => {
    host.set('/gone.xml', rssFeed('Soon Gone', [{ title: 'last', guid: 'g1' }]));
    const feed = await subscribed('/gone.xml');
    host.set('/gone.xml', { status: 410, body: 'gone' });
    await app.refresh(feed.id);
    await settle();
    const [row] = await app.listFeeds();
    expect(row!.status).toBe('gone');
    expect(row!.error).toMatch(/410/);
    expect(row!.nextDueAt).toBeNull();
    expect(notices.some((n) => n.level === 'warning' && n.feedId === feed.id)).toBe(true);
    expect(app.context.scheduler.stats().queued).toBe(0);
  });

  it('treats an XML redirect as a 301, and an empty one as gone', async () => {
    host.set('/moved.xml', rssFeed('Target', [{ title: 't', guid: 't1' }]));
    host.set('/xr.xml', `<redirect><newLocation>${host.url}/moved.xml</newLocation></redirect>`);
    await subscribed('/xr.xml');
    await settle();
    expect((await app.listFeeds())[0]!.url).toBe(`${host.url}/moved.xml`);
    expect((await app.river({})).groups[0]!.items[0]!.title).toBe('t');

    host.set('/dead.xml', rssFeed('Dead', [{ title: 'd', guid: 'd1' }]));
    const dead = await subscribed('/dead.xml');
    host.set('/dead.xml', '<redirect><newLocation></newLocation></redirect>');
    await app.refresh(dead.id);
    await settle();
    expect((await app.listFeeds()).find((f) => f.id === dead.id)!.status).toBe('gone');
  });

  it('shows a clear error for malformed XML and leaves the rest of the river unharmed', async () => {
    host.set('/good.xml', rssFeed('Good Feed', [{ title: 'fine', guid: 'ok1' }]));
    const good = await subscribed('/good.xml');
    host.set('/bad.xml', rssFeed('Bad Feed', [{ title: 'was fine', guid: 'b1' }]));
    const bad = await subscribed('/bad.xml');
    host.set(
      '/bad.xml',
      // Not `<title>x</item>`: an element left open inside an item is repaired now (issue 19).
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Broken</title><item><title>x</title></itme></channel>',
    );
    await app.refresh(bad.id);
    await settle();
    const feeds = await app.listFeeds();
    const badRow = feeds.find((f) => f.id === bad.id)!;
    expect(badRow.status).toBe('error');
    expect(badRow.error).toBeTruthy();
    expect(feeds.find((f) => f.id === good.id)!.status).toBe('ok');
    const titles = (await app.river({})).groups.flatMap((g) => g.items.map((i) => i.title));
    expect(titles.sort()).toEqual(['fine', 'was fine']);
  });

  it('reads a windows-1252 feed served with that charset', async () => {
    const xml = rssFeed('Quotes', [
      { title: 'It\u2019s \u201cquoted\u201d \u2013 caf\u00e9', guid: 'q1' },
    ]).replace('encoding="UTF-8"', 'encoding="windows-1252"');
    const bytes = Uint8Array.from(
      [...xml].map(
        (ch) => ({ '\u2019': 0x92, '\u201c': 0x93, '\u201d': 0x94, '\u2013': 0x96 })[ch] ?? ch.charCodeAt(0),
      ),
    );
    host.set('/cp1252.xml', { body: bytes, type: 'application/rss+xml; charset=windows-1252' });
    await subscribed('/cp1252.xml');
    expect((await app.river({})).groups[0]!.items[0]!.title).toBe(
      'It\u2019s \u201cquoted\u201d \u2013 caf\u00e9',
    );
  });

  it('expands nothing from a billion-laughs feed and reads nothing from disk', async () => {
    const secret = join(dataDir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-CONTENT');
    host.set(
      '/laughs.xml',
      `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY xxe SYSTEM "file://${secret}">]>
<rss version="2.0"><channel><title>Laughs</title><link>http://example.com/</link><description>d</description>
<item><title>&lol3;</title><guid>l1</guid><description>&xxe;</description></item></channel></rss>`,
    );
    await subscribed('/laughs.xml');
    const item = (await app.river({})).groups[0]?.items[0];
    const shown = JSON.stringify(item ?? (await app.listFeeds()));
    expect(shown).not.toContain('TOP-SECRET-CONTENT');
    expect(shown).not.toContain('lollollol');
  });

  it('finds the feed when given the site address (autodiscovery)', async () => {
    host.set('/', {
      type: 'text/html',
      body: '<html><head><link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.rss"></head></html>',
    });
    host.set('/feed.rss', rssFeed('Site Feed', [{ title: 'found', guid: 'f1' }]));
    const feed = await subscribed('/');
    expect(feed.url).toBe(`${host.url}/feed.rss`);
    // A second add says so and names the feed, so the UI can select it (issue 9).
    const again = await app.subscribe({ url: `${host.url}/feed.rss` });
    expect(again).toEqual({
      ok: false,
      error: { code: 'already_subscribed', message: 'You already follow "Site Feed".', feedId: feed.id },
    });
    // The site address finds the same feed: the same answer, after discovery.
    const viaSite = await app.subscribe({ url: `${host.url}/` });
    expect(!viaSite.ok && viaSite.error.feedId).toBe(feed.id);
    expect(await app.listFeeds()).toHaveLength(1);
  });

  it('answers a page with no feed with a readable error and subscribes to nothing', async () => {
    host.set('/plain', { type: 'text/html', body: '<html><head><title>No feeds</title></head></html>' });
    const res = await app.subscribe({ url: `${host.url}/plain` });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toMatch(/feed/i);
    expect(await app.listFeeds()).toHaveLength(0);
  });

  it('round-trips OPML with folders, never exporting credentials', async () => {
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
      <outline text="Tech"><outline text="Nested"><outline type="rss" text="One" xmlUrl="${host.url}/one.xml"/></outline></outline>
      <outline type="rss" text="Two" xmlUrl="${host.url}/two.xml"/></body></opml>`;
    const imported = await app.importOpml(opml);
    expect(imported).toMatchObject({
      ok: true,
      value: { added: 2, existing: 0, errors: [], folderId: null },
    });
    expect(imported.ok && imported.value.feedIds).toHaveLength(2);
    expect((await app.importOpml(opml)).ok && (await app.importOpml(opml))).toMatchObject({
      value: { existing: 2 },
    });
    const feeds = await app.listFeeds();
    expect(feeds.map((f) => f.folder).sort()).toEqual(['Tech/Nested', null].sort());

    host.set('/private.xml', rssFeed('Private', [{ title: 'secret', guid: 's1' }]));
    const priv = await app.subscribe({
      url: `${host.url}/private.xml`,
      credentials: { scheme: 'basic', username: 'me', password: 'hunter2' },
    });
    expect(priv.ok).toBe(true);
    await settle();
    expect(host.lastHeaders('/private.xml')?.authorization).toBe(
      `Basic ${Buffer.from('me:hunter2').toString('base64')}`,
    );
    const exported = await app.exportOpml();
    expect(exported).toContain('Tech');
    expect(exported).toContain(`${host.url}/one.xml`);
    expect(exported).not.toContain('hunter2');
    expect(JSON.stringify(await app.listFeeds())).not.toContain('hunter2');
  });

  it('unsubscribing removes the feed and its items', async () => {
    host.set('/a.xml', rssFeed('Feed A', [{ title: 'one', guid: '1' }]));
    const feed = await subscribed('/a.xml');
    await app.unsubscribe(feed.id);
    expect(await app.listFeeds()).toEqual([]);
    expect((await app.river({})).groups).toEqual([]);
  });

  it('marks items read and updates the unread count', async () => {
    host.set(
      '/a.xml',
      rssFeed('Feed A', [
        { title: 'one', guid: '1' },
        { title: 'two', guid: '2' },
      ]),
    );
    const feed = await subscribed('/a.xml');
    const ids = (await app.river({})).groups.flatMap((g) => g.items.map((i) => i.id));
    await app.markRead([ids[0]!], true);
    expect((await app.listFeeds())[0]!.unread).toBe(1);
    expect((await app.river({ unreadOnly: true })).groups.flatMap((g) => g.items)).toHaveLength(1);
    await app.markFeedRead(feed.id);
    expect((await app.listFeeds())[0]!.unread).toBe(0);
    await app.setStarred(ids[1]!, true);
    expect((await app.river({ starredOnly: true })).groups.flatMap((g) => g.items.map((i) => i.id))).toEqual([
      ids[1],
    ]);
    expect((await app.search('two')).map((i) => i.title)).toEqual(['two']);
  });
});

describe('settings', () => {
  it('applies a new polling interval to every feed at once', async () => {
    host.set('/a.xml', rssFeed('Feed A', [{ title: 'one', guid: '1' }]));
    await subscribed('/a.xml');
    const before = (await app.listFeeds())[0]!;
    expect(before.delivery).toBe('polled every 60 min');
    const changed: number[] = [];
    app.on('feeds.changed', (e) => changed.push(e.count));
    const s = await app.updateSettings({ pollIntervalMin: 30 });
    expect(s.pollIntervalMin).toBe(30);
    const after = (await app.listFeeds())[0]!;
    expect(after.delivery).toBe('polled every 30 min');
    expect(Date.parse(after.nextDueAt!)).toBeLessThan(Date.parse(before.nextDueAt!));
    expect(changed).toEqual([1]);
    expect((await app.updateSettings({ pollIntervalMin: 1 })).pollIntervalMin).toBe(5);
  });
});
