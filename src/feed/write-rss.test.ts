import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ATOM_NS, type RssChannelInput, rfc822, SOURCE_NS, writeRss } from './write-rss.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  // Numeric character references (&#13;) are decoded only with htmlEntities on.
  htmlEntities: true,
  isArray: (name) => ['item', 'category', 'atom:link'].includes(name),
});

// biome-ignore lint/suspicious/noExplicitAny: a parsed document is untyped by nature
function parse(xml: string): any {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml);
}

const HOSTILE = `]]></description><script>alert("x")</script> & &amp; &lt;b&gt; 'q' "dq" <![CDATA[ x ]]> \r\n\t end`;

const full: RssChannelInput = {
  title: 'LifeLiner & friends',
  link: 'https://me.example/',
  description: 'Short posts',
  language: 'en-us',
  generator: 'Tidings 0.1.0',
  lastBuildDate: Date.UTC(2024, 1, 29, 23, 59, 58),
  ttl: 60,
  cloud: {
    domain: 'rpc.rsscloud.io',
    port: 5337,
    path: '/pleaseNotify',
    registerProcedure: '',
    protocol: 'http-post',
  },
  selfUrl: 'https://me.example/rss.xml',
  hubs: ['https://hub.example/', 'https://hub2.example/?a=1&b=2'],
  sourceCloudUrl: 'https://rpc.rsscloud.io:5337/pleaseNotify',
  items: [
    {
      title: null,
      description: 'Hello <b>world</b> & all',
      guid: 'https://me.example/2024/02/29/1',
      pubDate: Date.UTC(2024, 1, 29, 12, 0, 0),
      enclosure: { url: 'https://me.example/a.mp3?x=1&y=2', type: 'audio/mpeg', length: 12345 },
      categories: ['news', 'a & b'],
      comments: 'https://me.example/c/1',
    },
    { title: 'Second', link: 'https://me.example/2', guid: 'post-2', guidIsPermaLink: false },
  ],
};

