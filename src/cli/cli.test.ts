/** The `tidings` command as a user runs it: a real child process against a feed host on loopback. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tidings } from '../testing/cli-run.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../testing/feed-host.ts';

let host: FeedHost;
let dir: string;

beforeAll(async () => {
  host = await startFeedHost();
  dir = mkdtempSync(join(tmpdir(), 'tidings-cli-'));
  host.set('/feed.xml', {
    etag: '"e1"',
    headers: { 'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT' },
    body: rssFeed(
      'CLI Feed',
      [{ title: 'one', guid: '1', date: new Date('2026-11-20T10:00:00Z') }],
      '<ttl>120</ttl>',
    ),
  });
  host.set('/', {
    type: 'text/html',
    body: '<!doctype html><html><head><title>Site</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>hi</body></html>',
  });
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tidings parse', () => {
  it('prints one JSON document per input, in order, a failure as {"error"}', async () => {
    const file = join(dir, 'local.xml');
    writeFileSync(file, rssFeed('Local', [{ title: 'here', guid: 'h' }]));
    const broken = join(dir, 'broken.xml');
    writeFileSync(broken, '<rss><channel><title>x</channel>');
    const r = await tidings('parse', '--json', `${host.url}/feed.xml`, broken, file);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ format: 'rss2.0', title: 'CLI Feed', ttl: 120 });
    expect(lines[0].items[0]).toMatchObject({ id: '1', title: 'one', published: '2026-11-20T10:00:00.000Z' });
    expect(Object.keys(lines[0].items[0])).toEqual(
      expect.arrayContaining([
        'id',
        'summary',
        'content',
        'authors',
        'categories',
        'enclosures',
        'media',
        'children',
      ]),
    );
    expect(lines[1]).toEqual({ error: expect.stringMatching(/./) });
    expect(lines[2]).toMatchObject({ title: 'Local' });
  });

  it("prints the parser's notes: repaired, no version, encoding fallback, capped (text and JSON)", async () => {
    const cut = join(dir, 'cut.xml');
    // Cut off mid-document, as a dropped connection leaves it: read, and said to be repaired.
    writeFileSync(cut, rssFeed('Cut', [{ title: 'whole', guid: 'w' }]).replace(/<\/channel>[\s\S]*$/, ''));
    const text = await tidings('parse', cut);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}note: .*cut off/m);
    const whole = join(dir, 'whole.xml');
    writeFileSync(whole, rssFeed('Whole', [{ title: 'whole', guid: 'w' }]));
    const json = await tidings('parse', '--json', cut, whole);
    const [repaired, clean] = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(repaired.notes).toEqual([expect.objectContaining({ code: 'feed.repaired' })]);
    expect(repaired.title).toBe('Cut');
    expect(clean.notes).toEqual([]);

    const noVersion = join(dir, 'nover.json');
    writeFileSync(noVersion, JSON.stringify({ title: 'No version', items: [{ id: 1, content_text: 'x' }] }));
    const jf = await tidings('parse', '--json', noVersion);
    expect(JSON.parse(jf.stdout).notes).toEqual([expect.objectContaining({ code: 'feed.noVersion' })]);
    expect((await tidings('parse', noVersion)).stdout).toMatch(/^ {2}note: /m);

    // Says utf-8, is windows-1252; and more items than a document is read for (5,000).
    const latin = join(dir, 'latin.xml');
    writeFileSync(
      latin,
      Buffer.from(
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Caf\xe9</title></channel></rss>',
        'latin1',
      ),
    );
    const many = join(dir, 'many.xml');
    writeFileSync(
      many,
      rssFeed(
        'Many',
        Array.from({ length: 5_010 }, (_, i) => ({ title: `n${i}`, guid: `g${i}` })),
      ),
    );
    const enc = JSON.parse((await tidings('parse', '--json', latin)).stdout);
    expect(enc.title).toBe('Café');
    expect(enc.notes).toEqual([expect.objectContaining({ code: 'feed.encodingFallback' })]);
    // The capped one in text (its JSON is past execFile's buffer): the count and the note.
    const capped = await tidings('parse', many);
    expect(capped.stdout).toMatch(/^ {2}5,?000 items/m);
    expect(capped.stdout).toMatch(/^ {2}note: .*5,?000/m);
  });

  it('answers --help and refuses bad input with one line and exit 2', async () => {
    expect((await tidings('parse', '--help')).stdout).toMatch(/Usage: tidings parse/);
    const none = await tidings('parse');
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    const bad = await tidings('parse', '--bogus');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bogus/);
  });

  it("names an untitled item by its text (never a script's) or its enclosure, never a blank", async () => {
    const json = join(dir, 'untitled.json');
    writeFileSync(
      json,
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'Untitled items',
        items: [
          { id: '1', content_html: '<script>alert("hidden")</script><p>Visible &amp; kept</p>' },
          { id: '2', attachments: [{ url: 'https://cdn.example/ep-7.mp3', mime_type: 'audio/mpeg' }] },
        ],
      }),
    );
    const r = await tidings('parse', json);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('alert');
    expect(r.stdout).toMatch(/^ {2}- \(no date\) {2}Visible & kept$/m);
    expect(r.stdout).toMatch(/^ {2}- \(no date\) {2}\(enclosure\) https:\/\/cdn\.example\/ep-7\.mp3$/m);
    expect(r.stdout).not.toMatch(/ +$/m);
  });

  it('says "1 item", not "1 items"', async () => {
    const r = await tidings('parse', `${host.url}/feed.xml`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}1 item,/m);
    const f = await tidings('fetch', `${host.url}/feed.xml`);
    expect(f.stdout).toMatch(/\[rss2\.0\], 1 item$/m);
  });

  it('follows a site address (even a bare host) to its feed, as "Add a feed" does', async () => {
    const bare = host.url.replace(/^http:\/\//, '');
    const r = await tidings('parse', '--json', bare);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'CLI Feed' });
    const page = await tidings('parse', '--json', `${host.url}/`);
    expect(page.code).toBe(0);
    expect(JSON.parse(page.stdout)).toMatchObject({ title: 'CLI Feed' });
    // A file name is never taken for a host.
    const missing = await tidings('parse', 'no-such-feed.xml');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such file/);
  });
});

describe('tidings fetch', () => {
  it('shows status, validators, bytes and the next due time with its reason', async () => {
    const r = await tidings('fetch', `${host.url}/feed.xml`, '--data', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/status: 200, \d+ bytes/);
    expect(r.stdout).toContain('ETag "e1"');
    expect(r.stdout).toMatch(/next due: \S+Z \(ttl 120 min\)/);
  });

  it('sends the validators it is given and reports a 304', async () => {
    const r = await tidings('fetch', `${host.url}/feed.xml`, '--etag', '"e1"');
    expect(r.stdout).toContain('If-None-Match "e1"');
    expect(r.stdout).toContain('304 Not Modified');
  });

  it('follows a site address to its feed', async () => {
    const r = await tidings('fetch', host.url.replace(/^http:\/\//, ''));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${host.url}/feed.xml`);
    expect(r.stdout).toMatch(/status: 200/);
    const page = await tidings('fetch', `${host.url}/`);
    expect(page.code).toBe(0);
    expect(page.stdout).toMatch(/the feed found there is\n.*\/feed\.xml/);
  });

  it('fails with a readable reason for a dead server (exit 1)', async () => {
    const r = await tidings('fetch', 'http://127.0.0.1:1/feed.xml');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error: .*127\.0\.0\.1/);
  });
});

describe('tidings opml', () => {
  it('imports folders and exports them again', async () => {
    const data = join(dir, 'opml-data');
    const file = join(dir, 'subs.opml');
    writeFileSync(
      file,
      `<opml version="2.0"><head><title>t</title></head><body><outline text="News"><outline text="CLI" type="rss" xmlUrl="${host.url}/feed.xml"/></outline></body></opml>`,
    );
    const imported = await tidings('opml', 'import', file, '--data', data);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/Imported 1 new feed/);
    const exported = await tidings('opml', 'export', '--data', data);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`xmlUrl="${host.url}/feed.xml"`);
    expect(exported.stdout).toMatch(/<outline text="News"/);
  });

  it('a missing or broken file is a failed operation (exit 1), a wrong command line exit 2', async () => {
    const data = join(dir, 'opml-codes');
    const missing = await tidings('opml', 'import', join(dir, 'missing.opml'), '--data', data);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/missing\.opml: no such file/);
    const broken = join(dir, 'broken.opml');
    writeFileSync(broken, '<opml><body><outline');
    expect((await tidings('opml', 'import', broken, '--data', data)).code).toBe(1);
    expect((await tidings('opml', 'import', '--data', data)).code).toBe(2);
    expect((await tidings('opml', 'frobnicate', '--data', data)).code).toBe(2);
  });
});

describe('tidings', () => {
  it('lists its commands and rejects unknown ones', async () => {
    expect((await tidings('--help')).stdout).toMatch(/parse.*\n.*fetch/s);
    const r = await tidings('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "frobnicate"/);
    expect((await tidings()).code).toBe(2);
  });
});
