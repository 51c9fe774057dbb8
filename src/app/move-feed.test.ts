/**
 * Issue 35: Edit address is one "move" in the core. The feed keeps its id, items, read and starred
 * marks, folder, settings, filters and fetch log; the new address is fetched once; the river and
 * the person are told ("moved to ..."). A wrong address changes nothing. Real feed hosts on loopback.
 */
import { describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import { type FeedHost, startFeedHost } from '../testing/feed-host.ts';
import type { FeedView, Notice, TidingsEvents } from './api.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;
let notices: Notice[];
let rivers: TidingsEvents['river.changed'][];

startAppEachTest('tidings-move-', (fx) => ({ host, app, notices, riverEvents: rivers } = fx));

const settle = () => app.context.scheduler.idle();

function rss(titles: string[]): string {
  const items = titles.map((t) => `<item><title>${t}</title><guid isPermaLink="false">${t}</guid></item>`);
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Moving Feed</title><link>${host.url}/</link>${items.join('')}</channel></rss>`;
}

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const view = async (id: number) => (await app.listFeeds()).find((f) => f.id === id)!;
const items = async (feedId: number) =>
  (await app.river({ feedId, includeMuted: true })).groups
    .flatMap((g) => g.items)
    .map((i) => ({ id: i.id, title: i.title, read: i.read, starred: i.starred }))
    .sort((a, b) => a.id - b.id);

/** A followed feed with the person's marks and settings on it, now failing at its old address. */
async function failingFeed(): Promise<FeedView> {
  host.set('/old.xml', rss(['one', 'two']));
  const feed = must(await app.subscribe({ url: `${host.url}/old.xml` }));
  await settle();
  const folder = must(await app.createFolder('Keep'));
  must(await app.updateFeed(feed.id, { folderId: folder.id, title: 'Mine', intervalMin: 30 }));
  must(await app.addMuteFilter({ feedId: feed.id, kind: 'keyword', pattern: 'sponsored', action: 'hide' }));
  const [one, two] = await items(feed.id);
  await app.markRead([one!.id], true);
  await app.setStarred(two!.id, true);
  host.set('/old.xml', { status: 404, body: 'gone elsewhere', type: 'text/plain' });
  await app.refresh(feed.id);
  await settle();
  const failing = await view(feed.id);
  expect(failing.status).toBe('error');
  return failing;
}

describe('moveFeed (Edit address)', () => {
  it('moves the feed to the new address with everything it had, fetching it once, and says "moved to"', async () => {
    const before = await failingFeed();
    const marks = await items(before.id);
    const filters = await app.listMuteFilters();
    const log = await app.fetchLog({ feedId: before.id });
    host.set('/new.xml', rss(['one', 'two', 'three']));
    rivers.length = 0;
    const oldHits = host.hits('/old.xml');

    const moved = must(await app.moveFeed(before.id, `${host.url}/new.xml`));
    expect(moved).toMatchObject({
      id: before.id,
      url: `${host.url}/new.xml`,
      status: 'ok',
      error: null,
      title: 'Mine',
      folderId: before.folderId,
      intervalMin: 30,
    });
    expect(host.hits('/new.xml')).toBe(1);
    await settle();
    expect(host.hits('/new.xml')).toBe(1);
    // Same items, same marks, and the one the new address adds.
    const after = await items(before.id);
    expect(after.slice(0, 2)).toEqual(marks);
    expect(after.map((i) => i.title)).toEqual(['one', 'two', 'three']);
    expect(await app.listMuteFilters()).toEqual(filters);
    expect(await app.listFeeds()).toHaveLength(1);
    // Told: the river (its new item) and the person.
    expect(rivers).toContainEqual({ feedId: before.id, newItems: 1, changedItems: [] });
    expect(notices).toContainEqual({
      level: 'info',
      message: `Mine moved to ${host.url}/new.xml.`,
      feedId: before.id,
    });
    expect(notices.some((n) => /unsubscribed/i.test(n.message))).toBe(false);
    // The fetch log goes on: the old address's fetches, then the new one's.
    const newLog = await app.fetchLog({ feedId: before.id });
    expect(newLog.slice(1)).toEqual(log);
    expect(newLog[0]).toMatchObject({ url: `${host.url}/new.xml`, outcome: 'ok', status: 200, newItems: 1 });
    // Polling goes on at the new address.
    await app.refresh(before.id);
    await settle();
    expect(host.hits('/new.xml')).toBe(2);
    expect(host.hits('/old.xml')).toBe(oldHits);
  });

  it("finds the feed from a site's address, reading the page and the feed once each", async () => {
    const before = await failingFeed();
    host.set('/site/', {
      type: 'text/html; charset=utf-8',
      body: `<html><head><link rel="alternate" type="application/rss+xml" href="/feeds/main.xml"></head><body>Hi</body></html>`,
    });
    host.set('/feeds/main.xml', rss(['one', 'two']));
    const moved = must(await app.moveFeed(before.id, `${host.url}/site/`));
    expect(moved.url).toBe(`${host.url}/feeds/main.xml`);
    expect(host.hits('/site/')).toBe(1);
    expect(host.hits('/feeds/main.xml')).toBe(1);
    expect((await items(before.id)).map((i) => i.title)).toEqual(['one', 'two']);
  });

  it('an address that is not a feed changes nothing and says why', async () => {
    const before = await failingFeed();
    const marks = await items(before.id);
    host.set('/page.html', { type: 'text/html', body: '<html><body>no feed here</body></html>' });
    const result = await app.moveFeed(before.id, `${host.url}/page.html`);
    expect(result).toMatchObject({ ok: false, error: { code: 'discover.noFeed' } });
    const missing = await app.moveFeed(before.id, `${host.url}/missing.xml`);
    expect(missing).toMatchObject({
      ok: false,
      error: {
        code: 'discover.unreachable',
        message: `Could not open ${host.url}/missing.xml: it answered 404 Not Found.`,
      },
    });
    const bad = await app.moveFeed(before.id, 'mailto:someone@example.com');
    expect(bad).toMatchObject({ ok: false, error: { code: 'url.invalid' } });
    expect(await view(before.id)).toMatchObject({ url: `${host.url}/old.xml`, status: 'error' });
    expect(await items(before.id)).toEqual(marks);
    expect(notices.filter((n) => n.message.includes('moved'))).toEqual([]);
  });

  it('an address another subscription has names that one, and moves nothing', async () => {
    const before = await failingFeed();
    host.set('/other.xml', rss(['x']));
    const other = must(await app.subscribe({ url: `${host.url}/other.xml` }));
    const result = await app.moveFeed(before.id, `${host.url}/other.xml`);
    expect(result).toMatchObject({ ok: false, error: { code: 'already_subscribed', feedId: other.id } });
    expect((await view(before.id)).url).toBe(`${host.url}/old.xml`);
  });

  it("a private feed's login goes to a new address on its own site only", async () => {
    const login = { username: 'reader', password: 's3cret' };
    host.set('/private.xml', { body: rss(['p1']), basicAuth: login });
    const feed = must(
      await app.subscribe({ url: `${host.url}/private.xml`, credentials: { scheme: 'basic', ...login } }),
    );
    await settle();
    host.set('/moved-private.xml', { body: rss(['p1', 'p2']), basicAuth: login });
    const same = must(await app.moveFeed(feed.id, `${host.url}/moved-private.xml`));
    expect(same).toMatchObject({ url: `${host.url}/moved-private.xml`, hasCredentials: true, status: 'ok' });
    expect(host.hits('/moved-private.xml')).toBe(1);

    const elsewhere = await startFeedHost();
    try {
      elsewhere.set('/open.xml', rss(['p1', 'p2', 'p3']));
      const moved = must(await app.moveFeed(feed.id, `${elsewhere.url}/open.xml`));
      expect(moved).toMatchObject({ hasCredentials: false, status: 'ok' });
      expect(elsewhere.lastHeaders('/open.xml')?.authorization).toBeUndefined();
    } finally {
      await elsewhere.close();
    }
  });
});
