import { readFileSync } from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { type OpmlSubscription, parseOpml, stripUserinfo, writeOpml } from './opml.ts';

const fixture = (name: string) => readFileSync(new URL(`./testdata/opml/${name}`, import.meta.url), 'utf8');

function parsed(text: string) {
  const r = parseOpml(text);
  if (!r.ok) throw new Error(`expected OPML, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('parseOpml', () => {
  it('reads a feedly export with folders', () => {
    expect(parsed(fixture('feedly-2.0.opml'))).toEqual({
      title: 'Alice subscriptions in feedly Cloud',
      subscriptions: [
        {
          url: 'https://feeds.arstechnica.com/arstechnica/index',
          title: 'Ars Technica',
          siteUrl: 'https://arstechnica.com',
          folder: 'Tech',
        },
        {
          url: 'https://daringfireball.net/feeds/main',
          title: 'Daring Fireball',
          siteUrl: 'https://daringfireball.net/',
          folder: 'Tech',
        },
        {
          url: 'http://feeds.bbci.co.uk/news/rss.xml',
          title: 'BBC News - Home',
          siteUrl: 'https://www.bbc.co.uk/news/',
          folder: 'News',
        },
      ],
    });
  });

  it('accepts OPML 1.0 quirks: attribute case, missing type, title attr, nesting, duplicates', () => {
    expect(parsed(fixture('mixed-1.0.opml'))).toEqual({
      title: 'mySubscriptions.opml',
      subscriptions: [
        {
          url: 'http://scripting.com/rss.xml',
          title: 'Scripting News',
          siteUrl: 'http://scripting.com/',
          folder: null,
        },
        { url: 'https://example.org/atom.xml', title: 'Atom feed', siteUrl: null, folder: null },
        {
          url: 'https://example.com/a?x=1&y=2',
          title: 'Nested & escaped <3',
          siteUrl: null,
          folder: 'Folders/Deep/Deeper',
        },
        {
          url: 'https://example.com/unnamed.xml',
          title: 'In an unnamed folder',
          siteUrl: null,
          folder: 'Folders',
        },
      ],
    });
  });

  it('reads upper-case names, a BOM and a CDATA title', () => {
    expect(parsed(fixture('bom-upper.opml'))).toEqual({
      title: 'Bom & <CDATA> title',
      subscriptions: [
        {
          url: 'https://example.com/upper.xml',
          title: 'Upper',
          siteUrl: 'https://example.com/',
          folder: null,
        },
      ],
    });
  });

  it('never expands DOCTYPE entities (billion laughs, external entities)', () => {
    const doc = parsed(fixture('billion-laughs.opml'));
    expect(doc.title).toBe('&lol9;');
    expect(doc.subscriptions).toEqual([
      { url: 'https://example.com/&lol9;', title: '&lol9;', siteUrl: null, folder: null },
      { url: 'https://example.com/xxe', title: '&xxe;', siteUrl: null, folder: null },
    ]);
  });

  it('decodes predefined entities and character references once, not twice', () => {
    const doc = parsed(
      '<opml version="2.0"><body><outline text="&amp;lt; &#233;&#x263A; &#39;" xmlUrl="https://e.x/?a=1&amp;amp;b"/></body></opml>',
    );
    expect(doc.subscriptions[0]).toEqual({
      url: 'https://e.x/?a=1&amp;b',
      title: "&lt; é☺ '",
      siteUrl: null,
      folder: null,
    });
    expect(doc.title).toBeNull();
  });

  it('decodes HTML entity names that careless exporters leave in, and leaves unknown ones alone', () => {
    const doc = parsed(
      '<opml><body><outline text="Caf&eacute; &mdash; &bogus; &#150;" xmlUrl="u"/></body></opml>',
    );
    expect(doc.subscriptions[0]?.title).toBe('Café — &bogus; –');
  });

  it.each([
    ['not-opml.html', 'opml.notOpml', /starts with <html>/],
    ['rss-not-opml.xml', 'opml.notOpml', /starts with <rss>/],
    ['no-body.opml', 'opml.notOpml', /no <body>/],
    ['truncated.opml', 'opml.malformed', /damaged \(line \d+, column \d+\)/],
  ])('refuses %s with %s', (name, code, message) => {
    const r = parseOpml(fixture(name));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.message).toMatch(message);
  });

  it.each([
    ['', 'opml.notOpml'],
    ['just some words', 'opml.notOpml'],
    ['{"json": true}', 'opml.notOpml'],
    ['<opml><body><outline text="a" xmlUrl="x"></body></opml>', 'opml.malformed'],
    ['<opml><body><outline text="a" xmlUrl="x"/></body>', 'opml.malformed'],
  ])('refuses %j with %s', (text, code) => {
    const r = parseOpml(text);
    expect(r.ok ? 'ok' : r.error.code).toBe(code);
  });

  it('accepts an empty body', () => {
    expect(parsed('<opml version="2.0"><head/><body/></opml>')).toEqual({ title: null, subscriptions: [] });
  });
});

describe('writeOpml', () => {
  const awkward: OpmlSubscription[] = [
    {
      url: 'https://example.com/top.xml',
      title: 'Top & "level"',
      siteUrl: 'https://example.com/',
      folder: null,
    },
    {
      url: 'https://example.com/a.xml?x=1&y=<2>',
      title: "It's <b>bold</b> & 'quoted'",
      siteUrl: null,
      folder: 'News',
    },
    { url: 'https://example.com/b.xml', title: null, siteUrl: null, folder: 'News/Tech & Science' },
    {
      url: 'https://example.com/c.xml',
      title: 'Ünïcödé 日本語 emoji 🎉',
      siteUrl: null,
      folder: 'News/Tech & Science',
    },
    {
      url: 'https://example.com/d.xml',
      title: 'Tab\tand\nnewline inside',
      siteUrl: null,
      folder: 'News/Tech & Science/Deep "er"',
    },
    {
      url: 'https://example.com/e.xml',
      title: 'Back in News',
      siteUrl: 'https://example.com/e',
      folder: 'News',
    },
    { url: 'https://example.com/f.xml', title: 'Ελληνικά <>', siteUrl: null, folder: 'Ünïcödé <folder>' },
    { url: 'https://example.com/g.xml', title: 'Last at top', siteUrl: null, folder: null },
  ];

  it('round-trips nested folders, awkward characters and untitled feeds', () => {
    const doc = {
      title: 'Mine & yours <3 "ok" \'fine\' é',
      dateCreated: Date.UTC(2024, 0, 2, 3, 4, 5),
      subscriptions: awkward,
    };
    const xml = writeOpml(doc);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parseOpml(xml)).toEqual({ ok: true, value: { title: doc.title, subscriptions: awkward } });
  });

  it('writes OPML 2.0 with nested folder outlines and rss outlines', () => {
    const xml = writeOpml({
      title: 'T',
      dateCreated: Date.UTC(2024, 0, 2, 3, 4, 5),
      subscriptions: [
        { url: 'https://a.example/feed', title: 'A', siteUrl: 'https://a.example/', folder: 'X/Y' },
        { url: 'https://b.example/feed', title: null, siteUrl: null, folder: null },
      ],
    });
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<opml version="2.0">',
        '  <head>',
        '    <title>T</title>',
        '    <dateCreated>Tue, 02 Jan 2024 03:04:05 GMT</dateCreated>',
        '  </head>',
        '  <body>',
        '    <outline text="X" title="X">',
        '      <outline text="Y" title="Y">',
        '        <outline type="rss" text="A" title="A" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/>',
        '      </outline>',
        '    </outline>',
        '    <outline type="rss" text="https://b.example/feed" xmlUrl="https://b.example/feed"/>',
        '  </body>',
        '</opml>',
        '',
      ].join('\n'),
    );
  });

  it('gathers one folder under one outline even when its feeds are not listed together', () => {
    const xml = writeOpml({
      title: 'T',
      subscriptions: [
        { url: 'https://e.x/1', title: '1', siteUrl: null, folder: 'A' },
        { url: 'https://e.x/2', title: '2', siteUrl: null, folder: null },
        { url: 'https://e.x/3', title: '3', siteUrl: null, folder: 'A' },
      ],
    });
    expect(xml.match(/<outline text="A"/g)).toHaveLength(1);
    expect(parsed(xml).subscriptions.map((s) => s.url)).toEqual([
      'https://e.x/1',
      'https://e.x/3',
      'https://e.x/2',
    ]);
  });

  it('never writes credentials, even when a caller forgot to strip them', () => {
    const xml = writeOpml({
      title: 'T',
      subscriptions: [
        {
          url: 'https://alice:s3cret@private.example/feed?x=1',
          title: 'P',
          siteUrl: 'http://bob:pw@private.example/',
          folder: null,
        },
        { url: 'https://token@x.example/feed', title: 'Q', siteUrl: null, folder: null },
      ],
    });
    expect(xml).not.toMatch(/s3cret|alice|bob|pw@|token@/);
    expect(parsed(xml).subscriptions.map((s) => [s.url, s.siteUrl])).toEqual([
      ['https://private.example/feed?x=1', 'http://private.example/'],
      ['https://x.example/feed', null],
    ]);
  });

  it('exports only http(s) addresses: a javascript: htmlUrl is dropped, a non-web feed left out', () => {
    const xml = writeOpml({
      title: 'T',
      subscriptions: [
        {
          url: 'https://a.example/feed',
          title: 'A',
          siteUrl: 'javascript:alert(document.cookie)',
          folder: null,
        },
        { url: 'https://b.example/feed', title: 'B', siteUrl: ' JaVaScRiPt:alert(1)', folder: null },
        {
          url: 'https://c.example/feed',
          title: 'C',
          siteUrl: 'data:text/html,<script>x</script>',
          folder: null,
        },
        { url: 'javascript:alert(2)', title: 'D', siteUrl: null, folder: null },
        { url: 'https://e.example/feed', title: 'E', siteUrl: 'HTTPS://e.example/', folder: null },
      ],
    });
    expect(xml).not.toMatch(/javascript|data:/i);
    expect(parsed(xml).subscriptions.map((s) => [s.title, s.siteUrl])).toEqual([
      ['A', null],
      ['B', null],
      ['C', null],
      ['E', 'HTTPS://e.example/'],
    ]);
  });

  it('omits dateCreated when not given, and writes no bytes XML 1.0 forbids', () => {
    const xml = writeOpml({
      title: 'Bad \u0000\u0007 chars \uD800 here',
      subscriptions: [{ url: 'https://e.x/\u0001', title: 'x\u001F', siteUrl: null, folder: null }],
    });
    expect(xml).not.toContain('dateCreated');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parsed(xml)).toEqual({
      title: 'Bad  chars  here',
      subscriptions: [{ url: 'https://e.x/', title: 'x', siteUrl: null, folder: null }],
    });
  });
});

describe('stripUserinfo', () => {
  it.each([
    ['https://user:pass@host.example/path', 'https://host.example/path'],
    ['https://user@host.example', 'https://host.example'],
    ['https://u:p%40ss@host.example:8080/a@b?c=d@e', 'https://host.example:8080/a@b?c=d@e'],
    ['https://host.example/a@b', 'https://host.example/a@b'],
    ['https://u:p@h\\@evil', 'https://h\\@evil'],
    ['HTTP://A:B@Host/Path', 'HTTP://Host/Path'],
    ['not a url', 'not a url'],
  ])('%s -> %s', (input, expected) => {
    expect(stripUserinfo(input)).toBe(expected);
  });
});
