import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMMON_FEED_PATHS,
  type DiscoverDeps,
  discoverFeed,
  type FetchTextResult,
  findFeedLinks,
  findIconLink,
  MAX_DISCOVERY_REQUESTS,
  normaliseUserUrl,
} from './discover.ts';

describe('normaliseUserUrl', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  https://Example.COM/Feed  ', 'https://example.com/Feed'],
    ['http://example.com/rss.xml', 'http://example.com/rss.xml'],
    ['example.com/blog?x=1', 'https://example.com/blog?x=1'],
    ['feed://example.com/rss', 'http://example.com/rss'],
    ['feed:https://example.com/rss', 'https://example.com/rss'],
    ['FEED:http://example.com/rss', 'http://example.com/rss'],
    ['//example.com/x', 'https://example.com/x'],
    ['localhost:8080/x', 'https://localhost:8080/x'],
    ['127.0.0.1:3000', 'https://127.0.0.1:3000/'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/'],
    ['bücher.example', 'https://xn--bcher-kva.example/'],
  ])('%j -> %s', (input, expected) => {
    expect(normaliseUserUrl(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', /Enter a web address/],
    ['   ', /Enter a web address/],
    ['ftp://example.com/feed', /Only http and https.*not ftp:/],
    ['javascript:alert(1)', /Only http and https.*not javascript:/],
    ['mailto:someone@example.com', /Only http and https/],
    ['file:///etc/passwd', /Only http and https/],
    ['http://', /not a web address/],
    ['https://exa mple.com', /not a web address/],
  ])('refuses %j', (input, message) => {
    const r = normaliseUserUrl(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('url.invalid');
    expect(r.error.message).toMatch(message);
  });

  it('keeps a password out of its message', () => {
    const r = normaliseUserUrl('https://user:hunter2@exa mple.com/');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).not.toContain('hunter2');
  });
});

