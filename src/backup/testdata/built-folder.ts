/**
 * For the backup's tests: a data folder built by the app itself, through its API, holding one of
 * everything a person makes (feeds in nested folders with their own settings, one behind a login,
 * reads and stars, mute filters, a saved search, settings, posts with a hosted file, a private
 * hosted feed), and a snapshot of all of it as the app shows it, to compare after a restore.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { RiverItem } from '../../app/api.ts';
import { createTidings, type Tidings } from '../../app/tidings.ts';
import { createLoopbackPublisher } from '../../testing/app-fixture.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../../testing/feed-host.ts';
import { waitFor } from '../../testing/wait.ts';

export const FEED_LOGIN = { username: 'reader', password: 'feed-password-8a1f' };
export const HOSTING_PASSWORD = 'hosting-password-3c9d';
export const URL_PASSWORD = 'url-password-77e2';
/** Every secret the built folder holds, to look for in a backup's bytes. */
export const SECRETS = [FEED_LOGIN.password, HOSTING_PASSWORD, URL_PASSWORD];

export interface BuiltFolder {
  dataDir: string;
  host: FeedHost;
  /** The app on the folder, started (real-time on loopback, own cloud, hosting). */
  app: Tidings;
  close(): Promise<void>;
}

const day = (d: number, h = 9) => new Date(Date.UTC(2026, 10, d, h, 0, 0));

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

export async function buildFolder(prefix = 'tidings-backup-built-'): Promise<BuiltFolder> {
  const host = await startFeedHost();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const { app } = await createLoopbackPublisher(dataDir);
  app.start();
  await waitFor(async () => (await app.realtimeInfo()).cloud !== null, 10_000, 'the receiver');

  for (const [path, title, n] of [
    ['/news.xml', 'News', 6],
    ['/tech.xml', 'Tech', 5],
    ['/deep.xml', 'Deep', 4],
    ['/podcast.xml', 'Podcast', 3],
  ] as const) {
    host.set(
      path,
      rssFeed(
        title,
        Array.from({ length: n }, (_, i) => ({
          title: `${title} story ${i} about ${i % 2 ? 'rivers' : 'crypto'}`,
          guid: `${title}-${i}`,
          description: `<p>Body of ${title} ${i}</p>`,
          date: day(20 + i, i),
        })),
      ),
    );
  }
  host.set('/private.xml', {
    body: rssFeed('Members', [{ title: 'Members only', guid: 'm-1', date: day(25) }]),
    basicAuth: FEED_LOGIN,
  });
  host.set('/userinfo.xml', {
    body: rssFeed('Userinfo', [{ title: 'Behind a URL login', guid: 'u-1', date: day(24) }]),
    basicAuth: { username: 'u', password: URL_PASSWORD },
  });

  const tech = unwrap(await app.createFolder('Tech'));
  const deep = unwrap(await app.createFolder('Deeper', tech.id));
  const news = unwrap(await app.subscribe({ url: `${host.url}/news.xml` }));
  const techFeed = unwrap(await app.subscribe({ url: `${host.url}/tech.xml`, folderId: tech.id }));
  const deepFeed = unwrap(await app.subscribe({ url: `${host.url}/deep.xml`, folderId: deep.id }));
  unwrap(await app.subscribe({ url: `${host.url}/podcast.xml`, folder: 'Listening' }));
  unwrap(
    await app.subscribe({
      url: `${host.url}/private.xml`,
      credentials: { scheme: 'basic', ...FEED_LOGIN },
    }),
  );
  unwrap(await app.subscribe({ url: host.url.replace('http://', `http://u:${URL_PASSWORD}@`) + '/userinfo.xml' }));
  await app.context.scheduler.idle();

  unwrap(await app.updateFeed(news.id, { title: 'My news', notify: true, intervalMin: 30, loadImages: true }));
  unwrap(await app.updateFeed(deepFeed.id, { intervalMin: 120 }));
  unwrap(await app.addMuteFilter({ kind: 'keyword', pattern: 'crypto', action: 'markRead' }));
  unwrap(await app.addMuteFilter({ feedId: techFeed.id, kind: 'regex', pattern: 'story [34]', action: 'hide' }));
  unwrap(await app.saveSearch({ name: 'Rivers', query: 'rivers', scope: { kind: 'folder', folderId: tech.id } }));
  await app.updateSettings({ pollIntervalMin: 45, retentionDays: 400, images: 'clickToLoad' });

  const all = await riverItems(app);
  await app.markRead(all.filter((_, i) => i % 3 === 0).map((i) => i.id), true);
  for (const item of all.filter((_, i) => i % 4 === 1)) await app.setStarred(item.id, true);

  unwrap(
    await app.updatePublishSettings({
      title: 'Backed-up posts',
      hosting: { enabled: true, private: { scheme: 'basic', username: 'friend', password: HOSTING_PASSWORD } },
    }),
  );
  unwrap(await app.post({ text: 'First post, before the backup', tags: ['backup'] }));
  unwrap(
    await app.post({
      text: 'A post with a file',
      enclosure: { fileName: 'note.txt', dataBase64: Buffer.from('a hosted file\n').toString('base64') },
    }),
  );
  await app.saveDraft({ text: 'a draft kept across restarts' });
  await waitFor(
    async () => (await app.listPosts()).every((p) => p.state === 'published'),
    20_000,
    'the posts to be published',
  );
  await waitFor(async () => { const own = (await app.listFeeds()).find((f) => f.own); return own !== undefined && (await app.river({ feedId: own.id })).groups.flatMap((g) => g.items).length >= 2; }, 20_000, 'own river');
  await app.context.scheduler.idle();

  return {
    dataDir,
    host,
    app,
    async close() {
      await app.stop();
      await host.close();
    },
  };
}

