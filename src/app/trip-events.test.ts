/**
 * What one trip of a feed tells the UI: its status once, as the store now holds it, and its line
 * in the fetch log. At 10,000 feeds every event of a poll cycle goes to the window 10,000 times
 * (bench:poll): a 304 sent its status twice.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import { type FeedHost, rssFeed } from '../testing/feed-host.ts';
import type { FeedView, FetchLogEntry } from './api.ts';
import { feedViewOf } from './feed-view.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;
const statuses: FeedView[] = [];
const fetches: FetchLogEntry[] = [];

beforeEach(() => {
  statuses.length = 0;
  fetches.length = 0;
});
startAppEachTest(
  'tidings-trip-',
  (fx) => ({ host, app } = fx),
  (a) => {
    a.on('feed.status', (v) => statuses.push(v));
    a.on('fetch', (e) => fetches.push(e));
  },
);

async function subscribed(path: string, folder?: string): Promise<number> {
  host.set(path, { body: rssFeed('Trip', [{ title: 'one', guid: 'g1' }]), etag: '"v1"' });
  const res = await app.subscribe({ url: `${host.url}${path}`, ...(folder ? { folder } : {}) });
  if (!res.ok) throw new Error(res.error.message);
  await app.context.scheduler.idle();
  return res.value.id;
}

/** The feed as a fresh read of the store shows it. */
const stored = (id: number) => feedViewOf(app.context, app.context.store.getFeed(id)!);

describe('one trip of a feed', () => {
  it('a 304 sends the feed status once, equal to the row as stored, and one fetch log line', async () => {
    const id = await subscribed('/a.xml', 'News/Tech');
    statuses.length = 0;
    fetches.length = 0;

    await app.refresh(id);
    await app.context.scheduler.idle();

    expect(fetches.map((f) => [f.feedId, f.outcome, f.feedTitle])).toEqual([[id, 'notModified', 'Trip']]);
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toEqual(stored(id));
    expect(statuses[0]).toMatchObject({
      status: 'ok',
      folder: 'News/Tech',
      lastFetchedAt: expect.any(String),
    });
    expect(statuses[0]!.nextDueAt! > statuses[0]!.lastFetchedAt!).toBe(true);
  });

  it('a failing fetch sends its status once, with the error and its back-off as stored', async () => {
    const id = await subscribed('/b.xml');
    host.set('/b.xml', { status: 500, body: 'down' });
    statuses.length = 0;

    await app.refresh(id);
    await app.context.scheduler.idle();

    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toEqual(stored(id));
    expect(statuses[0]).toMatchObject({ status: 'error', error: expect.stringContaining('500') });
  });

  it('a changed feed stores its items and sends its status once, as stored', async () => {
    const id = await subscribed('/c.xml');
    host.set('/c.xml', {
      body: rssFeed('Trip', [
        { title: 'two', guid: 'g2' },
        { title: 'one', guid: 'g1' },
      ]),
      etag: '"v2"',
    });
    statuses.length = 0;

    await app.refresh(id);
    await app.context.scheduler.idle();

    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toEqual(stored(id));
    expect(statuses[0]).toMatchObject({ status: 'ok', unread: 2 });
    expect(fetches.at(-1)).toMatchObject({ feedId: id, outcome: 'ok', newItems: 1 });
  });
});
