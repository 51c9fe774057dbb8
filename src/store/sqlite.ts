/**
 * The one way to open a SQLite database (node:sqlite, no native build). Used by the reader's
 * store and by the cloud's. WAL + synchronous=NORMAL: a killed process never leaves a torn
 * database; every multi-row write goes through `transaction`. secure_delete: what is deleted or
 * replaced is overwritten with zeros where it stood, so a changed or removed secret (a feed's
 * login, an app password's hash, the writer's passwords) does not live on in free space, where a
 * copy of the file (a backup, a disk image) would carry it.
 */

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** One schema step. Migrations run in order, each in its own transaction, tracked by user_version. */
export interface Migration {
  version: number;
  sql: string;
  /**
   * Rebuilds a table (SQLite's only way to change a column, e.g. to add AUTOINCREMENT): foreign
   * keys are switched off around the step so dropping the old parent table does not cascade into
   * its children, and checked before the step commits (sqlite.org/lang_altertable.html, 12 steps).
   */
  rebuildsTables?: boolean;
}

export function openDatabase(path: string, migrations: readonly Migration[]): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA secure_delete = ON');
  migrate(db, migrations);
  return db;
}

function migrate(db: DatabaseSync, migrations: readonly Migration[]): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  const current = row.user_version;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    // PRAGMA foreign_keys is a no-op inside a transaction: switch it before BEGIN.
    if (m.rebuildsTables) db.exec('PRAGMA foreign_keys = OFF');
    try {
      transaction(db, () => {
        db.exec(m.sql);
        if (m.rebuildsTables) {
          const broken = db.prepare('PRAGMA foreign_key_check').all();
          if (broken.length > 0)
            throw new Error(`migration ${m.version} left ${broken.length} broken references`);
        }
        db.exec(`PRAGMA user_version = ${Math.trunc(m.version)}`);
      });
    } finally {
      if (m.rebuildsTables) db.exec('PRAGMA foreign_keys = ON');
    }
  }
}

/** Runs `fn` in one transaction (nested calls join the outer one). */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}
