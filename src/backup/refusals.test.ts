/**
 * A backup that is damaged, cut short, made by a newer Tidings, or not a backup at all is refused
 * with the reason, and the data folder is left exactly as it was (every file, byte for byte).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.ts';
import { makeItem } from '../store/test-support.ts';
import { FORMAT_VERSION } from './container.ts';
import { createBackup } from './create-backup.ts';
import { inspectBackup, verifyBackup } from './inspect.ts';
import { restoreBackup } from './restore.ts';
import { filesOf, tempDirs } from './testdata/folders.ts';

const dirs = tempDirs('tidings-refusals-');
let good: string;
let target: string;
let work: string;

beforeAll(async () => {
  const source = dirs.make();
  const store = openStore(join(source, 'tidings.db'));
  // Over 2 MiB: the reader database is several chunks, so one in the middle can go missing.
  const text = (i: number) => `<p>${`Item ${i} says something worth keeping. `.repeat(60)}</p>`;
  for (let f = 0; f < 3; f++) {
    const feed = store.addFeed({ url: `https://feed${f}.example/rss`, folder: f ? 'Tech' : null }).feed;
    const items = Array.from({ length: 400 }, (_, i) => makeItem(`f${f}-${i}`, { summary: text(i) }));
    store.upsertItems(feed.id, items, 1_000 + f);
  }
  store.close();
  const media = join(source, 'publish-media');
  mkdirSync(media);
  writeFileSync(join(media, 'abcdef0123456789.txt'), 'hosted file');
  work = dirs.make();
  good = join(work, 'good.tidings-backup');
  const made = await createBackup(source, good, { passphrase: null });
  if (!made.ok) throw new Error(made.error.message);
  // The folder the refused restores aim at: it holds data of its own.
  target = dirs.make();
  const first = await restoreBackup(good, target, { passphrase: null });
  if (!first.ok) throw new Error(first.error.message);
  const db = new DatabaseSync(good, { readOnly: true });
  const { n } = db.prepare("SELECT COUNT(*) AS n FROM chunks WHERE part = 'reader'").get() as { n: number };
  db.close();
  expect(n).toBeGreaterThan(2);
});
afterAll(() => dirs.removeAll());

/** A copy of the good backup changed by `change` (through SQLite, or on its bytes). */
function variant(name: string, change: (path: string) => void): string {
  const path = join(work, `${name}.tidings-backup`);
  copyFileSync(good, path);
  change(path);
  return path;
}

function sql(statements: string): (path: string) => void {
  return (path) => {
    const db = new DatabaseSync(path);
    db.exec(statements);
    db.close();
  };
}

/**
 * Flips a byte inside the reader database's first chunk, found where it lies in the file: at every
 * place its bytes are (a page split leaves stale copies of a cell behind, in free space).
 */
function flipInsideChunk(path: string): void {
  const db = new DatabaseSync(path, { readOnly: true });
  const { data } = db.prepare("SELECT data FROM chunks WHERE part = 'reader' AND seq = 0").get() as {
    data: Uint8Array;
  };
  db.close();
  const bytes = readFileSync(path);
  const needle = Buffer.from(data.subarray(200, 264));
  let flipped = 0;
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1), flipped++) {
    bytes[at + 10] = bytes[at + 10]! ^ 0xff;
  }
  expect(flipped).toBeGreaterThan(0);
  writeFileSync(path, bytes);
}

