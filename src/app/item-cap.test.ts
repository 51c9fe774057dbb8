import { expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import { type FeedHost, rssFeed } from '../testing/feed-host.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;

startAppEachTest('tidings-cap-', (fx) => ({ host, app } = fx));

const items = (n: number, from = n) =>
  Array.from({ length: n }, (_, i) => ({ title: `item ${from - i}`, guid: `g${from - i}` }));

it('keeps the newest maxItemsPerDocument items and says so in the feed status', async () => {
  expect((await app.getSettings()).maxItemsPerDocument).toBe(5_000);
  const saved = await app.updateSettings({ maxItemsPerDocument: 50 });
  expect(saved.maxItemsPerDocument).toBe(50);

  host.set('/big.xml', rssFeed('Big', items(200)));
  const sub = await app.subscribe({ url: `${host.url}/big.xml` });
  if (!sub.ok) throw new Error(sub.error.message);
  await app.context.scheduler.idle();

  const [feed] = await app.listFeeds();
  expect(feed).toMatchObject({ status: 'ok', unread: 50 });
  expect(feed!.notes).toEqual(['The document has 200 items; only the newest 50 were read.']);
  const titles = (await app.river({ limit: 200 })).groups.flatMap((g) => g.items.map((i) => i.title));
  expect(titles).toContain('item 200');
  expect(titles).not.toContain('item 150');

  // The document fits again: the note goes.
  host.set('/big.xml', rssFeed('Big', items(10, 210)));
  await app.refresh(feed!.id);
  await app.context.scheduler.idle();
  const [after] = await app.listFeeds();
  expect(after!.notes).toEqual([]);
  expect(after!.unread).toBe(60);
});

it('raising the cap reads again, in full, the feeds that had items left out', async () => {
  await app.updateSettings({ maxItemsPerDocument: 50 });
  host.set('/big.xml', { etag: '"same"', body: rssFeed('Big', items(200)) });
  host.set('/small.xml', { etag: '"s"', body: rssFeed('Small', items(5)) });
  for (const path of ['/big.xml', '/small.xml']) {
    const sub = await app.subscribe({ url: `${host.url}${path}` });
    if (!sub.ok) throw new Error(sub.error.message);
  }
  await app.context.scheduler.idle();
  const smallHits = host.hits('/small.xml');

  // The document did not change (same ETag): without this it would answer 304 and stay at 50.
  await app.updateSettings({ maxItemsPerDocument: 150 });
  await app.context.scheduler.idle();
  const big = (await app.listFeeds()).find((f) => f.url.endsWith('/big.xml'))!;
  expect(big).toMatchObject({ unread: 150 });
  expect(big.notes).toEqual(['The document has 200 items; only the newest 150 were read.']);
  expect(host.hits('/small.xml')).toBe(smallHits); // a feed that fitted is left alone
});
