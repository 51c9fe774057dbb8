import { describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import { type FeedHost, rssFeed } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;

startAppEachTest('tidings-race-', (fx) => ({ host, app } = fx));

const opmlOf = (url: string) =>
  `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
   <outline type="rss" text="x" xmlUrl="${url}"/></body></opml>`;

async function importOne(url: string): Promise<number> {
  const res = await app.importOpml(opmlOf(url));
  if (!res.ok) throw new Error(res.error.message);
  const feed = (await app.listFeeds()).find((f) => f.url === url);
  if (!feed) throw new Error('not imported');
  return feed.id;
}

describe('a refresh whose feed was removed while it ran', () => {
  it('drops its answer and never touches the feed added after it', async () => {
    host.set('/slow.xml', {
      delayMs: 800,
      body: rssFeed('Slow', [{ title: 'from the removed feed', guid: 'slow-1' }]),
    });
    host.set('/fast.xml', rssFeed('Fast', [{ title: 'fast one', guid: 'fast-1' }]));

    const slowId = await importOne(`${host.url}/slow.xml`);
    await waitFor(() => host.hits('/slow.xml') === 1, 5_000, 'the slow fetch to start');
    await app.unsubscribe(slowId);
    const fastId = await importOne(`${host.url}/fast.xml`);

    // Ids are never reused: the new feed cannot be mistaken for the removed one.
    expect(fastId).not.toBe(slowId);
    await app.context.scheduler.idle();

    // The new feed got its own first fetch at once (not an hour later) and only its own items.
    expect(host.hits('/fast.xml')).toBe(1);
    const page = await app.river({});
    const titles = page.groups.flatMap((g) => g.items.map((i) => i.title));
    expect(titles).toEqual(['fast one']);
    const [feed] = await app.listFeeds();
    expect(feed).toMatchObject({ id: fastId, unread: 1 });
  });

  it('never reuses an item id after its feed is gone', async () => {
    host.set('/a.xml', rssFeed('A', [{ title: 'a', guid: 'a-1' }]));
    host.set('/b.xml', rssFeed('B', [{ title: 'b', guid: 'b-1' }]));
    const a = await importOne(`${host.url}/a.xml`);
    await app.context.scheduler.idle();
    const [itemA] = (await app.river({})).groups.flatMap((g) => g.items);
    await app.unsubscribe(a);
    await importOne(`${host.url}/b.xml`);
    await app.context.scheduler.idle();
    const [itemB] = (await app.river({})).groups.flatMap((g) => g.items);
    expect(itemB!.title).toBe('b');
    expect(itemB!.id).toBeGreaterThan(itemA!.id);
  });
});
