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

describe('RSS 0.90 (RDF, Netscape namespace)', () => {
  const feed = feedOf(fixture('rss090.rdf'));

  it('is rss0.90 and reads channel, image and items beside the channel', () => {
    expect(feed.format).toBe('rss0.90');
    expect(feed.title).toBe('Mozilla Dot Org');
    expect(feed.image).toEqual({
      url: 'http://www.mozilla.org/images/moz.gif',
      title: 'Mozilla',
      link: 'http://www.mozilla.org',
    });
    expect(feed.items.map((i) => i.title)).toEqual(['New Status Updates', 'Bugzilla Reorganized']);
    expect(feed.items[0]!.link).toBe('http://www.mozilla.org/status/');
  });
});

describe('RSS 1.0 (RDF)', () => {
  const feed = feedOf(fixture('rss10.rdf'));
  const [first, second] = feed.items;

  it('is rss1.0 with Dublin Core and syndication at channel level', () => {
    expect(feed.format).toBe('rss1.0');
    expect(feed.language).toBe('en-us');
    expect(feed.updated).toBe('2000-01-01T12:00:00.000Z');
    expect(feed.sy).toEqual({
      updatePeriod: 'hourly',
      updateFrequency: 2,
      updateBase: '2000-01-01T12:00:00.000Z',
    });
  });

  it('resolves the image URL against the root xml:base', () => {
    expect(feed.image?.url).toBe('http://meerkat.oreillynet.com/icons/meerkat-powered.jpg');
  });

  it('uses rdf:about as the id and reads dc: and content: (any prefix) on items', () => {
    expect(first!.id).toBe('http://c.moreover.com/click/here.pl?r123');
    expect(first!.summary).toBe(
      'XML is placing increasingly heavy loads on the existing technical infrastructure &amp; more.',
    );
    expect(first!.content).toBe('<p>Full <i>text</i></p>');
    expect(first!.categories).toEqual([{ term: 'XML', scheme: null, label: null }]);
    // "Name (mailto:email)" splits into name and email (issue 10).
    expect(first!.authors[0]).toMatchObject({ name: 'Simon St.Laurent', email: 'simonstl@simonstl.com' });
    expect(first!.published).toBe('2000-01-01T11:00:00.500Z');
  });

  it('hashes an id for an item without rdf:about and resolves its relative link', () => {
    expect(second!.id).toMatch(/^hash:[0-9a-f]{40}$/);
    expect(second!.link).toBe('http://meerkat.oreillynet.com/relative/page.html');
  });
});
