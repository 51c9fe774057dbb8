import { describe, expect, it } from 'vitest';
import type { RiverGroup, RiverItem } from '../../../src/app/api';
import { riverGroup, riverItem } from '../testing/fixtures';
import { appendPage, findItem, groupKey, headReaches, mergeHead, updateItems } from './river-merge';

function item(id: number, feedId: number, read = false): RiverItem {
  return riverItem(id, feedId, {
    title: `item ${id}`,
    seenAt: `2025-06-15T12:00:${String(id).padStart(2, '0')}Z`,
    read,
  });
}

/** g(feed, updatedAt, ...ids) */
function g(feedId: number, updatedAt: string, ...ids: number[]): RiverGroup {
  return riverGroup(
    feedId,
    ids.map((id) => item(id, feedId)),
    { feedTitle: `feed ${feedId}`, updatedAt },
  );
}

/** Compact picture of a river: "feed@updated:ids". */
function shape(groups: RiverGroup[]): string[] {
  return groups.map((x) => `${x.feedId}@${x.updatedAt}:${x.items.map((i) => i.id).join(',')}`);
}

describe('mergeHead', () => {
  const cases: {
    name: string;
    loaded: RiverGroup[];
    cursor: string | null;
    head: RiverGroup[];
    headCursor: string | null;
    want: string[];
    wantCursor: string | null;
  }[] = [
    {
      name: 'first load takes the head as is',
      loaded: [],
      cursor: null,
      head: [g(1, 't2', 4, 3), g(2, 't1', 2)],
      headCursor: 'c1',
      want: ['1@t2:4,3', '2@t1:2'],
      wantCursor: 'c1',
    },
    {
      name: 'a new update goes on top, older pages stay below',
      loaded: [g(1, 't2', 4, 3), g(2, 't1', 2), g(3, 't0', 1)],
      cursor: 'c2',
      head: [g(9, 't3', 5), g(1, 't2', 4, 3)],
      headCursor: 'cX',
      want: ['9@t3:5', '1@t2:4,3', '2@t1:2', '3@t0:1'],
      wantCursor: 'c2',
    },
    {
      name: 'a group cut by the head page boundary is joined again',
      loaded: [g(1, 't2', 4, 3, 2, 1)],
      cursor: null,
      head: [g(9, 't3', 5), g(1, 't2', 4, 3)],
      headCursor: 'c',
      want: ['9@t3:5', '1@t2:4,3,2,1'],
      wantCursor: null,
    },
    {
      name: 'items that moved into a new group are not shown twice',
      loaded: [g(1, 't1', 3, 2), g(2, 't0', 1)],
      cursor: 'c',
      head: [g(1, 't2', 4, 3), g(2, 't1', 2)],
      headCursor: 'c2',
      want: ['1@t2:4,3', '2@t1:2', '2@t0:1'],
      wantCursor: 'c',
    },
    {
      name: 'loaded items the head skips over have left the core',
      loaded: [g(1, 't2', 4), g(2, 't1', 3), g(3, 't0', 2), g(4, 's9', 1)],
      cursor: 'c',
      head: [g(1, 't2', 4), g(3, 't0', 2)],
      headCursor: 'c2',
      want: ['1@t2:4', '3@t0:2', '4@s9:1'],
      wantCursor: 'c',
    },
    {
      name: 'a head that does not reach the loaded river replaces it (no hole in between)',
      loaded: [g(1, 't2', 4), g(2, 't1', 3)],
      cursor: null,
      head: [g(9, 't3', 9, 8, 7)],
      headCursor: 'c9',
      want: ['9@t3:9,8,7'],
      wantCursor: 'c9',
    },
    {
      name: 'a burst walked to the loaded river joins the split update and keeps the rest',
      loaded: [g(9, 't3', 9, 8), g(1, 't2', 4)],
      cursor: null,
      head: [g(9, 't3', 12, 11, 10, 9)],
      headCursor: 'c9',
      want: ['9@t3:12,11,10,9,8', '1@t2:4'],
      wantCursor: null,
    },
    {
      name: 'a head without a next page replaces the whole river',
      loaded: [g(1, 't2', 4), g(2, 't1', 3)],
      cursor: null,
      head: [g(9, 't3', 5), g(1, 't2', 4)],
      headCursor: null,
      want: ['9@t3:5', '1@t2:4'],
      wantCursor: null,
    },
    {
      name: 'an empty head keeps what is loaded',
      loaded: [g(1, 't1', 2)],
      cursor: 'c',
      head: [],
      headCursor: 'c0',
      want: ['1@t1:2'],
      wantCursor: 'c',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const merged = mergeHead(
        { groups: c.loaded, nextCursor: c.cursor },
        { groups: c.head, nextCursor: c.headCursor },
      );
      expect(shape(merged.groups)).toEqual(c.want);
      expect(merged.nextCursor).toBe(c.wantCursor);
      const ids = merged.groups.flatMap((x) => x.items.map((i) => i.id));
      expect(new Set(ids).size).toBe(ids.length);
    });
  }

  it('keeps the identity of groups that did not change and takes the head for those that did', () => {
    const kept = g(2, 't1', 2);
    const old = g(1, 't2', 4, 3);
    const merged = mergeHead(
      { groups: [old, kept], nextCursor: null },
      { groups: [g(1, 't2', 4, 3), g(2, 't1', 2)], nextCursor: null },
    );
    expect(merged.groups[0]).toBe(old);
    expect(merged.groups[1]).toBe(kept);

    const readInCore = g(1, 't2', 4, 3);
    readInCore.items[0] = item(4, 1, true);
    const again = mergeHead(
      { groups: [old, kept], nextCursor: 'c' },
      { groups: [readInCore], nextCursor: 'c2' },
    );
    expect(again.groups[0]).not.toBe(old);
    expect(again.groups[0]!.items[0]!.read).toBe(true);
    expect(again.groups[1]).toBe(kept);
  });
});

