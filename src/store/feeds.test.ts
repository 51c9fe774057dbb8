import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { openStore, type Store } from './store.ts';
import { makeItem } from './test-support.ts';

let store: Store;
let clock: ManualClock;

beforeEach(() => {
  clock = new ManualClock('2026-03-01T00:00:00Z');
  store = openStore(':memory:', { clock });
});
afterEach(() => store.close());

describe('addFeed', () => {
  it('creates once per url and returns the existing row after', () => {
    const a = store.addFeed({ url: 'https://a.example/feed', title: 'A' });
    expect(a.created).toBe(true);
    expect(a.feed).toMatchObject({
      url: 'https://a.example/feed',
      title: 'A',
      status: 'pending',
      unread: 0,
      consecutiveErrors: 0,
      createdAt: clock.now(),
      folder: null,
    });
    expect(a.feed.meta.skipHours).toEqual([]);
    const again = store.addFeed({ url: 'https://a.example/feed', title: 'Other' });
    expect(again.created).toBe(false);
    expect(again.feed.id).toBe(a.feed.id);
    expect(again.feed.title).toBe('A');
    expect(store.listFeeds()).toHaveLength(1);
  });

  it('files feeds under nested folder paths, reusing folders case-insensitively', () => {
    const x = store.addFeed({ url: 'https://x/', folder: 'News/Tech' }).feed;
    const y = store.addFeed({ url: 'https://y/', folder: ' news / tech / ' }).feed;
    const z = store.addFeed({ url: 'https://z/', folder: 'News' }).feed;
    const folders = store.listFolders();
    expect(folders).toHaveLength(2);
    const news = folders.find((f) => f.title === 'News')!;
    const tech = folders.find((f) => f.title === 'Tech')!;
    expect(news.parentId).toBeNull();
    expect(tech.parentId).toBe(news.id);
    expect(x).toMatchObject({ folderId: tech.id, folder: 'News/Tech', folderTitle: 'Tech' });
    expect(y.folderId).toBe(tech.id);
    expect(z).toMatchObject({ folderId: news.id, folder: 'News', folderTitle: 'News' });
  });

  it.each([null, '', ' / '])('treats folder %j as no folder', (folder) => {
    expect(store.addFeed({ url: 'https://x/', folder }).feed.folderId).toBeNull();
    expect(store.listFolders()).toEqual([]);
  });
});

describe('listFeeds', () => {
  it('orders by folder then title, with unread counts', () => {
    const b = store.addFeed({ url: 'https://b/', title: 'beta', folder: 'Z' }).feed;
    store.addFeed({ url: 'https://a/', title: 'Alpha', folder: 'Z' });
    store.addFeed({ url: 'https://c/', title: 'Gamma' });
    store.addFeed({ url: 'https://d/', title: 'delta', folder: 'A' });
    store.addFeed({ url: 'https://e/', title: 'epsilon', folder: 'A/Sub' });
    store.upsertItems(b.id, [makeItem('1'), makeItem('2')], 1);
    const list = store.listFeeds();
    expect(list.map((f) => f.title)).toEqual(['Gamma', 'delta', 'epsilon', 'Alpha', 'beta']);
    expect(list.find((f) => f.id === b.id)!.unread).toBe(2);
  });

  it('never returns credentials; getCredentials does', () => {
    const secret = { scheme: 'basic', username: 'ann', password: 'pa55-w0rd-secret' } as const;
    const { feed } = store.addFeed({ url: 'https://private/', credentials: secret });
    const shown = JSON.stringify([
      store.listFeeds(),
      store.getFeed(feed.id),
      store.getFeedByUrl('https://private/'),
    ]);
    expect(shown).not.toContain('pa55-w0rd-secret');
    expect(shown).not.toContain('ann');
    expect(store.getFeed(feed.id)).toMatchObject({ credentials: null, hasCredentials: true });
    expect(store.getCredentials(feed.id)).toEqual(secret);
    store.setCredentials(feed.id, null);
    expect(store.getCredentials(feed.id)).toBeNull();
    expect(store.getFeed(feed.id)!.hasCredentials).toBe(false);
  });
});

