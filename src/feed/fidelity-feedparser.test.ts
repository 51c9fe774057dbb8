/**
 * Parser fidelity, second round against feedparser's suite (issue 14), each with a small feed of
 * our own. Each case failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import type { Feed, Item } from './model.ts';
import { parseFeed } from './parse.ts';
import type { ParseOptions, ParseResult } from './parse-types.ts';

function read(body: Uint8Array | string, opts?: ParseOptions): Extract<ParseResult, { kind: 'feed' }> {
  const r = parseFeed(body, opts);
  if (r.kind !== 'feed') throw new Error(`expected a feed, got ${JSON.stringify(r).slice(0, 400)}`);
  return r;
}
const feedOf = (body: Uint8Array | string, opts?: ParseOptions): Feed => read(body, opts).feed;
const DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"';
const rssItem = (inner: string, opts?: ParseOptions): Item =>
  feedOf(`<rss version="2.0" ${DC}><channel><title>c</title><item>${inner}</item></channel></rss>`, opts)
    .items[0]!;
const atomEntry = (inner: string): Item =>
  feedOf(`<feed xmlns="http://www.w3.org/2005/Atom"><title>f</title><entry><id>e</id>${inner}</entry></feed>`)
    .items[0]!;

describe('relative URLs inside HTML content', () => {
  it('resolve against xml:base, as links do', () => {
    const feed = feedOf(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://content.test/x/">
      <entry><id>1</id><link href="https://elsewhere.test/post"/>
      <content type="html">&lt;p&gt;&lt;a href="rel.html"&gt;r&lt;/a&gt; &lt;img src='/img/a.png' alt="a"&gt;&lt;/p&gt;</content>
      <summary type="xhtml" xml:base="https://summary.test/s/"><div xmlns="http://www.w3.org/1999/xhtml"><a href="s.html">s</a></div></summary>
      </entry></feed>`);
    const item = feed.items[0]!;
    expect(item.content).toBe(
      '<p><a href="https://content.test/x/rel.html">r</a> <img src=\'https://content.test/img/a.png\' alt="a"></p>',
    );
    expect(item.summary).toBe('<a href="https://summary.test/s/s.html">s</a>');
  });

  it('resolve against the document URL in RSS; absolute URLs, fragments and text stay as written', () => {
    const item = rssItem(
      `<description>&lt;a href="../up"&gt;u&lt;/a&gt; &lt;a href="#fn1"&gt;1&lt;/a&gt; &lt;a href="mailto:x@y.test"&gt;m&lt;/a&gt;
       &lt;a href="https://abs.test/a?b=1&amp;amp;c=2"&gt;a&lt;/a&gt; &lt;code&gt;href="rel.html"&lt;/code&gt;</description>
       <content:encoded><![CDATA[<img srcset="a.png 1x, /b.png 2x" src=c.png>]]></content:encoded>`.replace(
        '<content:encoded>',
        '<content:encoded xmlns:content="http://purl.org/rss/1.0/modules/content/">',
      ),
      { url: 'https://feed.test/blog/rss.xml' },
    );
    expect(item.summary).toBe(
      '<a href="https://feed.test/up">u</a> <a href="#fn1">1</a> <a href="mailto:x@y.test">m</a>\n       <a href="https://abs.test/a?b=1&amp;c=2">a</a> <code>href="rel.html"</code>',
    );
    expect(item.content).toBe(
      '<img srcset="https://feed.test/blog/a.png 1x, https://feed.test/b.png 2x" src=https://feed.test/blog/c.png>',
    );
  });
});

describe('an unquoted attribute holding a quote', () => {
  it('does not leak the raw tag into a title', () => {
    expect(rssItem('<title>&lt;b class=a"b&gt;Bold&lt;/b&gt; tail</title>').title).toBe('Bold tail');
    expect(atomEntry(`<title type="html">&lt;i data-x=it's&gt;It&lt;/i&gt; here</title>`).title).toBe(
      'It here',
    );
  });
});

describe('an internal DTD entity', () => {
  it('is expanded where it is used', () => {
    const feed = feedOf(`<?xml version="1.0"?>
      <!DOCTYPE rss [<!ENTITY id "urn:example:1"><!ENTITY who 'Ann &amp; Bob'><!ENTITY copy "&#169; 2024">]>
      <rss version="2.0"><channel><title>&who; &copy;</title><link>https://x.test/?a=&id;</link>
      <item><guid>&id;</guid><title>By &who;</title><description><![CDATA[&id;]]></description></item></channel></rss>`);
    expect(feed.title).toBe('Ann & Bob © 2024');
    expect(feed.link).toBe('https://x.test/?a=urn:example:1');
    expect(feed.items[0]!.id).toBe('urn:example:1');
    expect(feed.items[0]!.title).toBe('By Ann & Bob');
    expect(feed.items[0]!.summary).toBe('&id;'); // CDATA is not markup
  });

  it('stays bounded: no nesting, no markup, no external entities, a cap on what expansion adds', () => {
    const big = 'x'.repeat(1000);
    const refs = '&big;'.repeat(5000); // 5 MB if every one were expanded
    const feed =
      feedOf(`<!DOCTYPE rss [<!ENTITY big "${big}"><!ENTITY nest "&big;&big;"><!ENTITY tag "<b>x</b>">
      <!ENTITY ext SYSTEM "file:///etc/hostname">]>
      <rss version="2.0"><channel><title>&nest;&tag;&ext;</title><item><guid>1</guid><description>${refs}</description></item></channel></rss>`);
    expect(feed.title).toBe('&nest;&tag;&ext;');
    const summary = feed.items[0]!.summary!;
    expect(summary.length).toBeLessThan(1_200_000);
    expect(summary.startsWith(big)).toBe(true);
    expect(summary.endsWith('&big;')).toBe(true);
  });
});

describe('Atom type="html" and XHTML content', () => {
  it('type="html" whose text is a child <div> shows no literal tags', () => {
    const item = atomEntry(
      '<content type="html"><div xmlns="http://www.w3.org/1999/xhtml">Example &lt;b&gt;Atom&lt;/b&gt;</div></content>',
    );
    expect(item.content).toBe('Example <b>Atom</b>');
    const title = atomEntry(
      '<title type="html"><div xmlns="http://www.w3.org/1999/xhtml">Example &lt;b&gt;Atom&lt;/b&gt;</div></title>',
    ).title;
    expect(title).toBe('Example Atom');
    // Real markup in the div is kept as it is.
    expect(atomEntry('<content type="html"><div><p>Inline</p></div></content>').content).toBe(
      '<div><p>Inline</p></div>',
    );
  });

  it('a self-closed non-void element in XHTML becomes open + close in HTML', () => {
    const item = atomEntry(
      '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://v.test/e"/><p>after</p><div class="x"/>tail<br/><img src="https://i.test/a.png" /><svg><circle r="1"/></svg></div></content>',
    );
    expect(item.content).toBe(
      '<iframe src="https://v.test/e"></iframe><p>after</p><div class="x"></div>tail<br/><img src="https://i.test/a.png" /><svg><circle r="1"/></svg>',
    );
  });
});

describe('authors and links in less common shapes', () => {
  it('reads dc:author as an author', () => {
    expect(rssItem('<dc:author>Dee (dee@example.com)</dc:author>').authors).toEqual([
      { name: 'Dee', email: 'dee@example.com', uri: null },
    ]);
  });

  it('reads an Atom <link> with the address as its text and no href', () => {
    expect(atomEntry('<link>https://l.test/a</link>').link).toBe('https://l.test/a');
    const feed = feedOf(
      '<feed xmlns="http://www.w3.org/2005/Atom"><link rel="self">https://l.test/feed</link></feed>',
    );
    expect(feed.self).toBe('https://l.test/feed');
  });
});

describe('the encoding note', () => {
  it('does not say the feed declared UTF-8 when it declared nothing (a guess, issue 34)', () => {
    const body = Buffer.from('<rss version="2.0"><channel><title>caf\xe9</title></channel></rss>', 'latin1');
    const r = read(body);
    expect(r.feed.title).toBe('café');
    expect(r.notes[0]!.code).toBe('feed.encodingGuessed');
    expect(r.notes[0]!.message).not.toMatch(/says it is/);
    expect(r.notes[0]!.message).toMatch(/does not say its encoding/);
    const declared = read(body, { contentType: 'text/xml; charset=utf-8' });
    expect(declared.notes[0]!.message).toMatch(/says it is utf-8/);
  });
});

describe('what else feedparser’s suite showed (spec-silent shapes a reader expects)', () => {
  it('an Atom 0.3 author’s <homepage> and a generator’s url attribute are addresses', () => {
    const feed = feedOf(`<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>f</title>
      <generator url="https://gen.test/" version="1">Gen</generator>
      <entry><id>e</id><author><name>Ann</name><homepage>https://ann.test/</homepage></author></entry></feed>`);
    expect(feed.items[0]!.authors).toEqual([{ name: 'Ann', email: null, uri: 'https://ann.test/' }]);
    expect(feed.generatorDetail).toEqual({ name: 'Gen', uri: 'https://gen.test/', version: '1' });
  });

  it('itunes:image with a url attribute, itunes:subtitle as the description, media:title as the title', () => {
    const feed =
      feedOf(`<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/"><channel>
      <title>c</title><itunes:subtitle>Sub</itunes:subtitle><itunes:image url="https://i.test/c.png"/>
      <item><guid>1</guid><media:title>Media title</media:title><itunes:image url="https://i.test/1.png"/></item></channel></rss>`);
    expect(feed.description).toBe('Sub');
    expect(feed.image?.url).toBe('https://i.test/c.png');
    expect(feed.items[0]!.title).toBe('Media title');
    expect(feed.items[0]!.podcast?.image).toBe('https://i.test/1.png');
  });
});

describe('Atom 0.3 under a draft namespace', () => {
  it('is read as Atom 0.3 when its root says version="0.3" (Echo, Pie and Necho feeds of 2003)', () => {
    const feed = feedOf(
      '<feed version="0.3" xmlns="http://purl.org/pie/"><title>Pie</title><entry><id>1</id></entry></feed>',
    );
    expect([feed.format, feed.title, feed.items.length]).toEqual(['atom0.3', 'Pie', 1]);
    // Without version="0.3", another namespace is another format.
    expect(parseFeed('<feed xmlns="http://example.com/other"><title>x</title></feed>').kind).toBe('error');
  });
});
