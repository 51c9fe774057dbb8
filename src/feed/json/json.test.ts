import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Feed } from '../model.ts';
import { parseFeed } from '../parse.ts';

const fixture = (name: string) => readFileSync(new URL(`../testdata/${name}`, import.meta.url));

function feedOf(body: Uint8Array | string): Feed {
  const r = parseFeed(body);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r)}`);
  return r.feed;
}

describe('JSON Feed 1.0', () => {
  const feed = feedOf(fixture('jsonfeed10.json'));
  const [second, first] = feed.items;

  it('is json1.0 and reads the feed fields', () => {
    expect(feed).toMatchObject({
      format: 'json1.0',
      title: 'JSON Feed 1.0',
      link: 'https://json.example.com/',
      self: 'https://json.example.com/feed.json',
      description: 'The old one',
      image: { url: 'https://json.example.com/icon.png', title: null, link: null },
      hubs: ['https://hub.example.net/'],
    });
  });

  it('reads the 1.0 `author` object (feed level inherited; mailto: is an email)', () => {
    expect(second!.authors).toEqual([{ name: 'Old Author', email: 'old@example.com', uri: null }]);
    expect(first!.authors).toEqual([{ name: 'Item Author', email: null, uri: null }]);
  });

  it('turns a numeric id into a string and resolves the url against feed_url', () => {
    expect(second!.id).toBe('2');
    expect(second!.link).toBe('https://json.example.com/posts/2');
  });

  it('escapes content_text to HTML, keeps content_html, reads tags and attachments', () => {
    expect(second!.content).toBe('Line one &amp; two<br>\nLine &lt;three&gt;');
    expect(first!.content).toBe('<p>Hello</p>');
    expect(first!.summary).toBe('A summary');
    expect(second!.categories.map((c) => c.term)).toEqual(['json', 'feeds']);
    expect(second!.enclosures).toEqual([
      { url: 'https://json.example.com/2.mp3', type: 'audio/mpeg', length: 42 },
    ]);
    expect(first!.media[0]).toMatchObject({ url: 'https://json.example.com/1.jpg', medium: 'image' });
  });

  it('reads dates; an unreadable one is null', () => {
    expect(second!.published).toBe('2024-05-01T17:00:00.000Z');
    expect(first!.updated).toBeNull();
  });
});

describe('JSON Feed 1.1', () => {
  const feed = feedOf(fixture('jsonfeed11.json'));
  const [a, b] = feed.items;

  it('is json1.1 with language', () => {
    expect(feed.format).toBe('json1.1');
    expect(feed.language).toBe('en-US');
  });

  it('reads `authors` arrays, preferring them over 1.0 `author`, and inherits the feed authors', () => {
    expect(a!.authors).toEqual([{ name: 'New Author', email: null, uri: 'https://json.example.com/me' }]);
    expect(b!.authors.map((p) => p.name)).toEqual(['One', 'Two']);
  });
});

describe('JSON documents that are not JSON Feeds', () => {
  it.each([
    ['{"hello": "world"}', 'feed.notAFeed'],
    ['{"version": "https://jsonfeed.org/version/1.1", "items": ', 'feed.malformed'],
  ])('%s -> %s', (doc, code) => {
    const r = parseFeed(doc);
    expect(r.kind === 'error' && r.error.code).toBe(code);
  });

  it('ignores fields of the wrong type instead of failing', () => {
    const feed = feedOf(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 42,
        items: [{ id: {}, title: ['x'], url: 7, tags: [1, 'ok'], attachments: [null, { url: 3 }] }, 'junk'],
      }),
    );
    expect(feed.title).toBeNull();
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]!.id).toMatch(/^hash:/);
    expect(feed.items[0]!.categories).toEqual([{ term: 'ok', scheme: null, label: null }]);
    expect(feed.items[0]!.enclosures).toEqual([]);
  });
});
