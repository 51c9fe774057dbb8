/**
 * Issue 17, point 9: every bulk change has an Undo that brings back exactly what it took
 * (src/app/undo.ts, docs/decisions/0005-undo.md).
 */
import { describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import type { FeedHost } from '../testing/feed-host.ts';
import type { FeedView, RiverPage } from './api.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;

startAppEachTest('tidings-undo-', (fx) => ({ host, app } = fx));

const settle = () => app.context.scheduler.idle();

function rss(title: string, titles: string[]): string {
  const body = titles
    .map((t) => `<item><title>${t}</title><guid isPermaLink="false">${t}</guid></item>`)
    .join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>${host.url}/</link>${body}</channel></rss>`;
}

async function add(path: string, title: string, titles: string[]): Promise<FeedView> {
  host.set(path, rss(title, titles));
  const res = await app.subscribe({ url: `${host.url}${path}` });
  if (!res.ok) throw new Error(res.error.message);
  await settle();
  return (await app.listFeeds()).find((f) => f.id === res.value.id)!;
}

const items = (p: RiverPage) => p.groups.flatMap((g) => g.items);
/** What a person sees of an item: identity and their own marks. */
const marks = async () =>
  items(await app.river({ includeMuted: true }))
    .map((i) => ({ id: i.id, feedId: i.feedId, title: i.title, read: i.read, starred: i.starred }))
    .sort((a, b) => a.id - b.id);

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('undo', () => {
  it('an unsubscribe comes back exactly: the feed, its items with read and starred, folder, settings, search', async () => {
    const folder = must(await app.createFolder('News'));
    const a = await add('/a.xml', 'Feed A', ['a1 zebra', 'a2', 'a3']);
    await add('/b.xml', 'Feed B', ['b1']);
    must(await app.updateFeed(a.id, { folderId: folder.id, title: 'My A', intervalMin: 15, notify: true }));
    must(await app.addMuteFilter({ feedId: a.id, kind: 'keyword', pattern: 'spam', action: 'hide' }));
    const [a1, a2] = items(await app.river({ feedId: a.id })).sort((x, y) => x.id - y.id);
    await app.markRead([a1!.id], true);
    await app.setStarred(a2!.id, true);
    const before = { feeds: await app.listFeeds(), marks: await marks(), folders: await app.listFolders() };
    const filters = await app.listMuteFilters();

    const ticket = await app.unsubscribe(a.id);
    expect(ticket).toMatchObject({ message: 'Unsubscribed from My A' });
    expect(await app.listFeeds()).toHaveLength(1);
    expect(await app.searchItems({ query: 'zebra' })).toMatchObject({ hits: [] });

    expect(await app.undo(ticket!.undoId)).toEqual({ ok: true, value: true });
    const feeds = await app.listFeeds();
    const strip = (fs: FeedView[]) => fs.map(({ nextDueAt: _n, status: _s, ...f }) => f);
    expect(strip(feeds)).toEqual(strip(before.feeds));
    expect(feeds.find((f) => f.id === a.id)).toMatchObject({ unread: 2, folderId: folder.id, title: 'My A' });
    expect(await marks()).toEqual(before.marks);
    expect(await app.listFolders()).toEqual(before.folders);
    expect(await app.listMuteFilters()).toEqual(filters);
    expect(JSON.stringify(await app.searchItems({ query: 'zebra' }))).toContain('a1 zebra');
    // Once only.
    expect(await app.undo(ticket!.undoId)).toMatchObject({ ok: false, error: { code: 'undo.expired' } });
  });

  it('an unsubscribe comes back with its activity: every fetch of the feed, and when it last worked', async () => {
    const a = await add('/a.xml', 'Feed A', ['a1']);
    await add('/b.xml', 'Feed B', ['b1']);
    host.set('/a.xml', { status: 500, body: 'oops', type: 'text/plain' });
    await app.refresh(a.id);
    await settle();
    const log = await app.fetchLog({ feedId: a.id });
    expect(log.map((e) => e.outcome)).toEqual(['error', 'ok']);
    const lastSuccessAt = (await app.listFeeds()).find((f) => f.id === a.id)!.lastSuccessAt;
    expect(lastSuccessAt).not.toBeNull();

    const ticket = await app.unsubscribe(a.id);
    expect(await app.fetchLog({ feedId: a.id })).toEqual([]);
    expect((await app.fetchLog()).every((e) => e.feedId !== a.id)).toBe(true);

    expect(await app.undo(ticket!.undoId)).toEqual({ ok: true, value: true });
    expect(await app.fetchLog({ feedId: a.id })).toEqual(log);
    expect((await app.listFeeds()).find((f) => f.id === a.id)!.lastSuccessAt).toBe(lastSuccessAt);
    // The whole log, newest first, holds the feed's entries in their places again.
    expect((await app.fetchLog()).map((e) => e.id)).toEqual(
      [...(await app.fetchLog())].sort((x, y) => y.id - x.id).map((e) => e.id),
    );
    // And the history goes on from there.
    host.set('/a.xml', rss('Feed A', ['a1', 'a2']));
    await app.refresh(a.id);
    await settle();
    expect((await app.fetchLog({ feedId: a.id })).map((e) => e.outcome)).toEqual(['ok', 'error', 'ok']);
  });

  it('an unsubscribe followed again meanwhile is not undone twice over: a readable refusal', async () => {
    const a = await add('/a.xml', 'Feed A', ['a1']);
    const ticket = await app.unsubscribe(a.id);
    await add('/a.xml', 'Feed A', ['a1']);
    expect(await app.undo(ticket!.undoId)).toMatchObject({ ok: false, error: { code: 'undo.conflict' } });
    expect(await app.listFeeds()).toHaveLength(1);
  });

  it('a deleted folder comes back with its subfolders (a merged one too), ids, and every feed in place', async () => {
    const top = must(await app.createFolder('Top'));
    const mid = must(await app.createFolder('Mid', top.id));
    const low = must(await app.createFolder('Low', mid.id));
    // Top already has a "Low": deleting Mid merges Mid/Low into it.
    const topLow = must(await app.createFolder('Low', top.id));
    const other = must(await app.createFolder('Other', mid.id));
    const a = await add('/a.xml', 'A', ['a1']);
    const b = await add('/b.xml', 'B', ['b1']);
    const c = await add('/c.xml', 'C', ['c1']);
    const d = await add('/d.xml', 'D', ['d1']);
    must(await app.updateFeed(a.id, { folderId: mid.id }));
    must(await app.updateFeed(b.id, { folderId: low.id }));
    must(await app.updateFeed(c.id, { folderId: topLow.id }));
    must(await app.updateFeed(d.id, { folderId: other.id }));
    const before = { folders: await app.listFolders(), feeds: await app.listFeeds() };

    const ticket = must(await app.deleteFolder(mid.id));
    expect(ticket.message).toBe('Deleted the folder “Mid”');
    expect((await app.listFolders()).map((f) => f.path)).toEqual(['Top', 'Top/Low', 'Top/Other']);

    expect(await app.undo(ticket.undoId)).toEqual({ ok: true, value: true });
    expect(await app.listFolders()).toEqual(before.folders);
    expect(await app.listFeeds()).toEqual(before.feeds);
  });

  it('a mute filter is taken back with the items it muted: shown again, unread as they came', async () => {
    const a = await add('/a.xml', 'A', ['old']);
    const added = must(await app.addMuteFilter({ kind: 'keyword', pattern: 'crypto', action: 'hide' }));
    expect(added.undo.message).toBe('Muted “crypto”');
    host.set('/a.xml', rss('A', ['old', 'crypto now', 'plain']));
    await app.refresh(a.id);
    await settle();
    expect(
      items(await app.river({}))
        .map((i) => i.title)
        .sort(),
    ).toEqual(['old', 'plain']);

    must(await app.undo(added.undo.undoId));
    expect(await app.listMuteFilters()).toEqual([]);
    const back = items(await app.river({})).find((i) => i.title === 'crypto now');
    expect(back).toMatchObject({ read: false, mutedBy: null });
    expect((await app.listFeeds())[0]!.unread).toBe(3);
  });
});
