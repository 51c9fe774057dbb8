import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/common/clock.ts';
import { ArrivalBatcher, describeBatch, type FeedArrivals, type NotifyFeed } from './notify-batcher.ts';

const fetched = '2026-01-01T00:00:00.000Z';
const feed = (id: number, title: string, extra: Partial<NotifyFeed> = {}): NotifyFeed => ({
  id,
  title,
  notify: true,
  status: 'ok',
  unread: 0,
  lastFetchedAt: fetched,
  ...extra,
});

function setup(opts: { quiet?: () => boolean } = {}) {
  const clock = new ManualClock();
  const batches: FeedArrivals[][] = [];
  const batcher = new ArrivalBatcher({ clock, flush: (b) => batches.push(b), ...opts });
  return { clock, batches, batcher };
}

describe('ArrivalBatcher', () => {
  it('gathers arrivals that come close together into one batch: "5 new from Scripting News"', () => {
    const { clock, batches, batcher } = setup();
    batcher.setFeeds([feed(1, 'Scripting News')]);
    batcher.arrived(1, 2);
    clock.advance(1_000);
    batcher.arrived(1, 3);
    expect(batches).toEqual([]);
    clock.advance(1_000);
    expect(batches).toEqual([[{ feedId: 1, feedTitle: 'Scripting News', newItems: 5 }]]);
  });

  it('is opt-in per feed: a missing flag is off', () => {
    const { clock, batches, batcher } = setup();
    batcher.setFeeds([
      feed(1, 'On'),
      feed(2, 'Off', { notify: false }),
      feed(3, 'Unset', { notify: undefined }),
    ]);
    batcher.arrived(2, 4);
    batcher.arrived(3, 4);
    batcher.arrived(1, 1);
    clock.advance(5_000);
    expect(batches).toEqual([[{ feedId: 1, feedTitle: 'On', newItems: 1 }]]);
  });

  it('never storms on a first fetch: 200 feeds subscribed from an OPML file say nothing', () => {
    const { clock, batches, batcher } = setup();
    const fresh = Array.from({ length: 200 }, (_, i) =>
      feed(i + 1, `Feed ${i + 1}`, { lastFetchedAt: null }),
    );
    batcher.setFeeds(fresh);
    // The core emits river.changed before the row that says the feed was fetched.
    for (const f of fresh) {
      batcher.arrived(f.id, 50);
      batcher.updateFeed({ ...f, lastFetchedAt: fetched, unread: 50 });
    }
    clock.advance(60_000);
    expect(batches).toEqual([]);
    // Their next news does notify.
    batcher.arrived(7, 1);
    clock.advance(2_000);
    expect(batches).toEqual([[{ feedId: 7, feedTitle: 'Feed 7', newItems: 1 }]]);
  });

  it('a feed whose fetches only failed stays quiet on its first good fetch', () => {
    const { clock, batches, batcher } = setup();
    batcher.setFeeds([feed(1, 'Flaky', { status: 'error', unread: 0 })]);
    batcher.arrived(1, 30);
    clock.advance(10_000);
    expect(batches).toEqual([]);
  });

  it('after a notification, the next waits out a cool-down and gathers everything meanwhile', () => {
    const { clock, batches, batcher } = setup();
    batcher.setFeeds([feed(1, 'A'), feed(2, 'B')]);
    batcher.arrived(1, 1);
    clock.advance(2_000);
    expect(batches).toHaveLength(1);
    for (let i = 0; i < 10; i++) {
      clock.advance(1_000);
      batcher.arrived(i % 2 ? 1 : 2, 1);
    }
    expect(batches).toHaveLength(1);
    clock.advance(20_000);
    expect(batches).toHaveLength(2);
    expect(batches[1]).toEqual([
      { feedId: 1, feedTitle: 'A', newItems: 5 },
      { feedId: 2, feedTitle: 'B', newItems: 5 },
    ]);
  });

  it('says nothing while the window has the focus', () => {
    let focused = true;
    const { clock, batches, batcher } = setup({ quiet: () => focused });
    batcher.setFeeds([feed(1, 'A')]);
    batcher.arrived(1, 3);
    focused = false;
    batcher.arrived(1, 1);
    clock.advance(2_000);
    expect(batches).toEqual([[{ feedId: 1, feedTitle: 'A', newItems: 1 }]]);
  });

  it('drops arrivals of a feed unsubscribed or turned off before the batch goes out', () => {
    const { clock, batches, batcher } = setup();
    batcher.setFeeds([feed(1, 'A'), feed(2, 'B')]);
    batcher.arrived(1, 1);
    batcher.arrived(2, 1);
    batcher.setFeeds([feed(2, 'B', { notify: false })]);
    clock.advance(2_000);
    expect(batches).toEqual([]);
  });
});

describe('describeBatch', () => {
  const items = new Map([
    [
      1,
      [
        { id: 501, title: 'Newest post' },
        { id: 500, title: null },
        { id: 499, title: 'Third' },
      ],
    ],
  ]);

  it('"5 new from Scripting News": the newest titles, a click opens the newest item', () => {
    expect(describeBatch([{ feedId: 1, feedTitle: 'Scripting News', newItems: 5 }], items)).toEqual([
      {
        title: '5 new from Scripting News',
        body: 'Newest post\nUntitled item\nThird\nand 2 more',
        target: { feedId: 1, itemId: 501 },
      },
    ]);
    expect(describeBatch([{ feedId: 1, feedTitle: 'Scripting News', newItems: 1 }], items)).toEqual([
      { title: 'New from Scripting News', body: 'Newest post', target: { feedId: 1, itemId: 501 } },
    ]);
  });

  it('one notification per feed for a few feeds, one summary for many', () => {
    const few = [1, 2, 3].map((i) => ({ feedId: i, feedTitle: `F${i}`, newItems: 1 }));
    expect(describeBatch(few, new Map())).toHaveLength(3);
    const many = [9, 5, 2, 1].map((n, i) => ({ feedId: i + 1, feedTitle: `F${i + 1}`, newItems: n }));
    expect(describeBatch(many, new Map())).toEqual([
      {
        title: '17 new items from 4 feeds',
        body: 'F1 (9), F2 (5) and 2 more',
        target: { feedId: null, itemId: null },
      },
    ]);
  });
});
