import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_MIGRATIONS } from './schema.ts';
import { openStore } from './store.ts';
import { makeItem, type TempDir, tempDir } from './test-support.ts';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('openStore', () => {
  it('migrates once; reopening keeps the data and the schema version', () => {
    const path = dir.file('nested/dir/tidings.db');
    const a = openStore(path);
    const { feed } = a.addFeed({ url: 'https://a/', folder: 'F' });
    a.upsertItems(feed.id, [makeItem('1')], 1);
    a.setSetting('pollIntervalMin', 15);
    a.close();

    for (let i = 0; i < 3; i++) {
      const b = openStore(path);
      expect(b.listFeeds().map((f) => f.folder)).toEqual(['F']);
      expect(b.riverItems({}).items).toHaveLength(1);
      expect(b.getSetting('pollIntervalMin', 60)).toBe(15);
      expect(b.search('Title').map((x) => x.guid)).toEqual(['1']);
      b.close();
    }
    const db = new DatabaseSync(path);
    const version = db.prepare('PRAGMA user_version').get() as { user_version: number };
    expect(version.user_version).toBe(Math.max(...STORE_MIGRATIONS.map((m) => m.version)));
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    db.close();
  });

  it('close() is safe to call twice', () => {
    const s = openStore(dir.file('x.db'));
    s.close();
    expect(() => s.close()).not.toThrow();
  });
});

describe('settings', () => {
  it.each([
    ['number', 42],
    ['string', 'hello'],
    ['object', { a: [1, 2], b: null }],
    ['boolean', false],
  ])('round-trips a %s', (_kind, value) => {
    const s = openStore(':memory:');
    expect(s.getSetting('k', 'fallback')).toBe('fallback');
    s.setSetting('k', value);
    expect(s.getSetting('k', null)).toEqual(value);
    s.setSetting('k', undefined);
    expect(s.getSetting('k', 'gone')).toBe('gone');
    s.close();
  });
});

describe('shared connection', () => {
  it('lets a sibling schema live in the same file without touching the store version', () => {
    const path = dir.file('shared.db');
    const s = openStore(path);
    s.db.exec('CREATE TABLE IF NOT EXISTS sibling (x INTEGER)');
    s.close();
    const again = openStore(path);
    const latest = Math.max(...STORE_MIGRATIONS.map((m) => m.version));
    expect(again.db.prepare('PRAGMA user_version').get()).toEqual({ user_version: latest });
    expect(again.listFeeds()).toEqual([]);
    again.close();
  });
});

describe('migration 3 (issue 9)', () => {
  it('upgrades a version 1 database: items with only <updated> sort by it, new columns have defaults', async () => {
    const path = dir.file('old.db');
    const { openDatabase } = await import('./sqlite.ts');
    const v1 = openDatabase(
      path,
      STORE_MIGRATIONS.filter((m) => m.version === 1),
    );
    v1.exec(`INSERT INTO feeds (id, url, meta, created_at) VALUES (1, 'https://a/', '{}', 0)`);
    const insert = v1.prepare(
      `INSERT INTO items (feed_id, guid, title, published, updated, pub_key, seen_at, hash)
       VALUES (1, ?, ?, ?, ?, ?, 5, 'h')`,
    );
    insert.run('u', 'only updated', null, '2026-11-20T10:00:00.000Z', 0);
    insert.run('p', 'published', '2026-11-10T10:00:00.000Z', null, Date.parse('2026-11-10T10:00:00.000Z'));
    insert.run('n', 'neither', null, null, 0);
    v1.close();

    const store = openStore(path);
    expect(store.riverItems({}).items.map((i) => i.title)).toEqual(['only updated', 'published', 'neither']);
    const pubKey = store.db.prepare("SELECT pub_key FROM items WHERE guid = 'u'").get() as {
      pub_key: number;
    };
    expect(pubKey.pub_key).toBe(Date.parse('2026-11-20T10:00:00.000Z'));
    expect(store.getFeed(1)).toMatchObject({ customTitle: null, notify: false, loadImages: false });
    expect(store.riverItems({}).items[0]).toMatchObject({ podcast: null, mutedBy: null });
    store.close();
  });
});
