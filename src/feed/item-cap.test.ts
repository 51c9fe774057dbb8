import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse.ts';
import type { ParseOptions } from './parse-types.ts';
import { ELEMENT_BUDGET, FEED_LEVEL_BUDGET } from './xml/build.ts';

function rss(count: number, ascending = false): string {
  let items = '';
  for (let i = 0; i < count; i++) {
    const day = ascending ? i : count - i;
    const date = new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toUTCString();
    items += `<item><guid>g${i}</guid><title>t${i}</title><pubDate>${date}</pubDate></item>`;
  }
  return `<rss version="2.0"><channel><title>c</title>${items}</channel></rss>`;
}

function read(doc: string, opts?: ParseOptions) {
  const r = parseFeed(doc, opts);
  if (r.kind !== 'feed') throw new Error(JSON.stringify(r));
  return r;
}

describe('items per document cap', () => {
  it('reads at most the default 5,000 items and says how many were left out', () => {
    const r = read(rss(5003));
    expect(r.feed.items).toHaveLength(5000);
    expect(r.feed.items[0]!.id).toBe('g0');
    expect(r.notes).toEqual([
      {
        code: 'feed.itemsCapped',
        message: 'The document has 5003 items; only the newest 5000 were read.',
        args: { kept: 5000, total: 5003 },
      },
    ]);
  });

  it('keeps the newest end when a document appends (oldest first)', () => {
    const r = read(rss(10, true), { maxItems: 3 });
    expect(r.feed.items.map((i) => i.id)).toEqual(['g7', 'g8', 'g9']);
  });

  it('keeps exactly the last items of an appending document, whatever the count past the cap', () => {
    for (let n = 4; n <= 11; n++) {
      const ids = read(rss(n, true), { maxItems: 3 }).feed.items.map((i) => i.id);
      expect(ids).toEqual([`g${n - 3}`, `g${n - 2}`, `g${n - 1}`]);
    }
  });

  it('keeps the first items when newest come first, or without dates', () => {
    expect(read(rss(10), { maxItems: 3 }).feed.items.map((i) => i.id)).toEqual(['g0', 'g1', 'g2']);
    const undated = `<feed xmlns="http://www.w3.org/2005/Atom">${'<entry><id>x</id></entry>'.repeat(4)}</feed>`;
    expect(read(undated, { maxItems: 2 }).feed.items).toHaveLength(2);
  });

  it('caps RDF and JSON Feed too; Infinity reads everything with no note', () => {
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>c</title></channel>${'<item rdf:about="http://e.com/"><title>t</title></item>'.repeat(5)}</rdf:RDF>`;
    expect(read(rdf, { maxItems: 2 }).feed.items).toHaveLength(2);
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      items: Array.from({ length: 6 }, (_, i) => ({
        id: `j${i}`,
        date_published: `2024-01-0${i + 1}T00:00:00Z`,
      })),
    });
    const capped = read(json, { maxItems: 2 });
    expect(capped.feed.items.map((i) => i.id)).toEqual(['j4', 'j5']);
    expect(capped.notes[0]!.args).toEqual({ kept: 2, total: 6 });
    const all = read(rss(7), { maxItems: Number.POSITIVE_INFINITY });
    expect(all.feed.items).toHaveLength(7);
    expect(all.notes).toEqual([]);
  });

  it('reads a channel of 150,000 items whole when the cap allows them (the app lets it be 1,000,000)', () => {
    const items = Array.from({ length: 150_000 }, (_, i) => `<item><guid>g${i}</guid></item>`).join('');
    // No time limit: the subject is the count, not the speed on a machine kept busy by others.
    const r = read(`<rss version="2.0"><channel><title>c</title>${items}</channel></rss>`, {
      maxItems: 1_000_000,
      maxParseMs: 120_000,
    });
    expect(r.feed.items).toHaveLength(150_000);
    expect(r.feed.items[149_999]!.id).toBe('g149999');
  });
});

describe('element budgets', () => {
  it('junk beside the items is cut at its own budget and leaves the items whole', () => {
    const junk = '<x/>'.repeat(FEED_LEVEL_BUDGET + 10);
    const r = read(
      `<rss version="2.0"><channel><title>c</title>${junk}<item><guid>kept</guid></item></channel></rss>`,
    );
    expect(r.feed.title).toBe('c');
    expect(r.feed.items.map((i) => i.id)).toEqual(['kept']);
    // channel, title and the junk share the budget: 50,012 feed-level elements, 12 over.
    expect(r.notes).toEqual([
      expect.objectContaining({ code: 'feed.elementsSkipped', args: { skipped: 12 } }),
    ]);
  });

  it('an element inside an item holds at most 10,000 children', () => {
    const children = '<rssCloud:item><title>c</title></rssCloud:item>'.repeat(10_005);
    const nested = read(`<rss version="2.0"><channel><item><guid>p</guid>${children}</item></channel></rss>`);
    expect(nested.feed.items[0]!.children).toHaveLength(9_999); // the guid is one of the 10,000
    expect(nested.notes.map((n) => n.code)).toEqual(['feed.elementsSkipped']);
  });

  it('all items together hold at most ELEMENT_BUDGET elements; what comes first is read', () => {
    const perItem = 1000;
    const count = Math.ceil(ELEMENT_BUDGET / perItem) + 20;
    const item = (i: number) => `<item><guid>g${i}</guid>${'<x/>'.repeat(perItem)}</item>`;
    // No time limit: the subject is the element budget, and this document took longer than the
    // default 5 s to read on a machine kept busy by others.
    const r = read(
      `<rss version="2.0"><channel>${Array.from({ length: count }, (_, i) => item(i)).join('')}</channel></rss>`,
      { maxParseMs: 120_000 },
    );
    expect(r.feed.items).toHaveLength(count);
    expect(r.feed.items[0]!.id).toBe('g0');
    expect(r.notes.map((n) => n.code)).toEqual(['feed.elementsSkipped']);
  });
});
