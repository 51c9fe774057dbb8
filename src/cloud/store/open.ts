/**
 * Which store a cloud keeps its state in, from one string: a PostgreSQL URL (postgres:// or
 * postgresql://) opens the shared store every instance of a cloud uses; anything else is the
 * SQLite file of a cloud on one machine (the embedded default: no database to install).
 */

import { PgCloudStore, type PgStoreOptions } from './pg.ts';
import { SqliteCloudStore } from './sqlite.ts';
import type { CloudStore } from './store.ts';

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** `pg`: how the PostgreSQL store runs (tidings cloud --database-statements); SQLite has no such options. */
export function openCloudStore(location: string, pg: PgStoreOptions = {}): CloudStore {
  return isPostgresUrl(location) ? new PgCloudStore(location, pg) : SqliteCloudStore.open(location);
}