describe('feed updates', () => {
  it('updateFetchState writes only the given fields', () => {
    const { feed } = store.addFeed({ url: 'https://a/' });
    store.updateFetchState(feed.id, { status: 'error', lastError: 'boom', lastErrorCode: 'net.timeout' });
    store.updateFetchState(feed.id, {
      etag: '"v1"',
      consecutiveErrors: 3,
      nextDueAt: 99,
      dueReason: 'back-off',
    });
    expect(store.getFeed(feed.id)).toMatchObject({
      status: 'error',
      lastError: 'boom',
      lastErrorCode: 'net.timeout',
      etag: '"v1"',
      consecutiveErrors: 3,
      nextDueAt: 99,
      dueReason: 'back-off',
      lastModified: null,
    });
    store.updateFetchState(feed.id, { lastError: null, status: 'ok' });
    expect(store.getFeed(feed.id)).toMatchObject({ status: 'ok', lastError: null, etag: '"v1"' });
  });

  it('updateFeedMeta merges meta and keeps untouched fields', () => {
    const { feed } = store.addFeed({ url: 'https://a/', title: 'Mine' });
    store.updateFeedMeta(feed.id, { description: 'desc', meta: { ttl: 30, skipHours: [1, 2] } });
    store.updateFeedMeta(feed.id, { meta: { hubs: ['https://hub/'] } });
    const row = store.getFeed(feed.id)!;
    expect(row).toMatchObject({ title: 'Mine', description: 'desc' });
    expect(row.meta).toMatchObject({ ttl: 30, skipHours: [1, 2], hubs: ['https://hub/'], cloud: null });
  });

  it('setFeedInterval and setFeedFolder', () => {
    const { feed } = store.addFeed({ url: 'https://a/' });
    store.setFeedInterval(feed.id, 15);
    store.setFeedFolder(feed.id, 'Later/On');
    expect(store.getFeed(feed.id)).toMatchObject({ intervalMin: 15, folder: 'Later/On', folderTitle: 'On' });
    store.setFeedInterval(feed.id, null);
    store.setFeedFolder(feed.id, null);
    expect(store.getFeed(feed.id)).toMatchObject({ intervalMin: null, folderId: null });
  });

  it('removeFeed deletes its items and their search entries', () => {
    const a = store.addFeed({ url: 'https://a/' }).feed;
    const b = store.addFeed({ url: 'https://b/' }).feed;
    store.upsertItems(a.id, [makeItem('1', { title: 'zebra' })], 1);
    store.upsertItems(b.id, [makeItem('1', { title: 'zebra' })], 1);
    expect(store.search('zebra')).toHaveLength(2);
    expect(store.removeFeed(a.id)).toBe(true);
    expect(store.getFeed(a.id)).toBeNull();
    expect(store.search('zebra').map((i) => i.feedId)).toEqual([b.id]);
    expect(store.riverItems({}).items).toHaveLength(1);
    expect(store.unreadCount()).toBe(1);
    expect(store.removeFeed(a.id)).toBe(false);
  });

  it('getItemFeedId names the feed of an item', () => {
    const a = store.addFeed({ url: 'https://a/' }).feed;
    const [id] = store.upsertItems(a.id, [makeItem('1')], 1).inserted;
    expect(store.getItemFeedId(id!)).toBe(a.id);
    expect(store.getItemFeedId(987654)).toBeNull();
  });
});

describe('moveFeedUrl', () => {
  it('changes the url when nobody else has it', () => {
    const { feed } = store.addFeed({ url: 'https://old/' });
    const moved = store.moveFeedUrl(feed.id, 'https://new/')!;
    expect(moved).toMatchObject({ mergedFrom: null, feed: { id: feed.id, url: 'https://new/' } });
    expect(store.getFeedByUrl('https://old/')).toBeNull();
    expect(store.moveFeedUrl(12345, 'https://x/')).toBeNull();
  });

  it('merges into the moving feed when another already has the new url', () => {
    const mover = store.addFeed({ url: 'https://old/' }).feed;
    const other = store.addFeed({ url: 'https://new/', folder: 'Kept', title: 'Other title' }).feed;
    const [m1] = store.upsertItems(mover.id, [makeItem('shared'), makeItem('mine')], 1).inserted;
    const ins = store.upsertItems(other.id, [makeItem('shared'), makeItem('theirs')], 2).inserted;
    store.markRead([m1!], true);
    store.setStarred(ins[0]!, true);

    const moved = store.moveFeedUrl(mover.id, 'https://new/')!;
    expect(moved.mergedFrom).toBe(other.id);
    expect(moved.feed).toMatchObject({
      id: mover.id,
      url: 'https://new/',
      folder: 'Kept',
      title: 'Other title',
    });
    expect(store.getFeed(other.id)).toBeNull();
    expect(store.listFeeds()).toHaveLength(1);

    const items = store.riverItems({}).items;
    expect(items.map((i) => i.guid).sort()).toEqual(['mine', 'shared', 'theirs']);
    expect(items.every((i) => i.feedId === mover.id)).toBe(true);
    const shared = items.find((i) => i.guid === 'shared')!;
    expect(shared).toMatchObject({ read: true, starred: true });
    expect(store.unreadCount(mover.id)).toBe(2);
    expect(store.unreadCount()).toBe(2);
    // The merged feed's next fetch sees all three as known.
    expect(store.upsertItems(mover.id, [makeItem('shared'), makeItem('theirs')], 3).inserted).toEqual([]);
  });
});
