/**
 * What a data folder (or a backup of one) holds, in the numbers a person recognises: shown before
 * a backup is made and before a restore replaces anything, and compared by the round-trip tests.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { DataSummary } from '../app/api.ts';
import { DATABASES, type DatabasePart, MEDIA_DIR } from './layout.ts';

export type { DataSummary };

export const EMPTY_SUMMARY: DataSummary = {
  feeds: 0,
  folders: 0,
  items: 0,
  unread: 0,
  starred: 0,
  savedSearches: 0,
  muteFilters: 0,
  posts: 0,
  mediaFiles: 0,
  cloudSubscribers: 0,
  cloudAccounts: 0,
};

/** One number, 0 when the table is not there (an older database, or none). */
function count(db: DatabaseSync, sql: string): number {
  try {
    const row = db.prepare(sql).get() as { n: number | null } | undefined;
    return Number(row?.n ?? 0);
  } catch {
    return 0;
  }
}

/** Adds what one database holds to the summary. */
export function summarizeDatabase(db: DatabaseSync, part: DatabasePart, into: DataSummary): void {
  if (part === 'reader') {
    into.feeds = count(db, 'SELECT COUNT(*) AS n FROM feeds');
    into.folders = count(db, 'SELECT COUNT(*) AS n FROM folders');
    into.items = count(db, 'SELECT COUNT(*) AS n FROM items');
    into.unread = count(db, 'SELECT COUNT(*) AS n FROM items WHERE read = 0');
    into.starred = count(db, 'SELECT COUNT(*) AS n FROM items WHERE starred = 1');
    into.savedSearches = count(db, 'SELECT COUNT(*) AS n FROM saved_searches');
    into.muteFilters = count(db, 'SELECT COUNT(*) AS n FROM mute_filters');
  } else if (part === 'publish') {
    into.posts = count(db, 'SELECT COUNT(*) AS n FROM posts');
  } else {
    into.cloudSubscribers = count(db, 'SELECT COUNT(*) AS n FROM subscriptions');
    into.cloudAccounts = count(db, 'SELECT COUNT(*) AS n FROM accounts');
  }
}

/**
 * A live database, for reading only (WAL readers never block the app's writers). Not opened
 * read-only: such a connection cannot remove the -wal and -shm files it makes when it is the last
 * one, so merely reading a folder no app runs on would leave them behind. query_only refuses writes.
 */
export function openForReading(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA query_only = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

export function mediaFiles(dataDir: string): string[] {
  const dir = join(dataDir, MEDIA_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
}

/** What the data folder holds now; null when it holds no Tidings data at all. */
export function summarizeDataDir(dataDir: string): DataSummary | null {
  const present = DATABASES.filter((d) => existsSync(join(dataDir, d.file)));
  const media = mediaFiles(dataDir);
  if (present.length === 0 && media.length === 0) return null;
  const summary = { ...EMPTY_SUMMARY, mediaFiles: media.length };
  for (const d of present) {
    const db = openForReading(join(dataDir, d.file));
    try {
      summarizeDatabase(db, d.part, summary);
    } finally {
      db.close();
    }
  }
  return summary;
}

/** Whether anything a person made is there (a fresh app's empty databases are nothing to ask about). */
export function holdsSomething(s: DataSummary | null): boolean {
  return s !== null && Object.values(s).some((n) => n > 0);
}
