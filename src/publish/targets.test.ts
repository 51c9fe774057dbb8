/**
 * Every save target on real sockets and a real disk: a folder written atomically (and a folder
 * that cannot be written: a clear error, retried, then fine), a remote cloud's rssCloud.saveRss
 * (our own `tidings cloud` code) whose URL becomes the public URL that is pinged, edits and
 * deletes rebuilding the feed, and enclosures (HEAD, ranged GET, a local file hosted).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addAccount } from '../cloud/core/accounts.ts';
import { parseFeed } from '../feed/parse.ts';
import { startServer } from '../net/test-server.ts';
import { startRealCloud } from '../testing/clouds.ts';
import { fsMessage } from './folder-target.ts';
import { type Harness, startHarness, untilState } from './testdata/harness.ts';

let closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  closers.push(() => h.close());
  return h;
}

function tempFolder(): string {
  const d = mkdtempSync(join(tmpdir(), 'tidings-site-'));
  closers.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

async function quietCloud() {
  const s = await startServer((_req, res) => res.end('<result success="true" msg="Thanks for the ping."/>'));
  closers.push(() => s.close());
  return {
    domain: '127.0.0.1',
    port: s.port,
    path: '/pleaseNotify',
    protocol: 'http-post' as const,
    server: s,
  };
}

const items = (xml: string) => {
  const r = parseFeed(xml);
  if (r.kind !== 'feed') throw new Error('not a feed');
  return r.feed.items;
};

describe('save targets', () => {
  it('writes every document into a folder atomically, and pings the folder public URL', async () => {
    const folder = tempFolder();
    const { server, ...cloud } = await quietCloud();
    const h = await harness({
      hosting: { enabled: false, private: null },
      folder: { enabled: true, path: folder, publicUrl: 'https://me.example.com/blog/' },
      cloud,
    });
    const r = await h.publisher.post({
      text: 'to disk',
      enclosure: { fileName: 'pic.png', dataBase64: Buffer.from('not really a png').toString('base64') },
    });
    const v = await untilState(h, r.ok ? r.value.id : 0, 'published');
    expect(v.saves).toEqual([
      expect.objectContaining({
        target: 'folder',
        ok: true,
        publicUrl: 'https://me.example.com/blog/feed.xml',
      }),
    ]);
    expect(v.pings[0]).toMatchObject({ url: 'https://me.example.com/blog/feed.xml', ok: true });
    expect(readdirSync(folder).sort()).toEqual(['feed.atom', 'feed.json', 'feed.xml', 'index.html', 'media']);
    const [item] = items(readFileSync(join(folder, 'feed.xml'), 'utf8'));
    expect(item?.enclosures[0]?.url).toMatch(/^https:\/\/me\.example\.com\/blog\/media\/[0-9a-f]{32}\.png$/);
    expect(item?.enclosures[0]?.length).toBe(16);
    expect(readdirSync(join(folder, 'media'))).toHaveLength(1);
    expect(server.requests[0]?.body).toBe('url=https%3A%2F%2Fme.example.com%2Fblog%2Ffeed.xml');
  });

  it('a folder that cannot be written: a clear error, retried, and saved once it can be', async () => {
    const folder = tempFolder();
    // feed.xml taken by a folder: the rename fails whoever we run as (root ignores chmod).
    mkdirSync(join(folder, 'feed.xml'));
    const { server: _s, ...cloud } = await quietCloud();
    const h = await harness({
      hosting: { enabled: false, private: null },
      folder: { enabled: true, path: folder, publicUrl: 'https://me.example.com/' },
      cloud,
    });
    const r = await h.publisher.post({ text: 'blocked' });
    const id = r.ok ? r.value.id : 0;
    const v = await untilState(h, id, 'retrying');
    expect(v.saves[0]).toMatchObject({ target: 'folder', ok: false });
    expect(v.saves[0]?.message).toMatch(new RegExp(`^Could not write in ${folder}|^Tidings may not write`));
    expect(v.saves[0]?.nextRetryAt).not.toBeNull();
    expect(v.pings).toEqual([]); // never pinged before the save succeeded
    rmSync(join(folder, 'feed.xml'), { recursive: true });
    await untilState(h, id, 'published');
    expect(items(readFileSync(join(folder, 'feed.xml'), 'utf8')).map((i) => i.summary)).toEqual(['blocked']);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a read-only folder says so (skipped as root, which ignores modes)',
    async () => {
      const folder = tempFolder();
      chmodSync(folder, 0o555);
      closers.push(() => chmodSync(folder, 0o755));
      const h = await harness({
        hosting: { enabled: false, private: null },
        folder: { enabled: true, path: folder, publicUrl: 'https://me.example.com/' },
      });
      const r = await h.publisher.post({ text: 'read-only' });
      const v = await untilState(h, r.ok ? r.value.id : 0, 'retrying');
      expect(v.saves[0]?.message).toBe(`Tidings may not write in ${folder} (permission denied).`);
    },
  );

  it.each([
    ['EROFS', 'The folder /x is on a read-only disk.'],
    ['ENOSPC', 'The disk holding /x is full.'],
    ['EACCES', 'Tidings may not write in /x (permission denied).'],
    ['ENOENT', 'The folder /x does not exist.'],
  ])('names %s plainly', (code, message) => {
    expect(fsMessage('/x', Object.assign(new Error('raw'), { code }))).toBe(message);
  });

  it("saves through a remote cloud's rssCloud.saveRss and pings the URL it returns", async () => {
    const cloud = await startRealCloud();
    closers.push(() => cloud.close());
    await addAccount(cloud.cloud.store, 'alice', 'correct horse', Date.now());
    const h = await harness({
      hosting: { enabled: false, private: null },
      saveRss: { enabled: true, cloudUrl: `${cloud.url}/RPC2`, username: 'alice', password: 'correct horse' },
      cloud: cloud.element('http-post') as never,
    });
    const r = await h.publisher.post({ text: 'saved remotely' });
    const id = r.ok ? r.value.id : 0;
    const v = await untilState(h, id, 'published');
    const url = `${cloud.url}/feeds/alice.xml`;
    expect(v.saves[0]).toMatchObject({ target: 'saveRss', ok: true, publicUrl: url });
    expect(v.pings[0]).toMatchObject({ kind: 'cloud', url, ok: true, message: 'Thanks for the ping.' });
    expect(h.publisher.info().publicUrls).toEqual([url]);

    // Edit, then delete: the feed is rebuilt and saved again each time, the post in it once.
    await h.publisher.edit(id, { text: 'saved remotely, edited' });
    await untilState(h, id, 'published');
    let feed = await (await fetch(url)).text();
    expect(items(feed).map((i) => i.summary)).toEqual(['saved remotely, edited']);
    expect(h.publisher.delete(id).ok).toBe(true);
    const deadline = Date.now() + 5000;
    do {
      feed = await (await fetch(url)).text();
      if (items(feed).length === 0) break;
      await new Promise((res) => setTimeout(res, 30));
    } while (Date.now() < deadline);
    expect(items(feed)).toEqual([]);
  });

  it.each([
    ['base address', ''],
    ['base address with a slash', '/'],
  ])("saveRss takes the cloud's %s, not only its /RPC2 endpoint", async (_what, tail) => {
    const cloud = await startRealCloud();
    closers.push(() => cloud.close());
    await addAccount(cloud.cloud.store, 'bob', 'battery staple', Date.now());
    const h = await harness({
      hosting: { enabled: false, private: null },
      saveRss: {
        enabled: true,
        cloudUrl: `${cloud.url}${tail}`,
        username: 'bob',
        password: 'battery staple',
      },
      cloud: cloud.element('http-post') as never,
    });
    const r = await h.publisher.post({ text: 'to the base address' });
    const v = await untilState(h, r.ok ? r.value.id : 0, 'published');
    expect(v.saves[0]).toMatchObject({
      target: 'saveRss',
      ok: true,
      publicUrl: `${cloud.url}/feeds/bob.xml`,
    });
  });

  it('a wrong saveRss password is a readable error, retried', async () => {
    const cloud = await startRealCloud();
    closers.push(() => cloud.close());
    const h = await harness({
      hosting: { enabled: false, private: null },
      saveRss: { enabled: true, cloudUrl: `${cloud.url}/RPC2`, username: 'nobody', password: 'x' },
    });
    const r = await h.publisher.post({ text: 'nope' });
    const v = await untilState(h, r.ok ? r.value.id : 0, 'retrying');
    expect(v.saves[0]?.message).toMatch(/fault 4/);
  });
});

describe('enclosures', () => {
  it('fills type and length by HEAD, or by a ranged GET where HEAD says nothing', async () => {
    const media = await startServer((req, res) => {
      if (req.url === '/a.mp3') {
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': '1234567' });
        return res.end(req.method === 'HEAD' ? undefined : 'x'.repeat(1234567));
      }
      if (req.method === 'HEAD') return res.writeHead(405).end();
      res.writeHead(206, { 'content-type': 'video/mp4', 'content-range': 'bytes 0-0/987654' });
      res.end('x');
    });
    closers.push(() => media.close());
    const h = await harness({}, { start: false });
    const a = await h.publisher.post({ text: 'audio', enclosure: { url: `${media.url}/a.mp3` } });
    expect(a.ok && a.value.enclosure).toEqual({
      url: `${media.url}/a.mp3`,
      type: 'audio/mpeg',
      length: 1234567,
    });
    const b = await h.publisher.post({ text: 'video', enclosure: { url: `${media.url}/b.mp4` } });
    expect(b.ok && b.value.enclosure).toEqual({
      url: `${media.url}/b.mp4`,
      type: 'video/mp4',
      length: 987654,
    });
    expect(media.requests.find((q) => q.path === '/b.mp4' && q.method === 'GET')?.headers.range).toBe(
      'bytes=0-0',
    );
  });

  it('hosts a local file under /site/media with its type, named by its content', async () => {
    const dir = tempFolder();
    const file = join(dir, 'Photo One.JPG');
    writeFileSync(file, Buffer.alloc(2048, 7));
    const h = await harness({});
    const r = await h.publisher.post({ text: 'photo', enclosure: { filePath: file } });
    expect(r.ok).toBe(true);
    const enc = r.ok ? r.value.enclosure! : null;
    expect(enc).toMatchObject({ type: 'image/jpeg', length: 2048 });
    const res = await fetch(enc!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect((await res.arrayBuffer()).byteLength).toBe(2048);
    // Editing sends the shown URL back: it stays our hosted file (no lookup, no frozen address).
    const edited = await h.publisher.edit(r.ok ? r.value.id : 0, {
      text: 'photo, edited',
      enclosure: { url: enc!.url },
    });
    expect(edited.ok && edited.value.enclosure).toEqual(enc);
    expect(h.publisher.store.getPost(r.ok ? r.value.id : 0)?.enclosure).toMatchObject({
      url: null,
      file: expect.stringMatching(/\.jpg$/),
    });
    const missing = await h.publisher.post({ text: 'x', enclosure: { filePath: join(dir, 'nope.png') } });
    expect(missing.ok || missing.error.code).toBe('enclosure.unreadable');
  });
});

describe('settings', () => {
  it('refuses bad settings with a reason, and many quick changes owe one rebuild', async () => {
    const { server, ...cloud } = await quietCloud();
    const h = await harness({ cloud }, { start: false });
    const bad = h.publisher.updateSettings({
      folder: { enabled: true, path: 'relative/path', publicUrl: 'https://x/' },
    });
    expect(bad.ok || bad.error.message).toBe('The folder must be a full path.');
    expect(h.publisher.updateSettings({ charLimit: 0 }).ok).toBe(false);
    const partial = h.publisher.updateSettings({ hosting: { enabled: true } as never });
    expect(partial.ok && partial.value.hosting).toEqual({ enabled: true, private: null });
    expect(h.publisher.updateSettings({ pingSinks: [{ kind: 'weblogUpdates', url: 'ftp://x' }] }).ok).toBe(
      false,
    );
    for (const title of ['M', 'My', 'My p', 'My posts!'])
      expect(h.publisher.updateSettings({ title }).ok).toBe(true);
    h.publisher.start();
    const deadline = Date.now() + 5000;
    while (server.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    expect(server.requests.filter((q) => q.path === '/ping')).toHaveLength(1);
    expect(await (await fetch(`${h.base}/site/feed.xml`)).text()).toContain('<title>My posts!</title>');
  });
});