describe('writeRss', () => {
  it('writes a well-formed RSS 2.0 channel that parses back to what went in', () => {
    const doc = parse(writeRss(full));
    expect(doc.rss['@version']).toBe('2.0');
    expect(doc.rss['@xmlns:atom']).toBe(ATOM_NS);
    expect(doc.rss['@xmlns:source']).toBe(SOURCE_NS);
    const ch = doc.rss.channel;
    expect(ch.title).toBe('LifeLiner & friends');
    expect(ch.link).toBe('https://me.example/');
    expect(ch.description).toBe('Short posts');
    expect(ch.language).toBe('en-us');
    expect(ch.generator).toBe('Tidings 0.1.0');
    expect(ch.lastBuildDate).toBe('Thu, 29 Feb 2024 23:59:58 GMT');
    expect(ch.ttl).toBe('60');
    expect(ch['atom:link']).toEqual([
      { '@href': 'https://me.example/rss.xml', '@rel': 'self', '@type': 'application/rss+xml' },
      { '@href': 'https://hub.example/', '@rel': 'hub' },
      { '@href': 'https://hub2.example/?a=1&b=2', '@rel': 'hub' },
    ]);
    expect(ch['source:cloud']).toBe('https://rpc.rsscloud.io:5337/pleaseNotify');

    const [first, second] = ch.item;
    expect(first).toEqual({
      description: 'Hello <b>world</b> & all',
      pubDate: 'Thu, 29 Feb 2024 12:00:00 GMT',
      guid: { '#text': 'https://me.example/2024/02/29/1', '@isPermaLink': 'true' },
      enclosure: { '@url': 'https://me.example/a.mp3?x=1&y=2', '@length': '12345', '@type': 'audio/mpeg' },
      category: ['news', 'a & b'],
      comments: 'https://me.example/c/1',
    });
    expect(second).toEqual({
      title: 'Second',
      link: 'https://me.example/2',
      guid: { '#text': 'post-2', '@isPermaLink': 'false' },
    });
  });

  it('writes the cloud element with exactly the five attributes, in order', () => {
    const xml = writeRss(full);
    expect(xml).toContain(
      '<cloud domain="rpc.rsscloud.io" port="5337" path="/pleaseNotify" registerProcedure="" protocol="http-post"/>',
    );
    const cloud = parse(xml).rss.channel.cloud;
    expect(cloud).toEqual({
      '@domain': 'rpc.rsscloud.io',
      '@port': '5337',
      '@path': '/pleaseNotify',
      '@registerProcedure': '',
      '@protocol': 'http-post',
    });
    const xmlRpc = writeRss({
      ...full,
      cloud: {
        domain: 'a"b',
        port: 80,
        path: '/RPC2',
        registerProcedure: 'rssCloud.pleaseNotify',
        protocol: 'xml-rpc',
      },
    });
    expect(xmlRpc).toContain(
      '<cloud domain="a&quot;b" port="80" path="/RPC2" registerProcedure="rssCloud.pleaseNotify" protocol="xml-rpc"/>',
    );
  });

  it('escapes hostile strings everywhere and reads them back unchanged', () => {
    const xml = writeRss({
      title: HOSTILE,
      link: `https://e.x/?a=${HOSTILE}`,
      description: HOSTILE,
      generator: HOSTILE,
      selfUrl: `https://e.x/"><evil a="`,
      cloud: { domain: HOSTILE, port: 80, path: HOSTILE, registerProcedure: HOSTILE, protocol: HOSTILE },
      items: [
        {
          title: HOSTILE,
          description: HOSTILE,
          link: HOSTILE,
          guid: HOSTILE,
          categories: [HOSTILE],
          comments: HOSTILE,
          enclosure: { url: HOSTILE, type: HOSTILE, length: 1 },
        },
      ],
    });
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('<![CDATA[');
    expect(xml).not.toMatch(/\]\]>/);
    const ch = parse(xml).rss.channel;
    for (const value of [
      ch.title,
      ch.description,
      ch.generator,
      ch.cloud['@domain'],
      ch.cloud['@path'],
      ch.cloud['@protocol'],
      ch.item[0].title,
      ch.item[0].description,
      ch.item[0].guid['#text'],
      ch.item[0].category[0],
      ch.item[0].enclosure['@url'],
      ch.item[0].enclosure['@type'],
    ]) {
      expect(value).toBe(HOSTILE);
    }
    expect(ch['atom:link'][0]['@href']).toBe(`https://e.x/"><evil a="`);
  });

  it('drops characters XML 1.0 cannot carry instead of writing a broken feed', () => {
    const xml = writeRss({
      title: 'nul\u0000 bell\u0007 lone\uD800 surrogate \uFFFF ok 🎉',
      link: 'https://e.x/',
      description: 'd',
      items: [{ description: 'x\u001By', guid: 'g\u0001' }],
    });
    const ch = parse(xml).rss.channel;
    expect(ch.title).toBe('nul bell lone surrogate  ok 🎉');
    expect(ch.item[0].description).toBe('xy');
    expect(ch.item[0].guid['#text']).toBe('g');
  });

  it('leaves out what was not given, and declares only the namespaces it uses', () => {
    const xml = writeRss({
      title: 't',
      link: 'https://e.x/',
      description: 'd',
      language: null,
      ttl: null,
      items: [{ guid: 'g' }],
    });
    expect(xml).not.toMatch(
      /xmlns:atom|xmlns:source|<cloud|<ttl|<language|<lastBuildDate|<generator|<pubDate/,
    );
    const ch = parse(xml).rss.channel;
    // An item needs a title or a description: one with neither gets an empty description.
    expect(ch.item[0]).toEqual({ description: '', guid: { '#text': 'g', '@isPermaLink': 'false' } });
  });

  it('is deterministic: the same input gives the same bytes', () => {
    const copy = structuredClone(full);
    expect(writeRss(copy)).toBe(writeRss(full));
    expect(writeRss({ ...full, items: [...full.items].reverse() })).not.toBe(writeRss(full));
  });

  it.each([
    [0, 'Thu, 01 Jan 1970 00:00:00 GMT'],
    [Date.UTC(1994, 10, 15, 8, 12, 31), 'Tue, 15 Nov 1994 08:12:31 GMT'],
    [Date.UTC(2030, 11, 31, 23, 59, 59, 999), 'Tue, 31 Dec 2030 23:59:59 GMT'],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [9e15, null],
    [null, null],
  ])('rfc822(%s) = %s', (ms, expected) => {
    expect(rfc822(ms)).toBe(expected);
    if (expected !== null)
      expect(expected).toMatch(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/,
      );
  });

  it('writes whole, non-negative numbers for ttl, port and length', () => {
    const xml = writeRss({
      ...full,
      ttl: 30.7,
      cloud: { ...full.cloud!, port: 443.2 },
      items: [
        { guid: 'g', description: 'd', enclosure: { url: 'https://e.x/a', type: 'audio/mpeg', length: -5 } },
      ],
    });
    expect(xml).toContain('<ttl>30</ttl>');
    expect(xml).toContain('port="443"');
    expect(xml).toContain('length="0"');
  });
});
