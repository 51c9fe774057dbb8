import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TidingsFailure } from '../common/errors.ts';
import { decodeCursor, encodeCursor } from './river.ts';
import { openStore, type RiverQuery, type Store } from './store.ts';
import { makeItem } from './test-support.ts';

let store: Store;

beforeEach(() => {
  store = openStore(':memory:');
});
afterEach(() => store.close());

/** Walks every page, returning ids in river order. */
function walk(q: RiverQuery): number[] {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = store.riverItems({ ...q, cursor });
    ids.push(...page.items.map((i) => i.id));
    if (!page.nextCursor) return ids;
    expect(page.items).toHaveLength(q.limit ?? 50);
    cursor = page.nextCursor;
  }
  throw new Error('river never ended');
}

describe('river order', () => {
  it('is newest seenAt first, then newest published, then highest id', () => {
    const f = store.addFeed({ url: 'https://a/' }).feed.id;
    store.upsertItems(
      f,
      [
        makeItem('old-batch', { published: '2026-01-05T00:00:00Z' }),
        makeItem('old-batch-2', { published: '2026-01-01T00:00:00Z' }),
      ],
      1000,
    );
    store.upsertItems(
      f,
      [
        makeItem('undated'),
        makeItem('jan', { published: '2026-01-01T00:00:00Z' }),
        makeItem('feb', { published: '2026-02-01T00:00:00Z' }),
        makeItem('undated-2'),
      ],
      2000,
    );
    expect(store.riverItems({}).items.map((i) => i.guid)).toEqual([
      'feb',
      'jan',
      'undated-2',
      'undated',
      'old-batch',
      'old-batch-2',
    ]);
  });
});

describe('keyset pagination', () => {
  // Many ties on seenAt and published, so the id tie-break is exercised across page edges.
  function fill(): { ids: number[]; feeds: number[] } {
    const feeds = [1, 2, 3].map((n) => store.addFeed({ url: `https://f${n}/` }).feed.id);
    const ids: number[] = [];
    for (let batch = 0; batch < 20; batch++) {
      for (const [k, feed] of feeds.entries()) {
        const items = Array.from({ length: 7 + k }, (_, i) =>
          makeItem(`b${batch}-${i}`, { published: i % 3 === 0 ? null : `2026-01-0${1 + (i % 2)}T00:00:00Z` }),
        );
        ids.push(...store.upsertItems(feed, items, 1_000 + Math.floor(batch / 2)).inserted);
      }
    }
    return { ids, feeds };
  }

  it.each([1, 7, 50, 500])('walks every item once with limit %i', (limit) => {
    const { ids } = fill();
    const walked = walk({ limit });
    expect(walked).toHaveLength(ids.length);
    expect(new Set(walked).size).toBe(ids.length);
    // Same order as one big page.
    const all = store.riverItems({ limit: 500 }).items.map((i) => i.id);
    expect(walked).toEqual(all);
  });

  it('filters by feed, unread and starred, each paginated without gaps', () => {
    const { ids, feeds } = fill();
    const readIds = ids.filter((_, i) => i % 3 === 0);
    store.markRead(readIds, true);
    const starIds = ids.filter((_, i) => i % 10 === 0);
    for (const id of starIds) store.setStarred(id, true);
    const all = store.riverItems({ limit: 500 }).items;

    const byFeed = walk({ feedId: feeds[1]!, limit: 13 });
    expect(byFeed).toEqual(all.filter((i) => i.feedId === feeds[1]).map((i) => i.id));
    const unread = walk({ unreadOnly: true, limit: 11 });
    expect(unread).toEqual(all.filter((i) => !i.read).map((i) => i.id));
    expect(unread.length).toBe(ids.length - readIds.length);
    const starred = walk({ starredOnly: true, limit: 4 });
    expect(starred).toEqual(all.filter((i) => i.starred).map((i) => i.id));
    const combined = walk({ feedId: feeds[0]!, unreadOnly: true, starredOnly: true, limit: 2 });
    expect(combined).toEqual(
      all.filter((i) => i.feedId === feeds[0] && !i.read && i.starred).map((i) => i.id),
    );
  });

  it('a page cut by a filter change still continues after its cursor', () => {
    const { ids } = fill();
    const first = store.riverItems({ limit: 10 });
    store.markRead(ids, true);
    const next = store.riverItems({ limit: 10, cursor: first.nextCursor });
    expect(next.items[0]!.id).not.toBe(first.items[9]!.id);
    expect(store.riverItems({ unreadOnly: true })).toEqual({ items: [], nextCursor: null });
  });
});

describe('cursor', () => {
  it('round-trips', () => {
    const k = { seenAt: 1767225600000, pubKey: -86400000, id: 123456 };
    expect(decodeCursor(encodeCursor(k))).toEqual(k);
  });

  it.each(['', 'garbage', 'r1.1.2', 'r2.1.2.3', 'r1.1.2.3.4', 'r1.zzzzzzzzzzzzzz.1.1', 'r1.1.2.x!'])(
    'rejects %j as a readable error',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(TidingsFailure);
      try {
        decodeCursor(cursor);
      } catch (e) {
        expect((e as TidingsFailure).error.code).toBe('store.badCursor');
      }
    },
  );
});

describe('a whole fetch batch (issue 9: "N more from this feed")', () => {
  it('reads a batch past the page maximum in one call', () => {
    const s = openStore(':memory:');
    const feed = s.addFeed({ url: 'https://big/' }).feed.id;
    s.upsertItems(
      feed,
      Array.from({ length: 700 }, (_, i) => makeItem(`b${i}`)),
      5,
    );
    s.upsertItems(feed, [makeItem('later')], 6);
    const page = s.riverItems({ batch: { feedId: feed, seenAt: 5 }, limit: 1000 });
    expect(page.items).toHaveLength(700);
    expect(page.nextCursor).toBeNull();
    expect(s.riverItems({ limit: 1000 }).items).toHaveLength(500);
    s.close();
  });
});
