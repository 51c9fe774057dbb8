import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Feed } from '../model.ts';
import { parseFeed } from '../parse.ts';
import type { ParseOptions } from '../parse-types.ts';
import { innerXhtml } from './atom-text.ts';

const fixture = (name: string) => readFileSync(new URL(`../testdata/${name}`, import.meta.url));

function feedOf(body: Uint8Array | string, opts?: ParseOptions): Feed {
  const r = parseFeed(body, opts);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r)}`);
  return r.feed;
}

describe('Atom 1.0', () => {
  const feed = feedOf(fixture('atom10.xml'), { url: 'https://fetched.example/atom' });
  const [first, second] = feed.items;

  it('reads the feed: html title as text, xml:lang, generator, links resolved against xml:base', () => {
    expect(feed).toMatchObject({
      format: 'atom1.0',
      title: 'Atom & Eve',
      description: 'A feed that uses everything',
      language: 'en-GB',
      generator: 'Generator X',
      link: 'https://atom.example.org/',
      self: 'https://atom.example.org/blog/feed.atom',
      hubs: ['https://hub.example.net/'],
      updated: '2024-05-06T12:00:00.000Z',
      published: null,
      image: { url: 'https://atom.example.org/blog/logo.png', title: null, link: null },
    });
  });

  it('resolves entry links against nested xml:base (feed, then entry)', () => {
    expect(first!.link).toBe('https://atom.example.org/blog/posts/first.html');
    expect(first!.comments).toBe('https://atom.example.org/blog/posts/first.html#comments');
    expect(first!.enclosures).toEqual([
      { url: 'https://atom.example.org/media/first.mp3', type: 'audio/mpeg', length: 1337 },
    ]);
  });

  it('reads an xhtml title as text, text summary escaped to HTML, xhtml content as inner HTML', () => {
    expect(first!.title).toBe('An XHTML title');
    expect(first!.summary).toBe('Plain text &lt;b&gt;with brackets&lt;/b&gt; &amp; ampersand');
    // The content's xml:base resolves the link inside it.
    expect(first!.content).toBe(
      '<p>Inline <a href="https://other.example.com/x.html">XHTML</a> &amp; more</p>',
    );
  });

  it('reads html summary (escaped) and content (CDATA) as the same HTML', () => {
    expect(second!.summary).toBe('<p>Escaped <em>HTML</em></p>');
    expect(second!.content).toBe('<p>CDATA <strong>HTML</strong></p>');
    expect(second!.title).toBe('Second & last');
  });

  it('reads ids, dates, authors, categories; entries without authors inherit the feed author', () => {
    expect(first!.id).toBe('tag:atom.example.org,2024:1');
    expect(first!.published).toBe('2024-05-01T08:00:00.000Z');
    expect(first!.updated).toBe('2024-05-02T10:00:00.250Z');
    expect(first!.authors).toEqual([{ name: 'Entry Author', email: null, uri: null }]);
    expect(first!.categories).toEqual([
      { term: 'atom', scheme: 'https://atom.example.org/tags', label: 'Atom' },
    ]);
    expect(second!.authors).toEqual([
      { name: 'Feed Author', email: 'feed@example.org', uri: 'https://atom.example.org/about' },
    ]);
  });

  it('reads media:group in an entry', () => {
    expect(second!.media).toEqual([
      {
        url: 'https://video.example.org/2.mp4',
        type: 'video/mp4',
        medium: null,
        width: 640,
        height: 360,
        title: 'Video',
        thumbnail: 'https://video.example.org/2.jpg',
      },
    ]);
  });
});

describe('Atom 0.3', () => {
  const feed = feedOf(fixture('atom03.xml'));
  const [first, second] = feed.items;

  it('is atom0.3, with tagline, modified and mode="escaped"', () => {
    expect(feed.format).toBe('atom0.3');
    expect(feed.title).toBe('dive into <mark>');
    expect(feed.description).toBe('A lot of effort went into making this effortless');
    expect(feed.updated).toBe('2003-12-13T18:30:02.000Z');
  });

  it('reads issued/created/modified, url in author, xml-mode and escaped content', () => {
    expect(first!.published).toBe('2003-12-13T12:29:29.000Z');
    expect(first!.updated).toBe('2003-12-13T18:30:02.000Z');
    expect(first!.summary).toBe('A summary &lt; 1');
    expect(first!.content).toBe('<p>Hello, <em>world</em>!</p>');
    expect(first!.authors).toEqual([
      { name: 'Mark Pilgrim', email: 'f8dy@example.com', uri: 'http://diveintomark.org/' },
    ]);
    expect(second!.published).toBe('2003-12-14T08:00:00.000Z');
    expect(second!.content).toBe('<p>Escaped</p>');
  });
});

describe('Atom details', () => {
  it('a prefixed Atom document reads the same as an unprefixed one', () => {
    const xml =
      '<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>P</a:title>' +
      '<a:entry><a:id>e1</a:id><a:title>E</a:title><a:content type="html">&lt;i&gt;x&lt;/i&gt;</a:content></a:entry></a:feed>';
    const feed = feedOf(xml);
    expect(feed.format).toBe('atom1.0');
    expect(feed.title).toBe('P');
    expect(feed.items[0]).toMatchObject({ id: 'e1', title: 'E', content: '<i>x</i>' });
  });

  it('content with src (out of line) has no content; a link without rel is the alternate', () => {
    const xml =
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><link href="https://x.example/1"/>' +
      '<content src="https://x.example/1.pdf" type="application/pdf"/></entry></feed>';
    const item = feedOf(xml).items[0]!;
    expect(item.content).toBeNull();
    expect(item.link).toBe('https://x.example/1');
  });

  it('innerXhtml drops the wrapping div and its prefix', () => {
    expect(innerXhtml('<div xmlns="http://www.w3.org/1999/xhtml"><p>a</p></div>')).toBe('<p>a</p>');
    expect(innerXhtml(' <x:div xmlns:x="http://www.w3.org/1999/xhtml"><x:p>a</x:p><br/></x:div> ')).toBe(
      '<p>a</p><br/>',
    );
    expect(innerXhtml('<p>no wrapper</p>')).toBe('<p>no wrapper</p>');
  });
});
