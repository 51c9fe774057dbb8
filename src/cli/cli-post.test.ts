/**
 * `tidings post` / `tidings posts` as a user runs them: real child processes on a data folder,
 * a folder target and a cloud on loopback; and a post left owed by the CLI (built-in hosting)
 * published by the app when it runs on the same data.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTidings } from '../app/tidings.ts';
import { startServer, type TestServer } from '../net/test-server.ts';
import { PublishStore } from '../publish/publish-store.ts';
import { DEFAULT_PUBLISH_SETTINGS } from '../publish/settings.ts';
import { createLoopbackPublisher } from '../testing/app-fixture.ts';
import { tidings } from '../testing/cli-run.ts';
import { waitFor } from '../testing/wait.ts';

let cloud: TestServer;
let root: string;

beforeAll(async () => {
  cloud = await startServer((_req, res) => res.end('<result success="true" msg="Thanks for the ping."/>'));
  root = mkdtempSync(join(tmpdir(), 'tidings-cli-post-'));
});

afterAll(async () => {
  await cloud.close();
  rmSync(root, { recursive: true, force: true });
});

function dataWith(name: string, settings: object): string {
  const data = join(root, name);
  const store = new PublishStore(join(data, 'publish.db'));
  store.setValue('settings', { ...DEFAULT_PUBLISH_SETTINGS, ...settings });
  store.close();
  return data;
}

describe('tidings post', () => {
  it('posts, saves to a folder, pings, and lists the post with its state', async () => {
    const site = mkdtempSync(join(root, 'site-'));
    const data = dataWith('folder', {
      hosting: { enabled: false, private: null },
      folder: { enabled: true, path: site, publicUrl: 'https://me.example.com/' },
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
    });
    const r = await tidings(
      'post',
      'Hello from the CLI 👋',
      '--tag',
      'cli',
      '--tag',
      'hello',
      '--link',
      'https://example.com/x',
      '--data',
      data,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^#1 published .* Hello from the CLI 👋\n/);
    expect(r.stdout).toContain('saved  folder: ok https://me.example.com/feed.xml');
    expect(r.stdout).toContain(`pinged cloud http://127.0.0.1:${cloud.port}/ping: ok - Thanks for the ping.`);
    const feed = readFileSync(join(site, 'feed.xml'), 'utf8');
    expect(feed).toContain('<category>cli</category>');
    expect(feed).toContain('<link>https://example.com/x</link>');
    // Nothing was left to an app: no word about one.
    expect(r.stdout).not.toContain('No Tidings app runs');

    const list = await tidings('posts', '--data', data);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^#1 published/);
    const json = JSON.parse((await tidings('posts', '--json', '--data', data)).stdout);
    expect(json[0]).toMatchObject({
      id: 1,
      text: 'Hello from the CLI 👋',
      tags: ['cli', 'hello'],
      state: 'published',
    });
  });

  it('--help explains every option: the link, an enclosure URL or file and where a file goes, repeated tags, the data folder', async () => {
    const help = await tidings('post', '--help');
    expect(help.code).toBe(0);
    for (const option of ['--link URL', '--enclosure X', '--tag T', '--wait S', '--data DIR'])
      expect(help.stdout).toContain(`  ${option}`);
    expect(help.stdout).toMatch(/copied into the data folder\s+\(publish-media\/\)/);
    expect(help.stdout).toMatch(/repeat it for several/);
    expect(help.stdout).toMatch(/public once posted/);
  });

  it('says no app runs when the one that ran there has stopped', async () => {
    const data = dataWith('stopped-app', {});
    const { app } = await createLoopbackPublisher(data);
    app.start();
    await app.stop();
    const r = await tidings('post', 'after the app stopped', '--wait', '0', '--data', data);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`No Tidings app runs on ${data}`);
  });

  it('exits 1 with the reason for a post over the limit, 2 for usage', async () => {
    const data = dataWith('limits', { hosting: { enabled: false, private: null } });
    const long = await tidings('post', 'é'.repeat(141), '--data', data);
    expect(long.code).toBe(1);
    expect(long.stderr.trim()).toBe('tidings: The post is 141 characters; the limit is 140 (1 over).');
    expect((await tidings('post', '--data', data)).code).toBe(2);
    expect((await tidings('post', 'a', 'b', '--data', data)).code).toBe(2);
    expect((await tidings('posts', '--data', data)).stdout.trim()).toBe('No posts yet.');
  });

  it('shows and changes the publish settings, passwords masked, bad ones refused', async () => {
    const data = join(root, 'settings');
    const set = await tidings(
      'publish-settings',
      '--set',
      JSON.stringify({
        title: 'CLI notes',
        saveRss: { enabled: true, cloudUrl: 'http://127.0.0.1:1/RPC2', username: 'me', password: 'secret' },
      }),
      '--data',
      data,
    );
    expect(set.code).toBe(0);
    const shown = JSON.parse(set.stdout);
    expect(shown).toMatchObject({
      title: 'CLI notes',
      charLimit: 140,
      saveRss: { username: 'me', password: '********' },
    });
    expect(set.stdout).not.toContain('secret');
    const bad = await tidings('publish-settings', '--set', '{"charLimit":0}', '--data', data);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('tidings: The character limit must be a whole number from 1 to 100000.');
    expect((await tidings('publish-settings', '--set', 'nope', '--data', data)).code).toBe(2);
  });

  it('leaves built-in hosting to the app, which publishes the post when it runs', async () => {
    const data = dataWith('hosting', {});
    const r = await tidings('post', 'for the app to host', '--wait', '0', '--data', data);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^#1 queued/);
    expect(r.stdout).toContain('saved  hosting: waiting');
    // No app runs there: the post waits for one, and the command to start it is given.
    expect(r.stdout).toContain(
      `No Tidings app runs on ${data}: the post is stored, and its built-in hosting and your own cloud's\npings wait in the outbox until the app runs there. Start it with:\n  tidings serve --data ${data}\n`,
    );

    const { app, base } = await createLoopbackPublisher(data);
    app.start();
    try {
      await waitFor(
        async () => (await app.listPosts())[0]?.state === 'published',
        15_000,
        'the app to publish the CLI post',
      );
      const feed = await (await fetch(`${base}/site/feed.xml`)).text();
      expect(feed).toContain('for the app to host');
    } finally {
      await app.stop();
    }
  });

  it('hands a post to the app running on the same data at once, not at its next look', async () => {
    const data = dataWith('handoff', {});
    // The app's own look at the outbox is 10 minutes away: only the hand-off can publish in time.
    const { app, base } = await createLoopbackPublisher(data, { publishPollMs: 600_000 });
    app.start();
    try {
      await waitFor(async () => (await app.realtimeInfo()).publicUrl !== null, 15_000, 'the receiver');
      const r = await tidings('post', 'handed over', '--wait', '0', '--data', data);
      expect(r.code).toBe(0);
      // The app runs there: nothing waits for one.
      expect(r.stdout).not.toContain('No Tidings app runs');
      await waitFor(
        async () => (await app.listPosts())[0]?.state === 'published',
        20_000,
        'the running app to publish the CLI post',
      );
      expect(await (await fetch(`${base}/site/feed.xml`)).text()).toContain('handed over');
    } finally {
      await app.stop();
    }
  });

  it('with the app running on the same data, a CLI post is saved and pinged once, not by both', async () => {
    const site = mkdtempSync(join(root, 'both-site-'));
    const pings = await startServer((_req, res) =>
      res.end('<result success="true" msg="Thanks for the ping."/>'),
    );
    try {
      const data = dataWith('both', {
        hosting: { enabled: false, private: null },
        folder: { enabled: true, path: site, publicUrl: 'https://me.example.com/' },
        cloud: { domain: '127.0.0.1', port: pings.port, path: '/pleaseNotify', protocol: 'http-post' },
      });
      const app = createTidings({ dataDir: data });
      app.start();
      try {
        // Three posts, each racing the app's runner (it looks every 5 s) against the CLI's own.
        for (const text of ['one', 'two', 'three']) {
          const r = await tidings('post', text, '--wait', '3', '--data', data);
          expect(r.code).toBe(0);
        }
        await waitFor(
          async () => (await app.listPosts()).every((p) => p.state === 'published'),
          15_000,
          'all published',
        );
        await new Promise((res) => setTimeout(res, 5_500)); // one more look by the app's runner
        expect(pings.requests.filter((q) => q.path === '/ping')).toHaveLength(3);
        expect((await app.listPosts()).map((p) => p.saves.length)).toEqual([1, 1, 1]);
      } finally {
        await app.stop();
      }
    } finally {
      await pings.close();
    }
  }, 60_000);
});