describe('findFeedLinks', () => {
  const page = 'https://site.example/blog/post.html';
  const links = (head: string, body = '') =>
    findFeedLinks(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, page);

  it('finds alternates whatever the attribute order, quoting and case', () => {
    expect(
      links(`
        <link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">
        <LINK TYPE='application/atom+xml' HREF=atom.xml REL='Alternate' TITLE='Atom  posts'/>
        <link href="https://other.example/rdf" rel=alternate type=application/rdf+xml>
        <link
          type="text/xml"
          rel="home alternate"
          href="../old.xml" />`),
    ).toEqual([
      { url: 'https://site.example/feed.xml', title: 'Posts', type: 'application/rss+xml' },
      { url: 'https://site.example/blog/atom.xml', title: 'Atom posts', type: 'application/atom+xml' },
      { url: 'https://other.example/rdf', title: null, type: 'application/rdf+xml' },
      { url: 'https://site.example/old.xml', title: null, type: 'text/xml' },
    ]);
  });

  it('ignores what is not a feed alternate, commented out, scripted or in the body', () => {
    expect(
      links(
        `<link rel="stylesheet" type="text/css" href="/s.css">
         <link rel="alternate stylesheet" type="text/css" href="/alt.css">
         <link rel="alternate" hreflang="fr" href="/fr/">
         <link rel="alternate" type="application/json+oembed" href="/oembed">
         <link rel="feed" type="application/rss+xml" href="/not-alternate.xml">
         <link rel="alternate" type="application/rss+xml">
         <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
         <!-- <link rel="alternate" type="application/rss+xml" href="/commented.xml"> -->
         <script>document.write('<link rel="alternate" type="application/rss+xml" href="/scripted.xml">')</script>
         <link rel="alternate" type="application/rss+xml" href="/real.xml">`,
        '<link rel="alternate" type="application/rss+xml" href="/in-body.xml">',
      ).map((l) => l.url),
    ).toEqual(['https://site.example/real.xml']);
  });

  it('resolves against <base href> wherever it stands in the head, then the page', () => {
    expect(
      links(`<link rel="alternate" type="application/rss+xml" href="feed.xml">
             <base href="/assets/">`).map((l) => l.url),
    ).toEqual(['https://site.example/assets/feed.xml']);
    expect(
      links(
        `<base href="https://cdn.example/sub/"><link rel="alternate" type="application/atom+xml" href="a.xml">`,
      ).map((l) => l.url),
    ).toEqual(['https://cdn.example/sub/a.xml']);
  });

  it('decodes entities, drops type parameters and duplicates, reads feed: hrefs', () => {
    expect(
      links(`<link rel="alternate" type="Application/RSS+XML; charset=UTF-8" href="/f?a=1&amp;b=2" title="Caf&eacute; &amp; &#8220;news&#x201D;">
             <link rel="alternate" type="application/rss+xml" href="/f?a=1&b=2">
             <link rel="alternate" type="application/rss+xml" href="feed:https://x.example/rss">`),
    ).toEqual([
      { url: 'https://site.example/f?a=1&b=2', title: 'Café & “news”', type: 'application/rss+xml' },
      { url: 'https://x.example/rss', title: null, type: 'application/rss+xml' },
    ]);
  });

  it('keeps page order but puts RSS/Atom before JSON for the same feed', () => {
    expect(
      links(`<link rel="alternate" type="application/feed+json" title="Posts" href="/feed.json">
             <link rel="alternate" type="application/rss+xml" title="Comments" href="/comments.xml">
             <link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">
             <link rel="alternate" type="application/json" title="Other" href="/other.json">
             <link rel="alternate" type="application/atom+xml" title="Last" href="/last.xml">`).map(
        (l) => l.url,
      ),
    ).toEqual([
      'https://site.example/comments.xml',
      'https://site.example/feed.xml',
      'https://site.example/feed.json',
      'https://site.example/other.json',
      'https://site.example/last.xml',
    ]);
  });

  it('reads a page with no <head> tags and an unterminated comment without failing', () => {
    expect(
      findFeedLinks('<link rel=alternate type=application/rss+xml href=/a.xml><p>text<!-- <link', page).map(
        (l) => l.url,
      ),
    ).toEqual(['https://site.example/a.xml']);
    expect(findFeedLinks('', page)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// discoverFeed against a real HTTP server on loopback

type Route = { status?: number; type?: string; body?: string | Uint8Array; location?: string };

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>';
const ATOM = '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>';
const JSON_FEED = '{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": []}';
const html = (head: string) =>
  `<!DOCTYPE html><html><head><title>Site</title>${head}</head><body>Hi</body></html>`;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A loopback server that answers from a route table and logs the paths it was asked for. */
async function site(
  routes: Record<string, Route>,
): Promise<{ origin: string; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const headers: Record<string, string> = { 'content-type': route.type ?? 'text/html; charset=utf-8' };
    if (route.location) headers.location = route.location;
    res.writeHead(route.status ?? 200, headers).end(route.body ?? '');
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, hits };
}

async function fetchText(url: string): Promise<FetchTextResult> {
  try {
    const res = await fetch(url, { redirect: 'follow' });
    const body = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) return { ok: false, message: `${url} answered ${res.status}.` };
    return { ok: true, finalUrl: res.url, contentType: res.headers.get('content-type'), body };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

const deps: DiscoverDeps = {
  fetchText,
  judgeFeed: (body) =>
    /<rss|<feed|<rdf:RDF|"version":\s*"https:\/\/jsonfeed/.test(
      new TextDecoder().decode(body.subarray(0, 4096)),
    )
      ? { kind: 'feed' }
      : { kind: 'notFeed' },
};

describe('discoverFeed', () => {
  it('takes the address itself when it is a feed', async () => {
    const s = await site({ '/feed.xml': { type: 'application/rss+xml', body: RSS } });
    expect(await discoverFeed(`${s.origin}/feed.xml`, deps)).toEqual({
      ok: true,
      value: { feedUrl: `${s.origin}/feed.xml`, candidates: [`${s.origin}/feed.xml`] },
    });
    expect(s.hits).toEqual(['/feed.xml']);
  });

  it('follows a redirect and reports where the feed really is', async () => {
    const s = await site({
      '/old': { status: 301, location: '/new.atom' },
      '/new.atom': { type: 'application/atom+xml', body: ATOM },
    });
    const r = await discoverFeed(`${s.origin}/old`, deps);
    expect(r.ok && r.value.feedUrl).toBe(`${s.origin}/new.atom`);
  });

  it('takes the first advertised link that fetches as a feed', async () => {
    const s = await site({
      '/blog/': {
        body: html(`<link rel="alternate" type="application/rss+xml" title="Gone" href="gone.xml">
                    <link rel="alternate" type="application/rss+xml" title="Not a feed" href="/page.html">
                    <link rel="alternate" type="application/atom+xml" title="Posts" href="posts.atom">
                    <link rel="alternate" type="application/feed+json" title="Posts" href="/posts.json">`),
      },
      '/page.html': { body: html('') },
      '/blog/posts.atom': { type: 'application/atom+xml', body: ATOM },
      '/posts.json': { type: 'application/feed+json', body: JSON_FEED },
    });
    expect(await discoverFeed(`${s.origin}/blog/`, deps)).toEqual({
      ok: true,
      value: {
        feedUrl: `${s.origin}/blog/posts.atom`,
        candidates: [
          `${s.origin}/blog/gone.xml`,
          `${s.origin}/page.html`,
          `${s.origin}/blog/posts.atom`,
          `${s.origin}/posts.json`,
        ],
      },
    });
    // Candidates run DISCOVERY_CONCURRENCY at a time: the page first, then the links (in any
    // arrival order), perhaps one more started before the winner was known.
    expect(s.hits[0]).toBe('/blog/');
    expect(s.hits).toEqual(expect.arrayContaining(['/blog/gone.xml', '/page.html', '/blog/posts.atom']));
    expect(s.hits.length).toBeLessThanOrEqual(5);
  });

  it('reads a UTF-16 page, with or without a byte order mark (issue 34)', async () => {
    const page = html(
      '<link rel="alternate" type="application/rss+xml" title="Posts" href="/posts/all.rss">',
    );
    const le = Buffer.from(`\ufeff${page}`, 'utf16le');
    const be = Buffer.from(Buffer.from(page, 'utf16le')).swap16(); // no mark: the NULs tell
    const s = await site({
      '/le/': { body: le, type: 'text/html' },
      '/be/': { body: be, type: 'text/html; charset=utf-16be' },
      '/plain/': { body: le, type: 'text/plain' }, // typed as text: the page itself says HTML
      '/posts/all.rss': { type: 'application/rss+xml', body: RSS },
    });
    for (const path of ['/le/', '/be/', '/plain/']) {
      const r = await discoverFeed(`${s.origin}${path}`, deps);
      expect(r.ok && r.value.feedUrl).toBe(`${s.origin}/posts/all.rss`);
    }
    // Found through the page's own link: no usual path leads there.
    expect(s.hits.filter((h) => h === '/posts/all.rss').length).toBe(3);
  });

  it('finds a JSON feed advertised alone', async () => {
    const s = await site({
      '/': { body: html('<link rel="alternate" type="application/feed+json" href="/feed.json">') },
      '/feed.json': { type: 'application/feed+json', body: JSON_FEED },
    });
    const r = await discoverFeed(s.origin, deps);
    expect(r.ok && r.value.feedUrl).toBe(`${s.origin}/feed.json`);
  });

  it('falls back to the common paths on the site origin', async () => {
    const s = await site({
      '/blog/about': { body: html('') },
      '/index.xml': { type: 'application/xml', body: RSS },
    });
    const r = await discoverFeed(`${s.origin}/blog/about`, deps);
    expect(r.ok && r.value).toEqual({
      feedUrl: `${s.origin}/index.xml`,
      candidates: [`${s.origin}/index.xml`],
    });
    expect(s.hits[0]).toBe('/blog/about');
    expect(s.hits).toEqual(
      expect.arrayContaining(['/feed', '/rss', '/rss.xml', '/feed.xml', '/atom.xml', '/index.xml']),
    );
  });

  it('tries the common paths when the page itself fails', async () => {
    const s = await site({ '/?feed=rss2': { type: 'text/xml', body: RSS } });
    const r = await discoverFeed(`${s.origin}/missing`, deps);
    expect(r.ok && r.value.feedUrl).toBe(`${s.origin}/?feed=rss2`);
  });

  it('tries https first, then http, for an address typed without a scheme', async () => {
    const s = await site({ '/rss': { type: 'application/rss+xml', body: RSS } });
    const asked: string[] = [];
    const r = await discoverFeed(`127.0.0.1:${s.port}/rss`, {
      ...deps,
      fetchText: (u) => {
        asked.push(u);
        return fetchText(u);
      },
    });
    expect(r.ok && r.value.feedUrl).toBe(`${s.origin}/rss`);
    expect(asked).toEqual([`https://127.0.0.1:${s.port}/rss`, `http://127.0.0.1:${s.port}/rss`]);
  });

  it('says so, readably, when there is no feed', async () => {
    const s = await site({ '/': { body: html('<link rel="stylesheet" href="/s.css">') } });
    const r = await discoverFeed(`${s.origin}/`, deps);
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'discover.noFeed',
        message: `No feed found at ${s.origin}/; paste the feed's own address.`,
        args: { url: `${s.origin}/` },
      },
    });
    expect(s.hits[0]).toBe('/');
    expect([...s.hits.slice(1)].sort()).toEqual([...COMMON_FEED_PATHS].sort());
  });

  it(`makes at most ${MAX_DISCOVERY_REQUESTS} requests, however many links a page advertises`, async () => {
    const many = Array.from(
      { length: 40 },
      (_, i) => `<link rel="alternate" type="application/rss+xml" href="/missing-${i}.xml">`,
    ).join('');
    const s = await site({ '/': { body: html(many) } });
    const r = await discoverFeed(`${s.origin}/`, deps);
    expect(r.ok ? 'ok' : r.error.code).toBe('discover.noFeed');
    expect(s.hits.length).toBeLessThanOrEqual(MAX_DISCOVERY_REQUESTS);
    expect(s.hits).toContain('/feed');
  });

  it('reports an address it cannot reach, without its password', async () => {
    const s = await site({});
    const port = s.port;
    await new Promise((done) => servers.pop()?.close(done));
    const r = await discoverFeed(`http://me:hunter2@127.0.0.1:${port}/`, deps);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('discover.unreachable');
    expect(r.error.message).toMatch(/^Could not open http:\/\/me:\*\*\*@127\.0\.0\.1:\d+\/: /);
    expect(r.error.message).not.toContain('hunter2');
  });

  it('refuses what is not a web address before any request', async () => {
    let calls = 0;
    const r = await discoverFeed('ftp://example.com/', {
      ...deps,
      fetchText: async (u) => {
        calls++;
        return fetchText(u);
      },
    });
    expect(r.ok ? 'ok' : r.error.code).toBe('url.invalid');
    expect(calls).toBe(0);
  });

  it('survives a judgeFeed that throws', async () => {
    const s = await site({ '/x': { body: html('') }, '/feed': { type: 'application/rss+xml', body: RSS } });
    const r = await discoverFeed(`${s.origin}/x`, {
      fetchText,
      judgeFeed: () => {
        throw new Error('parser exploded');
      },
    });
    expect(r.ok ? 'ok' : r.error.code).toBe('discover.noFeed');
  });
});

// ---------------------------------------------------------------------------------------------
// One deadline, concurrency, cancelling, broken feeds (issue 9, issue 10)

/** A loopback server whose routes may answer late, or never; counts requests in flight. */
async function slowSite(routes: Record<string, Route & { delayMs?: number; never?: boolean }>) {
  const hits: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const route = routes[path] ?? routes['*'];
    if (route?.never) return; // holds the socket open, answers nothing
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      if (!route || (route.status ?? 200) >= 400) {
        res.writeHead(route?.status ?? 404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html' }).end(route.body ?? '');
    }, route?.delayMs ?? 0);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    maxInFlight: () => maxInFlight,
    close: () => server.closeAllConnections(),
  };
}