/** Every item of the river, newest first, muted ones included. */
export async function riverItems(app: Tidings): Promise<RiverItem[]> {
  const out: RiverItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await app.river({ cursor, limit: 100, includeMuted: true });
    out.push(...page.groups.flatMap((g) => g.items));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/**
 * Everything a person would check after moving to a new computer, as the app shows it: opened
 * without starting (no fetch changes anything) and without real-time (whose lines name this run).
 */
export async function snapshot(dataDir: string): Promise<Record<string, unknown>> {
  const app = createTidings({ dataDir });
  try {
    const feeds = await app.listFeeds();
    return {
      feeds: feeds.map(({ nextDueAt: _due, ...f }) => f),
      credentials: feeds.map((f) => app.context.store.getCredentials(f.id)),
      feedUrls: feeds.map((f) => app.context.store.getFeed(f.id)?.url),
      folders: await app.listFolders(),
      river: await riverItems(app),
      unreadRiver: (await app.river({ unreadOnly: true, limit: 500 })).groups.flatMap((g) => g.items.map((i) => i.id)),
      starredRiver: (await app.river({ starredOnly: true, limit: 500 })).groups.flatMap((g) => g.items.map((i) => i.id)),
      search: (await app.searchItems({ query: 'rivers' })).hits.map((h) => h.item.id),
      savedSearches: await app.listSavedSearches(),
      muteFilters: await app.listMuteFilters(),
      settings: await app.getSettings(),
      publishSettings: await app.getPublishSettings(),
      posts: await app.listPosts(),
      draft: await app.getDraft(),
      hostedDocuments: hostedDocuments(dataDir),
      media: mediaBytes(dataDir),
    };
  } finally {
    await app.stop();
  }
}

/** The writer's hosted site, byte for byte (the feeds its readers read). */
export function hostedDocuments(dataDir: string): Record<string, string> {
  const db = new DatabaseSync(join(dataDir, 'publish.db'), { readOnly: true });
  try {
    const out: Record<string, string> = {};
    for (const row of db.prepare('SELECT path, body FROM documents ORDER BY path').all() as {
      path: string;
      body: Uint8Array;
    }[])
      out[row.path] = Buffer.from(row.body).toString('base64');
    return out;
  } finally {
    db.close();
  }
}

function mediaBytes(dataDir: string): Record<string, string> {
  const dir = join(dataDir, 'publish-media');
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = readFileSync(join(dir, name)).toString('base64');
  return out;
}
