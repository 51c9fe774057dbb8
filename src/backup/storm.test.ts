/**
 * A backup taken in the middle of a refresh storm (many feeds fetched at once from a real feed
 * server on loopback, each fetch bringing new items) is one consistent moment: it restores into a
 * sound database whose counters, search index and river agree with its items.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTidings, type Tidings } from '../app/tidings.ts';
import { writeOpml } from '../feed/opml.ts';
import { makeItem } from '../store/test-support.ts';
import { waitFor } from '../testing/wait.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore.ts';
import { tempDirs } from './testdata/folders.ts';

const FEEDS = 80;
/** Feed servers on their own ports: the scheduler fetches at most 2 at once from one host. */
const HOSTS = 8;
const dirs = tempDirs('tidings-storm-');
const servers: Server[] = [];
const bases: string[] = [];
let fetches = 0;

/** Every fetch of /feed/N answers, a little later, a document with 20 items never seen before. */
function startChangingFeeds(): Promise<void> {
  const server = createServer((req, res) => {
    const n = Number(/^\/feed\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    const round = ++fetches;
    const items = Array.from(
      { length: 20 },
      (_, k) =>
        `<item><title>Feed ${n} round ${round} story ${k}</title><guid>${n}-${round}-${k}</guid>` +
        `<description>Storm text ${round} ${k} about weather</description></item>`,
    ).join('');
    setTimeout(
      () => {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.end(
          `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${n}</title>${items}</channel></rss>`,
        );
      },
      20 + (round % 7) * 10,
    );
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      resolve();
    }),
  );
}

let app: Tidings;
let dataDir: string;

beforeAll(async () => {
  for (let h = 0; h < HOSTS; h++) await startChangingFeeds();
  dataDir = dirs.make();
  app = createTidings({ dataDir });
  const opml = writeOpml({
    title: 'storm',
    dateCreated: Date.now(),
    subscriptions: Array.from({ length: FEEDS }, (_, n) => ({
      url: `${bases[n % HOSTS]}/feed/${n}`,
      title: `Feed ${n}`,
      siteUrl: null,
      folder: n % 2 ? 'Odd' : null,
    })),
  });
  const imported = await app.importOpml(opml);
  expect(imported.ok && imported.value.added).toBe(FEEDS);
  // A river of some size, so a backup takes long enough for fetches to land while it runs.
  const text = (i: number) => `<p>Earlier story ${i}: ${randomBytes(600).toString('base64')}</p>`;
  for (const feed of await app.listFeeds()) {
    const items = Array.from({ length: 120 }, (_, i) =>
      makeItem(`earlier-${feed.id}-${i}`, { summary: text(i) }),
    );
    app.context.store.upsertItems(feed.id, items, Date.now() - 3_600_000);
  }
  app.start();
});

afterAll(async () => {
  await app.stop();
  for (const server of servers) await new Promise<void>((r) => server.close(() => r()));
  dirs.removeAll();
});

/** Items committed in the app's database now, as another reader sees them. */
function liveItems(): number {
  const db = new DatabaseSync(join(dataDir, 'tidings.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function checkSound(path: string): { items: number } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const counters = db
      .prepare(
        `SELECT f.id, f.unread, (SELECT COUNT(*) FROM items i WHERE i.feed_id = f.id AND i.read = 0) AS counted
         FROM feeds f WHERE f.unread <> counted`,
      )
      .all();
    expect(counters).toEqual([]);
    const items = (db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n;
    const indexed = (db.prepare('SELECT COUNT(*) AS n FROM items_fts_docsize').get() as { n: number }).n;
    expect(indexed).toBe(items);
    return { items };
  } finally {
    db.close();
  }
}

describe('a backup in the middle of a refresh storm', () => {
  it('restores cleanly, taken by another process or by the app itself', async () => {
    const taken: { file: string; items: number }[] = [];
    let storedDuringBackups = 0;
    for (let round = 0; round < 3; round++) {
      await app.refresh();
      await waitFor(async () => (await app.progress()).active > 0, 10_000, 'fetches in flight');
      const file = join(dirs.make(), `storm-${round}.tidings-backup`);
      const fetchesBefore = fetches;
      const committedBefore = liveItems();
      const made = await createBackup(dataDir, file, { passphrase: null });
      if (!made.ok) throw new Error(made.error.message);
      storedDuringBackups += fetches - fetchesBefore;
      // Everything committed before the backup began is in it (a copy of the database file alone
      // would miss what still sits in its write-ahead log), and nothing from after it ended.
      expect(made.value.summary.items).toBeGreaterThanOrEqual(committedBefore);
      expect(made.value.summary.items).toBeLessThanOrEqual(liveItems());
      taken.push({ file, items: made.value.summary.items });
      await app.context.scheduler.idle();
    }
    // The storm went on while the backups were taken.
    expect(storedDuringBackups).toBeGreaterThan(0);
    // The app's own button takes it over the API, while the storm goes on.
    await app.refresh();
    await waitFor(async () => (await app.progress()).active > 0, 10_000, 'fetches in flight');
    const ready = await app.createBackup({ passphrase: null });
    if (!ready.ok) throw new Error(ready.error.message);
    taken.push({
      file: join(dataDir, '.transfers', `${ready.value.transferId}.download`),
      items: ready.value.summary.items,
    });
    await app.context.scheduler.idle();

    expect(fetches).toBeGreaterThan(FEEDS * 2);
    for (const t of taken) {
      const target = dirs.make();
      const r = await restoreBackup(t.file, target, { passphrase: null });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.summary.items).toBe(t.items);
      expect(checkSound(join(target, 'tidings.db')).items).toBe(t.items);
      const restored = createTidings({ dataDir: target });
      try {
        expect((await restored.listFeeds()).length).toBe(FEEDS);
        const page = await restored.river({ limit: 50 });
        expect(page.groups.length).toBeGreaterThan(0);
        expect((await restored.searchItems({ query: 'story' })).hits.length).toBeGreaterThan(0);
      } finally {
        await restored.stop();
      }
    }
    // Each later backup holds more: they were taken while items kept arriving.
    expect(taken[0]!.items).toBeLessThan(taken.at(-1)!.items);
  });
});