describe('appendPage', () => {
  it('appends older groups, dropping items already loaded and joining a split update', () => {
    const loaded = { groups: [g(1, 't3', 6, 5), g(2, 't2', 4)], nextCursor: 'c1' };
    const page = { groups: [g(2, 't2', 4, 3), g(3, 't1', 2), g(1, 't3', 6)], nextCursor: null };
    const out = appendPage(loaded, page);
    expect(shape(out.groups)).toEqual(['1@t3:6,5', '2@t2:4,3', '3@t1:2']);
    expect(out.nextCursor).toBeNull();
  });
});

describe('updateItems and findItem', () => {
  it('changes only the named items and keeps other groups', () => {
    const a = g(1, 't2', 3, 2);
    const b = g(2, 't1', 1);
    const out = updateItems([a, b], new Set([2]), (i) => ({ ...i, read: true }));
    expect(out[1]).toBe(b);
    expect(out[0]!.items.map((i) => i.read)).toEqual([false, true]);
    expect(updateItems([a, b], new Set([99]), (i) => i)).toEqual([a, b]);
    expect(findItem(out, 2)?.read).toBe(true);
    expect(findItem(out, 99)).toBeUndefined();
  });
});

describe('groupKey', () => {
  it('is the feed and the oldest item, stable when newer items join', () => {
    expect(groupKey(g(1, 't', 5, 4))).toBe('1:4');
    expect(groupKey(g(1, 't', 6, 5, 4))).toBe('1:4');
    expect(groupKey(g(1, 't'))).toBe('1@t');
  });
});

describe('headReaches', () => {
  const cases: {
    name: string;
    loaded: RiverGroup[];
    head: RiverGroup[];
    cursor: string | null;
    want: boolean;
  }[] = [
    { name: 'nothing loaded', loaded: [], head: [g(1, 't', 1)], cursor: 'c', want: true },
    { name: 'head is everything', loaded: [g(1, 't', 1)], head: [g(2, 'u', 2)], cursor: null, want: true },
    {
      name: 'shares an item',
      loaded: [g(1, 't', 2, 1)],
      head: [g(3, 'u', 3), g(1, 't', 2)],
      cursor: 'c',
      want: true,
    },
    { name: 'a gap', loaded: [g(1, 't', 2, 1)], head: [g(3, 'u', 5, 4, 3)], cursor: 'c', want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(
        headReaches({ groups: c.loaded, nextCursor: null }, { groups: c.head, nextCursor: c.cursor }),
      ).toBe(c.want);
    });
  }
});