const brokenFeedReason = (body: Uint8Array) => {
  const text = new TextDecoder().decode(body.subarray(0, 4096));
  return /^\s*(<\?xml[^>]*>\s*)?<rss/.test(text) && !text.includes('</rss>')
    ? 'unclosed <rss> at line 1'
    : null;
};
/** As the app wires it: a body is a feed when it parses, broken when it claims to be one and does not. */
const strictDeps: DiscoverDeps = {
  ...deps,
  judgeFeed: (body, type) => {
    const reason = brokenFeedReason(body);
    return reason === null ? deps.judgeFeed(body, type) : { kind: 'broken', reason };
  },
};

describe('discoverFeed: deadline, concurrency, cancel, broken feeds', () => {
  it('gives up on a site that never answers at the one overall deadline', async () => {
    const s = await slowSite({ '*': { never: true } });
    const started = performance.now();
    const r = await discoverFeed(`${s.origin}/`, { ...deps, deadlineMs: 600 });
    const took = performance.now() - started;
    s.close();
    expect(r.ok ? 'ok' : r.error.code).toBe('discover.timeout');
    expect(r.ok ? '' : r.error.message).toBe(
      `No feed found at ${s.origin}/ within 1 seconds; the site did not answer in time.`,
    );
    expect(took).toBeLessThan(1500);
  });

  it('tries the common paths a few at a time, not one after another', async () => {
    const s = await slowSite({ '/': { body: html('') }, '*': { status: 404, delayMs: 200 } });
    const started = performance.now();
    const r = await discoverFeed(`${s.origin}/`, deps);
    const took = performance.now() - started;
    expect(r.ok ? 'ok' : r.error.code).toBe('discover.noFeed');
    expect(s.maxInFlight()).toBeGreaterThan(1);
    expect(s.maxInFlight()).toBeLessThanOrEqual(3);
    // 9 paths at 200 ms each: ~1.8 s in a row, ~0.6 s three at a time.
    expect(took).toBeLessThan(1500);
  });

  it('keeps the order of preference: the first advertised feed wins even when a later one answers first', async () => {
    const s = await slowSite({
      '/': {
        body: html(`<link rel="alternate" type="application/rss+xml" href="/main.xml">
                    <link rel="alternate" type="application/rss+xml" href="/comments.xml">`),
      },
      '/main.xml': { type: 'application/rss+xml', body: RSS, delayMs: 300 },
      '/comments.xml': { type: 'application/rss+xml', body: RSS },
    });
    const r = await discoverFeed(`${s.origin}/`, deps);
    expect(r.ok && r.value.feedUrl).toBe(`${s.origin}/main.xml`);
  });

  it('stops when cancelled, and says so', async () => {
    const s = await slowSite({ '*': { never: true } });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 100);
    const started = performance.now();
    const r = await discoverFeed(`${s.origin}/`, { ...deps, signal: cancel.signal });
    s.close();
    expect(r).toEqual({
      ok: false,
      error: { code: 'discover.cancelled', message: 'Stopped looking for a feed.' },
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('says a malformed feed is broken, with the parser\'s reason, instead of "no feed found"', async () => {
    const s = await site({
      '/feed.xml': { type: 'application/rss+xml', body: '<?xml version="1.0"?><rss><channel>' },
    });
    const r = await discoverFeed(`${s.origin}/feed.xml`, strictDeps);
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'discover.brokenFeed',
        message: `The feed at ${s.origin}/feed.xml is broken: unclosed <rss> at line 1`,
        args: { url: `${s.origin}/feed.xml`, detail: 'unclosed <rss> at line 1' },
      },
    });
    // No guessing round after the address itself turned out to be a (broken) feed.
    expect(s.hits).toEqual(['/feed.xml']);
  });

  it('says an advertised feed is broken when no other feed is found', async () => {
    const s = await site({
      '/': { body: html('<link rel="alternate" type="application/rss+xml" href="/bad.xml">') },
      '/bad.xml': { type: 'application/rss+xml', body: '<rss><channel><title>x' },
    });
    const r = await discoverFeed(`${s.origin}/`, strictDeps);
    expect(r.ok ? 'ok' : r.error.code).toBe('discover.brokenFeed');
  });
});

describe('findIconLink', () => {
  const page = 'https://site.example/blog/';
  it.each([
    ['<link rel="icon" href="/favicon.png">', 'https://site.example/favicon.png'],
    ['<link rel="shortcut icon" href="fav.ico">', 'https://site.example/blog/fav.ico'],
    [
      '<link rel="apple-touch-icon" href="/t.png"><link rel="ICON" href="/i.png">',
      'https://site.example/i.png',
    ],
    ['<link rel="apple-touch-icon" href="/t.png">', 'https://site.example/t.png'],
    ['<link rel="icon" href="javascript:alert(1)">', null],
    ['<!-- <link rel="icon" href="/x.png"> -->', null],
    ['<base href="https://cdn.example/"><link rel="icon" href="i.png">', 'https://cdn.example/i.png'],
  ])('%s -> %s', (head, expected) => {
    expect(
      findIconLink(`<html><head>${head}</head><body><link rel="icon" href="/body.png"></body></html>`, page),
    ).toBe(expected);
  });
});
