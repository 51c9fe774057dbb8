/**
 * Ids are never reused (schema v2): a database written by version 1 keeps every row and id
 * through the rebuild, search still finds its items, and the ids after it only grow.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_MIGRATIONS } from './schema.ts';
import { openDatabase } from './sqlite.ts';
import { openStore } from './store.ts';
import { makeItem, type TempDir, tempDir } from './test-support.ts';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const clock = { now: () => 1_700_000_000_000, setTimer: () => ({ cancel() {} }) };

describe('ids', () => {
  it('migrates a version-1 database keeping rows, ids, counters and search', () => {
    const path = dir.file('tidings.db');
    // Written as version 1 wrote it: raw rows (today's Store reads columns v1 lacks).
    const v1 = openDatabase(
      path,
      STORE_MIGRATIONS.filter((m) => m.version === 1),
    );
    v1.exec(`INSERT INTO folders (id, title) VALUES (1, 'Tech')`);
    const feed = v1.prepare('INSERT INTO feeds (url, folder_id, created_at) VALUES (?, ?, 1) RETURNING id');
    const a = feed.get('https://a.example/feed', 1) as { id: number };
    const b = feed.get('https://b.example/feed', null) as { id: number };
    const item = v1.prepare(
      `INSERT INTO items (feed_id, guid, title, pub_key, seen_at, hash) VALUES (?, ?, ?, 0, 1, 'h') RETURNING id`,
    );
    const fts = v1.prepare('INSERT INTO items_fts (rowid, title, body) VALUES (?, ?, ?)');
    for (const [feedId, guid, title] of [
      [a.id, 'a1', 'walrus migration'],
      [a.id, 'a2', 'other'],
      [b.id, 'b1', 'one'],
      [b.id, 'b2', 'two'],
      [b.id, 'b3', 'three'],
    ] as const) {
      const row = item.get(feedId, guid, title) as { id: number };
      fts.run(row.id, title, '');
    }
    const before = (v1.prepare("SELECT id FROM items WHERE guid = 'a1'").all() as { id: number }[]).map(
      (r) => r.id,
    );
    v1.close();

    const store = openStore(path, { clock });
    try {
      const user = store.db.prepare('PRAGMA user_version').get() as { user_version: number };
      expect(user.user_version).toBeGreaterThanOrEqual(2);
      expect(store.getFeed(a.id)).toMatchObject({ url: 'https://a.example/feed', folder: 'Tech', unread: 2 });
      expect(store.getFeed(b.id)).toMatchObject({ url: 'https://b.example/feed', unread: 3, parseNotes: [] });
      expect(store.search('walrus').map((i) => i.id)).toEqual(before);
      expect(store.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(store.db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });

      // The newest feed goes; the next one added does not get its id, nor its items' ids.
      const maxItem = (store.db.prepare('SELECT MAX(id) AS m FROM items').get() as { m: number }).m;
      store.removeFeed(b.id);
      const c = store.addFeed({ url: 'https://c.example/feed' }).feed;
      expect(c.id).toBeGreaterThan(b.id);
      store.upsertItems(c.id, [makeItem('c1')], 3);
      const [c1] = store.db.prepare('SELECT id FROM items WHERE feed_id = ?').all(c.id) as { id: number }[];
      expect(c1!.id).toBeGreaterThan(maxItem);
      // Removing a feed still removes its items (the cascade survived the rebuild).
      store.removeFeed(a.id);
      expect(store.search('walrus')).toEqual([]);
    } finally {
      store.close();
    }
  });
});
