/**
 * Ids are never reused (schema v2): a database written by version 1 keeps every row and id
 * through the rebuild, search still finds its items, and the ids after it only grow.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_MIGRATIONS } from './schema.ts';
import { openDatabase } from './sqlite.ts';
import { openStore, Store } from './store.ts';
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
    const v1 = openDatabase(
      path,
      STORE_MIGRATIONS.filter((m) => m.version === 1),
    );
    const old = new Store(v1, clock);
    const a = old.addFeed({ url: 'https://a.example/feed', folder: 'Tech' }).feed;
    const b = old.addFeed({ url: 'https://b.example/feed' }).feed;
    old.upsertItems(a.id, [makeItem('a1', { title: 'walrus migration' }), makeItem('a2')], 1);
    old.upsertItems(b.id, [makeItem('b1'), makeItem('b2'), makeItem('b3')], 2);
    const before = old.search('walrus').map((i) => i.id);
    old.close();

    const store = openStore(path, { clock });
    try {
      const user = store.db.prepare('PRAGMA user_version').get() as { user_version: number };
      expect(user.user_version).toBeGreaterThanOrEqual(2);
      expect(store.getFeed(a.id)).toMatchObject({ url: a.url, folder: 'Tech', unread: 2 });
      expect(store.getFeed(b.id)).toMatchObject({ url: b.url, unread: 3 });
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
