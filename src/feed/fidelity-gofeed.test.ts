/**
 * Parser fidelity against a second suite (issue 19): what gofeed's test data showed we got wrong,
 * each with a small feed of our own. Each case failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import type { Feed, Item } from './model.ts';
import { parseFeed } from './parse.ts';
import type { ParseResult } from './parse-types.ts';

function read(body: string): Extract<ParseResult, { kind: 'feed' }> {
  const r = parseFeed(body);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r).slice(0, 400)}`);
  return r;
}
const feedOf = (body: string): Feed => read(body).feed;
const rss = (channel: string, items = '<item><guid>a</guid><title>A</title></item>') =>
  `<rss version="2.0"><channel><title>c</title>${channel}${items}</channel></rss>`;
const rssItem = (inner: string): Item => feedOf(rss('', `<item>${inner}</item>`)).items[0]!;
const atom = (feed: string, entry = '') =>
  `<feed xmlns="http://www.w3.org/2005/Atom"><title>f</title>${feed}<entry><id>e</id>${entry}</entry></feed>`;
const atomEntry = (inner: string): Item => feedOf(atom('', inner)).items[0]!;

describe('an end tag that does not match the open element', () => {
  it('a misspelt close of the element just opened is recovered, and the status says so', () => {
    const r = read(rss('<language>en-us</langauge><description>d</description>'));
    expect(r.feed.language).toBe('en-us');
    expect(r.feed.description).toBe('d');
    expect(r.feed.items.map((i) => i.id)).toEqual(['a']);
    expect(r.notes.map((n) => n.code)).toEqual(['feed.repaired']);
    expect(r.notes[0]!.message).toContain('</langauge>');
    expect(r.notes[0]!.message).toContain('line 1');
  });

  it('a mis-cased close is recovered, leaf or not', () => {
    const leaf = read(
      rss('', '<item><guid>a</guid><Title>A</title><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</PubDate></item>'),
    );
    expect(leaf.feed.items[0]!.published).toBe('2024-01-01T00:00:00.000Z');
    expect(leaf.notes.map((n) => n.code)).toEqual(['feed.repaired']);
    const inner = read(rss('', '<item><guid>b</guid><extra>x</EXTRA><title>B</title></item>'));
    expect(inner.feed.items[0]!.title).toBe('B');
  });

  it('an element left unclosed inside an item is closed with its item', () => {
    const r = read(rss('', '<item><guid>a</guid><foo>bar</item><item><guid>b</guid><title>B</title></item>'));
    expect(r.feed.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(r.notes.map((n) => n.code)).toEqual(['feed.repaired']);
    const leaf = read(
      rss('', '<item><guid>a</guid><title>A</item><item><guid>b</guid><title>B</title></item>'),
    );
    expect(leaf.feed.items.map((i) => [i.id, i.title])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
  });

  it('a typo repeated in every item (a template) costs each item once, not the rest of the document', () => {
    // Quadratic, this would take minutes and end as feed.tooSlow; linear, well under a second.
    const items = Array.from(
      { length: 10_000 },
      (_, i) => `<item><guid>${i}</guid><title>T${i}</titel></item>`,
    );
    const r = read(rss('', items.join('\n')));
    expect(r.feed.items).toHaveLength(5000); // the default cap on items read
    expect(r.feed.items.map((i) => i.title).slice(0, 2)).toEqual(['T0', 'T1']);
    expect(r.notes.find((n) => n.code === 'feed.repaired')!.args).toMatchObject({ mended: 10_000 });
  });

  it('the same typo repeated outside items is linear too (each leaf stops at the next of its name)', () => {
    // Quadratic, 20,000 of these would run past the default 5 s limit and end as feed.tooSlow.
    const r = read(rss('<category>c</categroy>\n'.repeat(20_000)));
    expect(r.feed.items.map((i) => i.id)).toEqual(['a']);
    expect(r.notes.find((n) => n.code === 'feed.repaired')!.args).toMatchObject({ mended: 20_000 });
  });

  it('keeps refusing what is ambiguous', () => {
    // A leaf closed by an end tag naming nothing open is read (issue 34: `<title>t</subtitle>`),
    // but an item's, a channel's or the root's end tag there means a start tag went missing.
    expect(read(rss('<language>en-us</copyright>')).feed.language).toBe('en-us');
    expect(parseFeed(rss('<language>en-us</item>')).kind).toBe('error');
    expect(parseFeed(rss('<language>en-us</channel>')).kind).toBe('error');
    // A misspelt close of an element that has children: a close of what, exactly?
    expect(parseFeed(rss('', '<item><guid>a</guid></itme>')).kind).toBe('error');
    // Closing an ancestor outside any item would drop the channel's own elements.
    expect(parseFeed('<rss version="2.0"><channel><title>t</title><image><url>u</url></rss>').kind).toBe(
      'error',
    );
    // A well-formed feed carries no note.
    expect(read(rss('<language>en-us</language>')).notes).toEqual([]);
  });

  it('keeps every guard against entity tricks while repairing', () => {
    const doc = `<!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
      <!ENTITY x SYSTEM "file:///etc/passwd">]>${rss('<language>&c;&x;</langauge>')}`;
    const r = read(doc);
    expect(r.feed.language).toBe('&c;&x;');
    expect(r.notes.map((n) => n.code)).toEqual(['feed.repaired']);
  });
});

describe('RSS <author> with markup', () => {
  it('is read as its text', () => {
    expect(rssItem('<author><p>Item Author</p></author>').authors).toEqual([
      { name: 'Item Author', email: null, uri: null },
    ]);
    expect(rssItem('<author>Item <b>Author</b></author>').authors[0]!.name).toBe('Item Author');
    expect(rssItem('<author><i>Ann</i> (ann@example.com)</author>').authors[0]).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      uri: null,
    });
  });
});

describe('Atom content of a media type that is neither text nor XML', () => {
  it('is decoded only when it is valid Base64; otherwise kept as text, with a note', () => {
    const r = read(atom('', '<content type="application/json">{"a":1}</content>'));
    expect(r.feed.items[0]!.content).toBe('{&quot;a&quot;:1}');
    expect(r.notes.map((n) => n.code)).toEqual(['feed.contentNotBase64']);
    const b64 = Buffer.from('{"a":1}').toString('base64');
    const ok = read(atom('', `<content type="application/json">${b64}</content>`));
    expect(ok.feed.items[0]!.content).toBe('{"a":1}');
    expect(ok.notes).toEqual([]);
  });
});

describe('a title of an unknown media type', () => {
  it('is read as text', () => {
    expect(atomEntry('<title type="application/x-custom">test</title>').title).toBe('test');
    expect(feedOf(atom('', '')).title).toBe('f');
  });
});

describe('C0 control characters', () => {
  it('are dropped from titles and text, raw or as references; tab and newline stay', () => {
    const item = rssItem(
      '<title>a\u0008b&#8;c&#x1F;d</title><author>An\u0001n</author><description>x&#11;y\tz\nw</description>',
    );
    expect(item.title).toBe('abcd');
    expect(item.authors[0]!.name).toBe('Ann');
    expect(item.summary).toBe('xy\tz\nw');
    expect(atomEntry('<title type="html">&lt;b&gt;F\u0002&lt;/b&gt;</title>').title).toBe('F');
    const json = parseFeed(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'T\u0007',
        items: [{ id: '1', title: 'i\u0002t' }],
      }),
    );
    expect(json.kind === 'feed' && [json.feed.title, json.feed.items[0]!.title]).toEqual(['T', 'it']);
  });
});

describe('an empty author', () => {
  it('is no person', () => {
    expect(atomEntry('<author></author>').authors).toEqual([]);
    expect(atomEntry('<author><name> </name></author>').authors).toEqual([]);
    const atom03 = (author: string) =>
      feedOf(`<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>f</title><entry><id>e</id>
      <author>${author}</author></entry></feed>`).items[0]!.authors;
    expect(atom03('<homepage></homepage><nickname>x</nickname>')).toEqual([]);
    // An Atom 0.3 author with only a homepage is no longer all-null: its homepage is its address.
    expect(atom03('<homepage>https://home.test/</homepage>')).toEqual([
      { name: null, email: null, uri: 'https://home.test/' },
    ]);
    expect(rssItem('<author></author>').authors).toEqual([]);
  });
});

describe('href="" under xml:base', () => {
  it('is the base itself (RFC 3986)', () => {
    const feed = feedOf(atom('<link rel="self" href="" xml:base="https://b.test/dir/feed.xml"/>'));
    expect(feed.self).toBe('https://b.test/dir/feed.xml');
    const inherited = feedOf(
      `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://b.test/x/"><link rel="alternate" href=""/></feed>`,
    );
    expect(inherited.link).toBe('https://b.test/x/');
  });
});

describe('Atom <generator>', () => {
  it('keeps its uri and version', () => {
    const feed = feedOf(atom('<generator uri="https://gen.test/" version="1.2">Gen</generator>'));
    expect(feed.generator).toBe('Gen');
    expect(feed.generatorDetail).toEqual({ name: 'Gen', uri: 'https://gen.test/', version: '1.2' });
    const bare = feedOf(atom('<generator uri="https://gen.test/" version="2.0"/>'));
    expect(bare.generator).toBe('https://gen.test/');
    expect(bare.generatorDetail).toEqual({ name: null, uri: 'https://gen.test/', version: '2.0' });
    const onlyVersion = feedOf(atom('<generator version="3"/>'));
    expect(onlyVersion.generatorDetail).toEqual({ name: null, uri: null, version: '3' });
    expect(feedOf(atom('')).generatorDetail).toBeNull();
  });
});
