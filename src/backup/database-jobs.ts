/**
 * The heavy SQLite work of a backup and of a restore, on one database file each: run on a worker
 * thread (backup-worker.ts, started by off-thread.ts) because node:sqlite is synchronous and the
 * app stays in the same process while it backs up or prepares a restore (Settings > Backup).
 * Every argument and answer here crosses threads: plain data only.
 */
import { DatabaseSync } from 'node:sqlite';
import type { DataSummary } from '../app/api.ts';
import { openDatabase } from '../store/sqlite.ts';
import { type DatabasePart, databaseSpec, MACHINE_SETTINGS } from './layout.ts';
import { putSecretsBack, type TakenSecret, takeSecrets } from './secrets.ts';
import { summarizeDatabase } from './summary.ts';

/** What one database adds to a backup's or a restore's summary (its own counts only). */
export type PartSummary = Partial<DataSummary>;

function summaryOf(db: DatabaseSync, part: DatabasePart): PartSummary {
  const counts = {} as DataSummary;
  summarizeDatabase(db, part, counts);
  return counts;
}

export interface CleanCopy {
  /** The secrets taken out, to seal or to leave out. */
  taken: TakenSecret[];
  summary: PartSummary;
  schemaVersion: number;
}

/**
 * A backup's copy of a database (`copy`, made by the backup API) made fit to leave: its secrets
 * and the machine's own settings taken out, then rebuilt into `into` with only its live rows.
 * The backup API copies pages as they are, free space included, and free space keeps the bytes
 * of rows deleted or rewritten long ago (a feed login changed, a feed with a login removed, the
 * first version of a row the first fetch rewrote): taking the secrets out of the live rows
 * cannot reach those. VACUUM INTO writes every live row into a new file and nothing else.
 */
function cleanCopy({ part, copy, into }: { part: DatabasePart; copy: string; into: string }): CleanCopy {
  const db = new DatabaseSync(copy);
  try {
    // Its few changes go through a rollback journal, not a WAL to fold in when it closes. (The
    // rebuilt file is always a rollback-journal database: the part is exactly that one file.)
    db.exec('PRAGMA journal_mode = DELETE');
    // Copies to pack, not to keep (VACUUM INTO writes as this connection does): no waiting for the disk.
    db.exec('PRAGMA synchronous = OFF');
    const taken = takeSecrets(db, part);
    if (part === 'reader') {
      const drop = db.prepare('DELETE FROM settings WHERE key = ?');
      for (const key of MACHINE_SETTINGS) drop.run(key);
    }
    const summary = summaryOf(db, part);
    const { user_version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
    db.prepare('VACUUM INTO ?').run(into);
    return { taken, summary, schemaVersion: user_version };
  } finally {
    db.close();
  }
}

export interface SettledRestore {
  /** A sentence for each secret that found no place to go back to. */
  problems: string[];
  summary: PartSummary;
}

/**
 * A database a restore wrote into its staging folder, made ready to be put in place: the sealed
 * secrets back in their rows, the reader fitted to this computer, and opened as the app opens it
 * (an older backup's schema is brought up to date now, and a database that cannot be opened is
 * refused before anything is replaced).
 */
function settleRestored({
  part,
  path,
  secrets,
  machineSettings,
}: {
  part: DatabasePart;
  path: string;
  secrets: TakenSecret[];
  machineSettings: [string, string][];
}): SettledRestore {
  const spec = databaseSpec(part);
  if (!spec) throw new Error(`no database is named ${part}`);
  const db = new DatabaseSync(path);
  let problems: string[];
  try {
    problems = putSecretsBack(db, part, secrets);
    if (part === 'reader') fitReaderToThisComputer(db, machineSettings);
  } finally {
    db.close();
  }
  const migrated = openDatabase(path, spec.migrations);
  try {
    const summary = summaryOf(migrated, part);
    migrated.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return { problems, summary };
  } finally {
    migrated.close();
  }
}

/**
 * The restored reader database as this computer runs it: the folder's own install id stays, and
 * every feed is due at once, so the river catches up on what came since the backup and real-time
 * subscriptions (which name the old address, and were not restored) are made again as each feed
 * is read, instead of waiting for a plan made on another computer or on another day.
 */
function fitReaderToThisComputer(db: DatabaseSync, machineSettings: [string, string][]): void {
  const keep = db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
  for (const [key, value] of machineSettings) keep.run(key, value);
  db.exec('UPDATE feeds SET next_due_at = NULL');
}

export const DATABASE_JOBS = { cleanCopy, settleRestored };