const CASES: { name: string; change: (path: string) => void; code: string; says: RegExp }[] = [
  {
    name: 'cut short',
    change: (p) => writeFileSync(p, readFileSync(p).subarray(0, Math.floor(readFileSync(p).length / 2))),
    code: 'backup.truncated',
    says: /cut short: it has [\d,]+ of its [\d,]+ bytes/,
  },
  { name: 'a flipped byte in a part', change: flipInsideChunk, code: 'backup.damaged', says: /damaged/ },
  {
    name: 'a piece that no longer unpacks',
    change: sql("UPDATE chunks SET data = zeroblob(length(data)) WHERE part = 'reader' AND seq = 1"),
    code: 'backup.damaged',
    says: /a piece of reader cannot be unpacked/,
  },
  {
    // Unpacks to the right length, but not to the bytes that were backed up: only the hash knows.
    name: 'a piece replaced by other bytes of the same length',
    change: (path) => {
      const db = new DatabaseSync(path);
      db.prepare("UPDATE chunks SET data = ? WHERE part = 'reader' AND seq = 1").run(
        deflateRawSync(Buffer.alloc(1024 * 1024, 7)),
      );
      db.close();
    },
    code: 'backup.damaged',
    says: /reader does not match its checksum/,
  },
  {
    // A gigabyte of zeros packs into a megabyte: unpacking stops at a chunk's worth.
    name: 'a piece that would unpack into far more than a piece holds',
    change: (path) => {
      const db = new DatabaseSync(path);
      db.prepare("UPDATE chunks SET data = ? WHERE part = 'reader' AND seq = 1").run(
        deflateRawSync(Buffer.alloc(64 * 1024 * 1024)),
      );
      db.close();
    },
    code: 'backup.damaged',
    says: /a piece of reader cannot be unpacked/,
  },
  {
    name: 'a missing piece',
    change: sql("DELETE FROM chunks WHERE part = 'reader' AND seq = 1"),
    code: 'backup.damaged',
    says: /a piece of reader is missing/,
  },
  {
    name: 'an unreadable manifest',
    change: sql("UPDATE manifest SET value = '{' WHERE key = 'summary'"),
    code: 'backup.damaged',
    says: /table of contents/,
  },
  {
    name: 'a newer format',
    change: sql(`PRAGMA user_version = ${FORMAT_VERSION + 1}`),
    code: 'backup.newer',
    says: new RegExp(
      `newer Tidings \\(backup format ${FORMAT_VERSION + 1}; this one reads format ${FORMAT_VERSION}`,
    ),
  },
  {
    name: 'a database further along than this Tidings knows',
    change: sql("UPDATE parts SET schema_version = 99 WHERE name = 'reader'"),
    code: 'backup.newer',
    says: /tidings\.db is at schema 99; this Tidings knows up to \d+/,
  },
  {
    name: 'a part this Tidings does not know',
    change: sql("INSERT INTO parts VALUES ('calendar', 'sqlite', 0, '" + '0'.repeat(64) + "', 0, 1)"),
    code: 'backup.newer',
    says: /database this Tidings does not know: calendar/,
  },
  {
    name: 'a media file named outside its folder',
    change: sql("UPDATE parts SET name = 'media/../../escape' WHERE kind = 'file'"),
    code: 'backup.damaged',
    says: /not a plain file name/,
  },
  {
    name: 'no reader database',
    change: sql("DELETE FROM parts WHERE name = 'reader'"),
    code: 'backup.damaged',
    says: /holds no tidings\.db/,
  },
  {
    name: 'a SQLite file that is not a backup',
    change: (p) => copyFileSync(join(target, 'tidings.db'), p),
    code: 'backup.notBackup',
    says: /not a Tidings backup/,
  },
  {
    name: 'an empty file',
    change: (p) => writeFileSync(p, ''),
    code: 'backup.notBackup',
    says: /not a Tidings backup/,
  },
  {
    name: 'a text file',
    change: (p) => writeFileSync(p, '<?xml version="1.0"?><opml version="2.0"></opml>'),
    code: 'backup.notBackup',
    says: /not a Tidings backup/,
  },
];

describe('a restore refuses, and changes nothing', () => {
  for (const c of CASES) {
    it(`of ${c.name}`, async () => {
      const file = variant(c.name.replace(/\W+/g, '-'), c.change);
      const before = filesOf(target);
      const r = await restoreBackup(file, target, { passphrase: null, replaceExisting: true });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(c.code);
      expect(r.error.message).toMatch(c.says);
      expect(filesOf(target)).toEqual(before);
      // Into a folder that is not there yet: not even the folder is made.
      const fresh = join(dirs.make(), 'new');
      expect((await restoreBackup(file, fresh, { passphrase: null })).ok).toBe(false);
      expect(existsSync(fresh)).toBe(false);
      // --check finds it too (it reads every byte without writing any).
      expect((await verifyBackup(file)).ok).toBe(false);
    });
  }

  it('but takes the good backup, which every check above passes', async () => {
    expect((await inspectBackup(good)).ok).toBe(true);
    expect((await verifyBackup(good)).ok).toBe(true);
    const r = await restoreBackup(good, target, { passphrase: null, replaceExisting: true });
    expect(r.ok).toBe(true);
  });
});
