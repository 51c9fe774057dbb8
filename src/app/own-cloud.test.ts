/**
 * The app's own cloud, mounted at /cloud on the receiver's server: a writer's Tidings is the
 * cloud for its feed, and a reader's Tidings subscribes to it and is notified. Two real apps,
 * real sockets on loopback, no tunnel (public base URLs point at the receivers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeRss } from '../feed/write-rss.ts';
import { createLoopbackPublisher } from '../testing/app-fixture.ts';
import { type FeedHost, startFeedHost } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';
import type { Tidings } from './tidings.ts';

let dirs: string[] = [];
let apps: Tidings[] = [];
let host: FeedHost;

async function startApp(): Promise<Tidings> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-own-cloud-'));
  dirs.push(dataDir);
  const { app } = await createLoopbackPublisher(dataDir);
  app.start();
  apps.push(app);
  await waitFor(async () => (await app.realtimeInfo()).cloud !== null);
  return app;
}

beforeEach(async () => {
  host = await startFeedHost();
});

afterEach(async () => {
  for (const app of apps) await app.stop();
  await host.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  apps = [];
  dirs = [];
});

describe("the app's own cloud", () => {
  it('names itself for published feeds, and a second Tidings is notified through it', async () => {
    const writer = await startApp();
    const reader = await startApp();
    const cloud = (await writer.realtimeInfo()).cloud!;
    expect(cloud).toMatchObject({ domain: '127.0.0.1', path: '/cloud/pleaseNotify', protocol: 'http-post' });

    const feed = (titles: string[]) =>
      writeRss({
        title: "Writer's posts",
        link: 'https://writer.example/',
        description: 'short posts',
        cloud,
        items: titles.map((t, i) => ({ title: t, guid: `post-${titles.length - i}`, description: t })),
      });
    host.set('/posts.xml', feed(['first post']));
    const res = await reader.subscribe({ url: `${host.url}/posts.xml` });
    expect(res.ok).toBe(true);
    const feedId = res.ok ? res.value.id : -1;
    await waitFor(
      async () => (await reader.listFeeds())[0]?.delivery.startsWith('real-time via 127.0.0.1') ?? false,
    );

    host.set('/posts.xml', feed(['second post', 'first post']));
    const ping = await fetch(`http://127.0.0.1:${cloud.port}/cloud/ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: `${host.url}/posts.xml` }),
    });
    expect(await ping.text()).toContain('Thanks for the ping.');
    await waitFor(async () => {
      const titles = (await reader.river({ feedId })).groups.flatMap((g) => g.items.map((i) => i.title));
      return titles.includes('second post');
    });
    const log = await reader.activity(50);
    expect(log.some((e) => e.direction === 'in' && /fetch queued/.test(e.result))).toBe(true);
  });

  it('keeps the API off the receiver port', async () => {
    const app = await startApp();
    const { cloud } = await app.realtimeInfo();
    const res = await fetch(`http://127.0.0.1:${cloud!.port}/api/listFeeds`, {
      method: 'POST',
      body: '{"args":[]}',
    });
    expect(res.status).toBe(404);
    const status = await fetch(`http://127.0.0.1:${cloud!.port}/cloud/`);
    expect(status.status).toBe(200);
  });
});
