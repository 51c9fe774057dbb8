/**
 * Round trip: every format we write parses back, through our own parser, into exactly what was
 * written, over many generated posts with hostile text (property style, seeded so a failure
 * replays). Inputs go through checkPostInput first: what is stored is what must come back.
 */
import { describe, expect, it } from 'vitest';
import type { PostInput } from '../app/api.ts';
import type { Item } from '../feed/model.ts';
import { parseFeed } from '../feed/parse.ts';
import { seededRandom } from '../testing/seeded.ts';
import { checkPostInput, type PostContent, type StoredPost } from './post.ts';
import { enclosureUrl, type SiteInput } from './site.ts';
import { postHtml } from './text.ts';
import { writePostsAtom } from './write-atom.ts';
import { writeHome } from './write-home.ts';
import { writePostsJson } from './write-json.ts';
import { writePostsRss } from './write-rss.ts';

const PIECES = [
  '<',
  '>',
  '&',
  '&amp;',
  ']]>',
  '"',
  "'",
  '<![CDATA[x]]>',
  '<b>bold</b>',
  '<script>alert(1)</script>',
  '😀',
  '👨‍👩‍👧‍👦',
  '🇫🇷',
  'e\u0301',
  'שלום עולם',
  'مرحبا',
  '\u202e',
  '\u0000',
  '\u0007',
  '\u001f',
  '\uD800',
  '\uDC00',
  '\uFFFE',
  '\r\n',
  '\r',
  '\n',
  '\t',
  '  ',
  'word',
  'http://example.com/a?b=1&c=2',
  'https://x.test/(paren)',
  'see https://ex.am/ple.',
  '&#x26;',
  '&lt;',
  '\\',
  '%',
  '中文',
  '\u00a0',
];

function hostileText(r: () => number): string {
  let s = '';
  const n = 1 + Math.floor(r() * 12);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s.trim() === '' || s.replace(/[\u0000-\u001f\uD800-\uDFFF\uFFFE\s]/g, '') === '' ? `${s}x` : s;
}

function genInput(r: () => number, depth: number): PostInput {
  const input: PostInput = { text: hostileText(r) };
  if (r() < 0.5) {
    const long = r() < 0.2 ? 'a'.repeat(10_000) : 'p';
    input.link = `https://example.com/${long}?q=${encodeURIComponent(hostileText(r).replace(/[\uD800-\uDFFF]/g, ''))}&x=<>`;
  }
  if (r() < 0.5) input.tags = [hostileText(r).replace(/\s+/g, ' '), 'news'];
  if (depth < 3 && r() < 0.4) {
    input.children = Array.from({ length: 1 + Math.floor(r() * 3) }, () => genInput(r, depth + 1));
  }
  return input;
}

function toContent(input: PostInput, r: () => number): PostContent {
  const checked = checkPostInput(input, 10_000);
  if (!checked.ok) throw new Error(`generator made a refused post: ${checked.error.message}`);
  return {
    ...checked.value,
    enclosure:
      r() < 0.4
        ? {
            url: `https://cdn.example.com/${Math.floor(r() * 1e6)}.mp3?a=1&b=2`,
            file: null,
            type: 'audio/mpeg',
            length: Math.floor(r() * 1e9),
          }
        : null,
    children: checked.value.children.map((c) => toContent(c, r)),
  };
}

function genPosts(seed: number, n: number): StoredPost[] {
  const r = seededRandom(seed);
  const base = Date.UTC(2026, 3, 1, 12);
  return Array.from({ length: n }, (_, i) => ({
    ...toContent(genInput(r, 0), r),
    id: n - i,
    guid: `tidings-test:${seed}:${n - i}`,
    createdAt: base - i * 61_000,
    updatedAt: base - i * 61_000 + (r() < 0.3 ? 5_000 : 0),
    rev: 1,
  }));
}

