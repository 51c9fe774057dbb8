/**
 * What subscribing reads (issue 14): a feed as large as polling reads (20 MiB, one owner for the
 * limit), and the address it keeps: a temporary redirect (302/307) leaves the subscribed address
 * as given, a permanent one (301/308) moves it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AppWithHost, startAppWithHost } from '../testing/app-fixture.ts';
import { rssFeed } from '../testing/feed-host.ts';

let t: AppWithHost;
beforeAll(async () => {
  t = await startAppWithHost('tidings-subscribe-fetch-');
  t.host.set('/feed.xml', { body: rssFeed('Target', [{ title: 'one', guid: '1' }]) });
  for (const [path, status] of [
    ['/temp-302', 302],
    ['/temp-307', 307],
    ['/moved-301', 301],
    ['/moved-308', 308],
  ] as const) {
    t.host.set(path, { status, headers: { location: '/feed.xml' }, body: '' });
  }
  // 4,000 episodes with long show notes: about 8.5 MB, as the podcast feed in the issue.
  const notes = 'Show notes. '.repeat(170);
  t.host.set('/big.xml', {
    body: rssFeed(
      'Big podcast',
      Array.from({ length: 4000 }, (_, i) => ({
        title: `Episode ${i}`,
        guid: `ep-${i}`,
        description: notes,
      })),
    ),
  });
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const f of await t.app.listFeeds()) await t.app.unsubscribe(f.id);
});

describe('subscribing', () => {
  it.each(['/temp-302', '/temp-307'])(
    'keeps the address given behind a temporary redirect (%s)',
    async (path) => {
      const r = await t.app.subscribe({ url: `${t.host.url}${path}` });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.url).toBe(`${t.host.url}${path}`);
    },
  );

  it.each(['/moved-301', '/moved-308'])(
    'follows a permanent redirect to the new address (%s)',
    async (path) => {
      const r = await t.app.subscribe({ url: `${t.host.url}${path}` });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.url).toBe(`${t.host.url}/feed.xml`);
    },
  );

  it('reads the feed once: the first fetch is the one discovery made (it fetched twice, 19 ms apart)', async () => {
    t.host.set('/once.xml', { body: rssFeed('Once', [{ title: 'only once', guid: 'o' }]), etag: '"v1"' });
    const r = await t.app.subscribe({ url: `${t.host.url}/once.xml` });
    if (!r.ok) throw new Error(r.error.message);
    await t.app.context.scheduler.idle();
    expect(t.host.hits('/once.xml')).toBe(1);
    const river = await t.app.river({ feedId: r.value.id });
    expect(river.groups.flatMap((g) => g.items.map((i) => i.title))).toEqual(['only once']);
    // The read is in the log of every fetch, and its validators are kept: the next poll is a 304.
    expect((await t.app.fetchLog({ feedId: r.value.id })).map((e) => [e.outcome, e.status])).toEqual([
      ['ok', 200],
    ]);
    await t.app.refresh(r.value.id);
    await t.app.context.scheduler.idle();
    expect(t.host.lastHeaders('/once.xml')?.['if-none-match']).toBe('"v1"');
    expect((await t.app.fetchLog({ feedId: r.value.id }))[0]?.outcome).toBe('notModified');
  });

  it('reads a feed as large as polling does (over 5 MiB)', async () => {
    const r = await t.app.subscribe({ url: `${t.host.url}/big.xml` });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.url).toBe(`${t.host.url}/big.xml`);
  });
});
