/**
 * What a data folder holds, as the backup sees it (docs/backup.md keeps the same list for people).
 * Each database is one part of the backup, the writer's media files are parts of their own, and a
 * few files are the machine's own: left out of a backup, and left in place by a restore.
 */

import { MIGRATIONS as CLOUD_MIGRATIONS } from '../cloud/store/sqlite.ts';
import { PUBLISH_MIGRATIONS } from '../publish/publish-store.ts';
import { STORE_MIGRATIONS } from '../store/schema.ts';
import type { Migration } from '../store/sqlite.ts';

/** The databases a backup carries, by the name the backup gives them. */
export type DatabasePart = 'reader' | 'publish' | 'cloud';

export interface DatabaseSpec {
  part: DatabasePart;
  /** The file in the data folder. */
  file: string;
  /** What it holds, for people (the CLI's help, errors). */
  holds: string;
  /** The schema steps this Tidings knows: a backup whose database is further along is refused. */
  migrations: readonly Migration[];
  /** A backup without it is not a Tidings backup (the reader's is the heart of it). */
  required: boolean;
}

export const DATABASES: readonly DatabaseSpec[] = [
  {
    part: 'reader',
    file: 'tidings.db',
    holds:
      'subscriptions, folders, per-feed settings, items with their read and starred state, saved searches, mute filters, settings',
    migrations: STORE_MIGRATIONS,
    required: true,
  },
  {
    part: 'publish',
    file: 'publish.db',
    holds: "your posts, their publishing state, the hosted feeds, the composer's draft, publish settings",
    migrations: PUBLISH_MIGRATIONS,
    required: false,
  },
  {
    part: 'cloud',
    file: 'cloud.db',
    holds: "your own cloud's subscribers, accounts and the feeds saved through it",
    migrations: CLOUD_MIGRATIONS,
    required: false,
  },
];

/** The writer's media (files given as enclosures, hosted at /site/media/): one part per file. */
export const MEDIA_DIR = 'publish-media';
/** Part names of media files: `media/<file name>`. */
export const MEDIA_PREFIX = 'media/';

/**
 * Real-time subscriptions (rssCloud, WebSub) name this computer's address and are keyed by feed
 * ids: a restore moves them aside with the rest, and the app subscribes again as it reads each feed.
 */
export const RESET_ON_RESTORE: readonly string[] = ['realtime.db'];

/**
 * Settings that belong to the machine, not to the person: the install id picks this computer's
 * tunnel address, so two computers restored from one backup must not share it. Left out of a
 * backup; a restore over existing data keeps the folder's own.
 */
export const MACHINE_SETTINGS: readonly string[] = ['installId'];

/** A database file and the files SQLite keeps beside it while it is open. */
export const withSidecars = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

/** Every entry of the data folder a restore replaces (moved aside into the replaced copy). */
export function replacedEntries(): string[] {
  return [
    ...DATABASES.flatMap((d) => withSidecars(d.file)),
    ...RESET_ON_RESTORE.flatMap(withSidecars),
    MEDIA_DIR,
  ];
}

export const newestSchema = (migrations: readonly Migration[]): number =>
  migrations.reduce((max, m) => Math.max(max, m.version), 0);

export function databaseSpec(part: string): DatabaseSpec | undefined {
  return DATABASES.find((d) => d.part === part);
}

/**
 * A media file's name as it may travel in a backup: one plain name (what src/publish keeps:
 * content hash and extension), never a path. A crafted backup naming ../x is refused by this.
 */
export function isSafeMediaName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/.test(name) && !name.includes('..');
}
