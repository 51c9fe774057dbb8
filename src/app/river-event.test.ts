/**
 * Items committed to the store are news to an open river even when the bookkeeping after them
 * fails (issue 36): the river heard nothing of them until the next fetch that found something.
 */
import { expect, it } from 'vitest';
import { type AppWithHost, startAppEachTest } from '../testing/app-fixture.ts';
import { rssFeed } from '../testing/feed-host.ts';

let t: AppWithHost;
startAppEachTest('tidings-river-event-', (fx) => (t = fx));

it('tells the river about stored items when updating the feed row afterwards fails', async () => {
  t.host.set('/feed.xml', rssFeed('Feed', [{ title: 'one', guid: '1' }]));
  const sub = await t.app.subscribe({ url: `${t.host.url}/feed.xml` });
  if (!sub.ok) throw new Error(sub.error.message);
  await t.app.context.scheduler.idle();

  const heard: number[] = [];
  t.app.on('river.changed', (e) => heard.push(e.newItems));
  const store = t.app.context.store;
  const updateFeedMeta = store.updateFeedMeta.bind(store);
  store.updateFeedMeta = () => {
    throw new Error('disk full');
  };
  t.host.set(
    '/feed.xml',
    rssFeed('Feed', [
      { title: 'two', guid: '2' },
      { title: 'one', guid: '1' },
    ]),
  );
  await t.app.refresh(sub.value.id);
  await t.app.context.scheduler.idle();
  store.updateFeedMeta = updateFeedMeta;

  expect(heard).toEqual([1]);
  const titles = (await t.app.river({})).groups.flatMap((g) => g.items.map((i) => i.title));
  expect(titles).toContain('two');
});
