/**
 * The secrets list is complete for the databases as the app makes them: every column whose name
 * looks like a secret is either in SECRET_COLUMNS (it never leaves in plain text) or in NOT_SECRET
 * with the reason. A new table with a password or a token fails here until it is listed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPublisher } from '../testing/app-fixture.ts';
import { DATABASES } from './layout.ts';
import { NOT_SECRET, SECRET_COLUMNS } from './secret-columns.ts';

/** A name made of words, one of which names a secret: password_hash, api_key, secret (not authors). */
const LOOKS_SECRET =
  /(^|_)(pass|password|passwd|passphrase|secret|token|credentials?|hash|key|auth|salt|cookie|session)(_|$)/i;

let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tidings-secret-columns-'));
  // Started and stopped once: every database and sibling schema a running app makes is there.
  const { app } = await createLoopbackPublisher(dataDir);
  app.start();
  await app.realtimeStarted();
  await app.stop();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function columns(file: string): { table: string; column: string; notNull: boolean }[] {
  const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    return tables.flatMap(({ name }) =>
      (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; notnull: number }[]).map((c) => ({
        table: name,
        column: c.name,
        notNull: c.notnull === 1,
      })),
    );
  } finally {
    db.close();
  }
}

describe('the secrets list', () => {
  it('names every column that looks like a secret, or says why it is not one', () => {
    const unlisted: string[] = [];
    for (const d of DATABASES) {
      for (const c of columns(d.file)) {
        const name = `${d.part}.${c.table}.${c.column}`;
        if (!LOOKS_SECRET.test(c.column)) continue;
        const listed = SECRET_COLUMNS.some(
          (s) => s.part === d.part && s.table === c.table && s.column === c.column,
        );
        if (!listed && !(name in NOT_SECRET)) unlisted.push(name);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it('lists only columns that exist, with a stand-in each can hold', () => {
    for (const s of SECRET_COLUMNS) {
      const file = DATABASES.find((d) => d.part === s.part)!.file;
      const col = columns(file).find((c) => c.table === s.table && c.column === s.column);
      expect(col, `${s.part}.${s.table}.${s.column}`).toBeDefined();
      if (s.withoutIt === 'null') expect(col!.notNull, `${s.table}.${s.column} must be nullable`).toBe(false);
      if (s.withoutIt === 'replace' && s.holds === 'value') expect(s.replacement).toBeTypeOf('string');
    }
  });
});
