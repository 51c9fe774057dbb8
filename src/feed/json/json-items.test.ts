import { describe, expect, it } from 'vitest';
import { parseFeed } from '../parse.ts';
import { findJsonItems, SCAN_FROM_BYTES } from './json-items.ts';

const elements = (doc: string) => {
  const found = findJsonItems(doc);
  if (!found) return null;
  const out: string[] = [];
  for (let k = 0; k < found.spans.length; k += 2) out.push(doc.slice(found.spans[k], found.spans[k + 1]));
  return out;
};

describe('findJsonItems', () => {
  it('finds the top-level items and each element, strings and nesting notwithstanding', () => {
    const doc = `{"title":"items [x]","nested":{"items":[9]},"items" : [ {"id":"a\\"]},","x":[1,{"y":"}"}]} , 5 ,"s\\\\", null ],"z":1}`;
    expect(elements(doc)).toEqual(['{"id":"a\\"]},","x":[1,{"y":"}"}]}', '5', '"s\\\\"', 'null']);
    expect(elements('{"items":[]}')).toEqual([]);
  });

  it('gives up (null) on shapes JSON.parse must judge', () => {
    expect(findJsonItems('{"items":[1,,2]}')).toBeNull();
    expect(findJsonItems('{"items":[1,2]')).toBeNull();
    expect(findJsonItems('{"title":"x"}')).toBeNull();
  });
});

describe('a huge JSON Feed reads only the items it keeps', () => {
  function bigFeed(count: number, ascending: boolean): string {
    const pad = 'x'.repeat(Math.ceil(SCAN_FROM_BYTES / count) + 10);
    const items = Array.from({ length: count }, (_, i) => ({
      id: i,
      content_text: pad,
      date_published: new Date(Date.UTC(2024, 0, 1) + (ascending ? i : count - i) * 60_000).toISOString(),
    }));
    return JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Big', items });
  }

  it('keeps the first items when newest come first, noting the total', () => {
    const r = parseFeed(bigFeed(3000, false), { maxItems: 1000 });
    if (r.kind !== 'feed') throw new Error(JSON.stringify(r));
    expect(r.feed.title).toBe('Big');
    expect(r.feed.items).toHaveLength(1000);
    expect([r.feed.items[0]!.id, r.feed.items[999]!.id]).toEqual(['0', '999']);
    expect(r.notes).toEqual([
      expect.objectContaining({ code: 'feed.itemsCapped', args: { kept: 1000, total: 3000 } }),
    ]);
  });

  it('keeps the last items of an appending feed', () => {
    const r = parseFeed(bigFeed(3000, true), { maxItems: 1000 });
    if (r.kind !== 'feed') throw new Error(JSON.stringify(r));
    expect([r.feed.items[0]!.id, r.feed.items[999]!.id]).toEqual(['2000', '2999']);
    expect(r.notes).toHaveLength(1);
  });
});