function site(posts: StoredPost[]): SiteInput {
  return {
    title: 'Tests & things',
    description: 'Hostile "text" ]]> here',
    link: 'https://me.example.com/',
    language: 'en',
    generator: 'Tidings test',
    urls: {
      rss: 'https://me.example.com/feed.xml',
      atom: 'https://me.example.com/feed.atom',
      json: 'https://me.example.com/feed.json',
      home: 'https://me.example.com/',
    },
    cloud: {
      domain: 'rpc.rsscloud.io',
      port: 5337,
      path: '/pleaseNotify',
      registerProcedure: '',
      protocol: 'http-post',
    },
    hubs: ['https://hub.example.net/', 'https://me.example.com/cloud/websub'],
    mediaBase: 'https://me.example.com/media',
    posts,
    blogroll: null,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const secs = (ms: number) => iso(Math.floor(ms / 1000) * 1000);

interface Shape {
  html: string;
  link: string | null;
  enclosures: { url: string; type: string | null; length: number | null }[];
  tags: string[];
  children: Shape[];
}

function expected(p: PostContent, withChildren: boolean): Shape {
  const url = p.enclosure ? enclosureUrl(p.enclosure, 'https://me.example.com/media') : null;
  return {
    html: postHtml(p.text),
    link: p.link,
    enclosures: p.enclosure && url ? [{ url, type: p.enclosure.type, length: p.enclosure.length }] : [],
    tags: p.tags,
    children: withChildren ? p.children.map((c) => expected(c, true)) : [],
  };
}

function actual(item: Item, field: 'summary' | 'content'): Shape {
  return {
    html: item[field] ?? '',
    link: item.link,
    enclosures: item.enclosures.map((e) => ({ url: e.url, type: e.type, length: e.length })),
    tags: item.categories.map((c) => c.term),
    children: item.children.map((c) => actual(c, field)),
  };
}

function parse(text: string, contentType: string) {
  const result = parseFeed(text, { contentType });
  if (result.kind !== 'feed') throw new Error(`did not parse: ${JSON.stringify(result).slice(0, 300)}`);
  return result.feed;
}

describe('every format parses back into what was written', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const posts = genPosts(seed, 25);

    it(`RSS 2.0, seed ${seed} (with nested rssCloud:items)`, () => {
      const feed = parse(writePostsRss(site(posts)), 'application/rss+xml');
      expect(feed.format).toBe('rss2.0');
      expect(feed.title).toBe('Tests & things');
      expect(feed.cloud?.domain).toBe('rpc.rsscloud.io');
      expect(feed.self).toBe('https://me.example.com/feed.xml');
      expect(feed.hubs).toEqual(['https://hub.example.net/', 'https://me.example.com/cloud/websub']);
      expect(feed.items.map((i) => i.id)).toEqual(posts.map((p) => p.guid));
      expect(feed.items.map((i) => i.published)).toEqual(posts.map((p) => secs(p.createdAt)));
      expect(feed.items.map((i) => actual(i, 'summary'))).toEqual(posts.map((p) => expected(p, true)));
    });

    it(`Atom 1.0, seed ${seed}`, () => {
      const feed = parse(writePostsAtom(site(posts)), 'application/atom+xml');
      expect(feed.format).toBe('atom1.0');
      expect(feed.hubs).toEqual(['https://hub.example.net/', 'https://me.example.com/cloud/websub']);
      expect(feed.items.map((i) => i.id)).toEqual(posts.map((p) => p.guid));
      expect(feed.items.map((i) => i.published)).toEqual(posts.map((p) => secs(p.createdAt)));
      expect(feed.items.map((i) => i.updated)).toEqual(posts.map((p) => secs(p.updatedAt)));
      expect(feed.items.map((i) => actual(i, 'content'))).toEqual(posts.map((p) => expected(p, false)));
    });

    it(`JSON Feed 1.1, seed ${seed}`, () => {
      const feed = parse(writePostsJson(site(posts)), 'application/feed+json');
      expect(feed.format).toBe('json1.1');
      expect(feed.hubs).toEqual(['https://hub.example.net/', 'https://me.example.com/cloud/websub']);
      expect(feed.items.map((i) => i.id)).toEqual(posts.map((p) => p.guid));
      expect(feed.items.map((i) => actual(i, 'content'))).toEqual(posts.map((p) => expected(p, false)));
    });
  }

  it('the same posts give the same bytes (clouds hash the body)', () => {
    const a = genPosts(9, 25);
    const b = genPosts(9, 25);
    expect(writePostsRss(site(a))).toBe(writePostsRss(site(b)));
    expect(writePostsAtom(site(a))).toBe(writePostsAtom(site(b)));
    expect(writePostsJson(site(a))).toBe(writePostsJson(site(b)));
  });

  it('the home page names all three feeds for autodiscovery', () => {
    const html = writeHome(site(genPosts(10, 3)));
    expect(html).toContain('<link rel="alternate" type="application/rss+xml"');
    expect(html).toContain('<link rel="alternate" type="application/atom+xml"');
    expect(html).toContain('<link rel="alternate" type="application/feed+json"');
    expect(html).not.toContain('<script>');
    const nested = writeHome(
      site([
        {
          ...genPosts(11, 1)[0]!,
          text: 'top',
          children: [
            {
              text: 'child <1>',
              link: null,
              enclosure: null,
              tags: [],
              children: [{ text: 'grandchild', link: null, enclosure: null, tags: [], children: [] }],
            },
          ],
        },
      ]),
    );
    expect(nested).toContain('<ul><li>child &lt;1&gt;<ul><li>grandchild</li></ul></li></ul>');
  });

  it('cleans input so it can be carried: controls and lone surrogates dropped, CRLF folded', () => {
    const c = checkPostInput({ text: ' a\u0000b\uD800c\r\nd\u0007 ' }, 140);
    expect(c.ok && c.value.text).toBe('abc\nd');
  });

  it('refuses a post over the limit with the reason, counting graphemes', () => {
    const c = checkPostInput({ text: '👨‍👩‍👧‍👦'.repeat(141) }, 140);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error.message).toBe('The post is 141 characters; the limit is 140 (1 over).');
  });
});
