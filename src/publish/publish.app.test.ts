/**
 * The writer inside the app, on real loopback sockets: a post is hosted under /site on the
 * receiver's server, pinged to the app's own cloud, read into the writer's own river, and a second
 * Tidings subscribed by the writer's SITE address (autodiscovery) is notified of the next post
 * without polling. Public base URLs point at the receivers (no tunnel here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostView, TidingsEvents } from '../app/api.ts';
import type { Tidings } from '../app/tidings.ts';
import { parseFeed } from '../feed/parse.ts';
import { wsseHeaders } from '../net/auth.ts';
import { createLoopbackPublisher } from '../testing/app-fixture.ts';
import { waitFor } from '../testing/wait.ts';

let dirs: string[] = [];
let apps: Tidings[] = [];

async function startApp(dir?: string): Promise<{ app: Tidings; base: string; dataDir: string }> {
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'tidings-publish-'));
  dirs.push(dataDir);
  const { app, base } = await createLoopbackPublisher(dataDir, { publishRetry: { baseMs: 50, capMs: 200 } });
  app.start();
  apps.push(app);
  await waitFor(async () => (await app.realtimeInfo()).cloud !== null);
  return { app, base, dataDir };
}

afterEach(async () => {
  for (const app of apps) await app.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  apps = [];
  dirs = [];
});

async function published(app: Tidings, id: number): Promise<PostView> {
  let view: PostView | undefined;
  await waitFor(
    async () => {
      view = (await app.listPosts()).find((p) => p.id === id);
      return view?.state === 'published';
    },
    10_000,
    `post ${id} published`,
  );
  return view!;
}

const riverTexts = async (app: Tidings) =>
  (await app.river({})).groups.flatMap((g) => g.items.map((i) => i.summary ?? ''));

describe('publishing from the app', () => {
  it('hosts, pings its own cloud, reads the post into its own river, and a reader is notified', async () => {
    const { app: writer, base } = await startApp();
    const { app: reader } = await startApp();
    const events: PostView[] = [];
    writer.on('post.changed', (v) => events.push(v));

    const first = await writer.post({ text: 'Hello from Tidings 👋 <b>&', tags: ['hello'] });
    expect(first.ok).toBe(true);
    const id = first.ok ? first.value.id : 0;
    const view = await published(writer, id);
    expect(view.saves).toMatchObject([{ target: 'hosting', ok: true, publicUrl: `${base}/site/feed.xml` }]);
    expect(view.pings).toMatchObject([{ kind: 'cloud', url: `${base}/site/feed.xml`, ok: true }]);
    expect(view.cloudAnswer).toEqual({ ok: true, message: 'Thanks for the ping.', cloud: 'Your own cloud' });
    expect(events.map((e) => e.state)).toContain('published');

    const res = await fetch(`${base}/site/feed.xml`);
    expect(res.headers.get('content-type')).toContain('application/rss+xml');
    const parsed = parseFeed(await res.text());
    if (parsed.kind !== 'feed') throw new Error('hosted feed does not parse');
    expect(parsed.feed.cloud).toMatchObject({ domain: '127.0.0.1', path: '/cloud/pleaseNotify' });
    expect(parsed.feed.items[0]?.summary).toBe('Hello from Tidings 👋 &lt;b&gt;&amp;');

    // The writer's own river, by the same path as any feed.
    await waitFor(
      async () => (await riverTexts(writer)).some((t) => t.startsWith('Hello from Tidings')),
      10_000,
      'own river',
    );
    // ...read on loopback from a copy without <cloud>: no cloud is asked to watch a loopback URL.
    const own = (await writer.listFeeds()).find((f) => f.url === `${base}/site/river.xml`);
    expect(own?.status).toBe('ok');
    // Shown as "My posts", not as one more feed; its posts arrive read (issue 17).
    expect(own).toMatchObject({ own: true, unread: 0 });
    expect((await writer.river({})).groups.flatMap((g) => g.items).every((i) => i.read)).toBe(true);
    const asked = (await writer.activity(50)).filter(
      (e) => e.direction === 'out' && /pleasenotify/i.test(e.procedure),
    );
    expect(asked).toEqual([]);

    // A reader given the bare public address finds the feed and subscribes to it with the cloud.
    const sub = await reader.subscribe({ url: base });
    expect(sub.ok && sub.value.url).toBe(`${base}/site/feed.xml`);
    await waitFor(
      async () => (await reader.listFeeds())[0]?.delivery.startsWith('real-time') ?? false,
      10_000,
      'reader live',
    );
    const changed = new Promise<void>((resolve) => reader.on('river.changed', () => resolve()));
    const second = await writer.post({ text: 'Second post, pushed' });
    expect(second.ok).toBe(true);
    await changed;
    expect((await riverTexts(reader)).some((t) => t.includes('Second post, pushed'))).toBe(true);

    // An edit reaches the reader as a changed item (same id, new text), not as a new one.
    const [shown] = (await reader.river({})).groups.flatMap((g) => g.items);
    const edited = new Promise<TidingsEvents['river.changed']>((resolve) =>
      reader.on('river.changed', (e) => e.changedItems.length > 0 && resolve(e)),
    );
    expect((await writer.editPost(second.ok ? second.value.id : 0, { text: 'Second post, edited' })).ok).toBe(
      true,
    );
    const event = await edited;
    expect(event).toMatchObject({ newItems: 0, changedItems: [shown!.id] });
    const [again] = await reader.riverItemsById(event.changedItems);
    expect(`${again?.title ?? ''} ${again?.summary ?? ''}`).toContain('Second post, edited');
  });

  it('answers 304 to a matching validator, compresses with br or gzip, and gives HEAD no body', async () => {
    const { app, base } = await startApp();
    const p = await app.post({ text: 'cache me' });
    await published(app, p.ok ? p.value.id : 0);
    const first = await fetch(`${base}/site/feed.xml`, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.get('etag')!;
    const modified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const body = await first.text();

    expect((await fetch(`${base}/site/feed.xml`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(
      (await fetch(`${base}/site/feed.xml`, { headers: { 'if-modified-since': modified } })).status,
    ).toBe(304);

    // node's fetch would decode for us: read the raw bytes through node:http instead.
    const raw = async (encoding: string) => {
      const http = await import('node:http');
      return new Promise<{ enc: string | undefined; bytes: Buffer }>((resolve, reject) => {
        http
          .get(`${base}/site/feed.xml`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ enc: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
            );
          })
          .on('error', reject);
      });
    };
    const br = await raw('gzip, br');
    expect(br.enc).toBe('br');
    expect(brotliDecompressSync(br.bytes).toString('utf8')).toBe(body);
    const gz = await raw('gzip');
    expect(gz.enc).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString('utf8')).toBe(body);

    const head = await fetch(`${base}/site/feed.xml`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${base}/site/nothing-here`)).status).toBe(404);
    // A shared blogroll lists public subscriptions only (not our own loopback row).
    expect((await fetch(`${base}/site/blogroll.opml`)).status).toBe(404);
    await app.subscribe({ url: `${base}/site/feed.json` }); // loopback: left out
    const shared = await app.updatePublishSettings({ shareBlogroll: true });
    expect(shared.ok).toBe(true);
    await waitFor(async () => (await fetch(`${base}/site/blogroll.opml`)).status === 200, 5000, 'blogroll');
    const opml = await (await fetch(`${base}/site/blogroll.opml`)).text();
    expect(opml).toContain('<opml version="2.0">');
    expect(opml).not.toContain('127.0.0.1');
    expect(await (await fetch(`${base}/site/feed.xml`)).text()).toContain(
      `<source:blogroll>${base}/site/blogroll.opml</source:blogroll>`,
    );
    // The API stays off this port; the home page names the feeds.
    const homeRes = await fetch(`${base}/site/`);
    expect(homeRes.headers.get('content-security-policy')).toContain("default-src 'none'");
    const home = await homeRes.text();
    expect(home).toContain(`href="${base}/site/feed.xml"`);
  });

  it('a private feed wants Basic or WSSE; stale and replayed WSSE tokens get 401', async () => {
    const { app, base } = await startApp();
    const p = await app.post({ text: 'secret' });
    await published(app, p.ok ? p.value.id : 0);
    const url = `${base}/site/feed.xml`;

    await app.updatePublishSettings({
      hosting: { enabled: true, private: { scheme: 'basic', username: 'ann', password: 'pw' } },
    });
    const anon = await fetch(url);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Basic/);
    const basic = (u: string, pw: string) => `Basic ${Buffer.from(`${u}:${pw}`).toString('base64')}`;
    expect((await fetch(url, { headers: { authorization: basic('ann', 'nope') } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: basic('ann', 'pw') } })).status).toBe(200);

    await app.updatePublishSettings({
      hosting: { enabled: true, private: { scheme: 'wsse', username: 'ann', password: 'pw' } },
    });
    const good = wsseHeaders('ann', 'pw', Date.now());
    expect((await fetch(url, { headers: good })).status).toBe(200);
    const replay = await fetch(url, { headers: good });
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain('already used');
    const stale = await fetch(url, { headers: wsseHeaders('ann', 'pw', Date.now() - 10 * 60_000) });
    expect(stale.status).toBe(401);
    expect(await stale.text()).toContain('stale');
    expect((await fetch(url, { headers: wsseHeaders('ann', 'wrong', Date.now()) })).status).toBe(401);

    // Our own river still reads the private feed (it follows the login).
    const next = await app.post({ text: 'private and still in my river' });
    await published(app, next.ok ? next.value.id : 0);
    await waitFor(
      async () => (await riverTexts(app)).some((t) => t === 'private and still in my river'),
      10_000,
      'own river reads the private feed',
    );
  });

  it('refuses a post over the limit with the reason, and keeps the draft across a restart', async () => {
    const { app, dataDir } = await startApp();
    const long = await app.post({ text: 'x'.repeat(141) });
    expect(long).toEqual({
      ok: false,
      error: { code: 'post.tooLong', message: 'The post is 141 characters; the limit is 140 (1 over).' },
    });
    expect(await app.listPosts()).toEqual([]);
    await app.saveDraft({ text: 'half a thought', tags: ['later'] });
    await app.stop();
    apps = apps.filter((a) => a !== app);
    const { app: again } = await startApp(dataDir);
    expect(await again.getDraft()).toEqual({ text: 'half a thought', tags: ['later'] });
    await again.saveDraft(null);
    expect(await again.getDraft()).toBeNull();
    expect(await again.countChars('🇫🇷👨‍👩‍👧‍👦')).toBe(2);
  });
});
