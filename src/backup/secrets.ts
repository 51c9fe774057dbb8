/**
 * Finding the secrets SECRET_COLUMNS names in a database, taking them out of a backup's copy, and
 * putting them back into a restored one. What is taken out is kept whole (the cell as it was, or
 * the row for 'dropRow'), keyed by the row's primary key, so putting it back is one UPDATE or one
 * INSERT and needs no knowledge of what the value means.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { DatabasePart } from './layout.ts';
import { SECRET_COLUMNS, SECRET_JSON_KEY, type SecretColumn } from './secret-columns.ts';

/** A cell as JSON carries it: bytes travel as base64. */
export type CellValue = string | number | null | { b64: string };
type Row = Record<string, CellValue>;

/** One secret taken out of one row. */
export interface TakenSecret {
  part: DatabasePart;
  table: string;
  column: string;
  /** The row's primary key (its rowid when the table declares none). */
  key: Row;
  /** The cell as it was (absent for 'dropRow'). */
  value?: CellValue;
  /** The whole row ('dropRow' only). */
  row?: Row;
}

/** How many secrets of one kind, for the person ("3 feed logins"). */
export interface SecretCount {
  label: string;
  count: number;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

const toCell = (v: unknown): CellValue =>
  v instanceof Uint8Array
    ? { b64: Buffer.from(v).toString('base64') }
    : typeof v === 'bigint'
      ? Number(v)
      : (v as string | number | null);
const fromCell = (v: CellValue): SQLInputValue =>
  v !== null && typeof v === 'object' ? Buffer.from(v.b64, 'base64') : v;

function columnsOf(db: DatabaseSync, table: string): { name: string; pk: number }[] {
  return db.prepare(`PRAGMA table_info(${q(table)})`).all() as { name: string; pk: number }[];
}

/** The columns that name a row: the primary key's, else SQLite's rowid. */
function keyColumns(cols: { name: string; pk: number }[]): string[] {
  const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return pk.length > 0 ? pk.map((c) => c.name) : ['rowid'];
}

/** A URL's password when it has one (https://name:password@host/...), else null. */
function urlPassword(url: string): { password: string; without: string } | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(url);
  if (!m) return null;
  const authority = m[2]!;
  const at = authority.lastIndexOf('@');
  if (at < 0) return null;
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  if (colon < 0 || colon === userinfo.length - 1) return null;
  const user = userinfo.slice(0, colon);
  return {
    password: userinfo.slice(colon + 1),
    without: `${m[1]}${user ? `${user}@` : ''}${authority.slice(at + 1)}${m[3]}`,
  };
}

/** The JSON with every secret-named key's value replaced (null when it holds none). */
function jsonWithoutSecrets(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  let found = false;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) {
      if (SECRET_JSON_KEY.test(k) && typeof inner === 'string' && inner !== '') {
        found = true;
        // Unknown to anyone: a private feed stays private until its owner sets a new password.
        out[k] = randomBytes(18).toString('base64url');
      } else {
        out[k] = walk(inner);
      }
    }
    return out;
  };
  const cleaned = walk(value);
  return found ? JSON.stringify(cleaned) : null;
}

/** The secret in this cell, as its stand-in would be ('replace'), or null when it holds none. */
function standIn(spec: SecretColumn, value: unknown): { replaced: CellValue } | null {
  if (value === null || value === undefined) return null;
  switch (spec.holds) {
    case 'value':
      if (spec.replacement !== undefined && value === spec.replacement) return null;
      return { replaced: spec.replacement ?? null };
    case 'urlPassword': {
      const found = typeof value === 'string' ? urlPassword(value) : null;
      return found ? { replaced: found.without } : null;
    }
    case 'jsonKeys': {
      const cleaned = typeof value === 'string' ? jsonWithoutSecrets(value) : null;
      return cleaned === null ? null : { replaced: cleaned };
    }
  }
}

interface Found {
  spec: SecretColumn;
  key: Row;
  value: CellValue;
  replaced: CellValue;
  row: Row;
}

function find(db: DatabaseSync, part: DatabasePart, specs = SECRET_COLUMNS): Found[] {
  const out: Found[] = [];
  for (const spec of specs) {
    if (spec.part !== part) continue;
    const cols = columnsOf(db, spec.table);
    if (!cols.some((c) => c.name === spec.column)) continue; // an older database: not there yet
    const keys = keyColumns(cols);
    const where = `${q(spec.column)} IS NOT NULL${spec.where ? ` AND (${spec.where})` : ''}`;
    const select = keys.includes('rowid') ? 'rowid AS rowid, *' : '*';
    for (const raw of db.prepare(`SELECT ${select} FROM ${q(spec.table)} WHERE ${where}`).all()) {
      const r = raw as Record<string, unknown>;
      const stand = standIn(spec, r[spec.column]);
      if (!stand) continue;
      const row: Row = {};
      for (const c of cols) row[c.name] = toCell(r[c.name]);
      const key: Row = {};
      for (const k of keys) key[k] = toCell(r[k]);
      out.push({ spec, key, value: toCell(r[spec.column]), replaced: stand.replaced, row });
    }
  }
  return out;
}

/** How many secrets of each kind this database holds (the plan shown before a backup). */
export function countSecrets(db: DatabaseSync, part: DatabasePart): SecretCount[] {
  return tally(find(db, part).map((f) => f.spec.label));
}

export function tally(labels: readonly string[]): SecretCount[] {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts].map(([label, count]) => ({ label, count }));
}

const keyClause = (key: Row) =>
  Object.keys(key)
    .map((k) => `${k === 'rowid' ? 'rowid' : q(k)} IS ?`)
    .join(' AND ');

/**
 * Takes every secret out of a backup's own copy of a database (never the live one): each is put
 * in its stand-in's place, or its row is deleted. Returns what was taken, to seal or to drop.
 * Only live rows are reached here: the copy's free space may still hold secrets deleted long
 * before, so the caller rebuilds the copy afterwards (database-jobs.ts cleanCopy). The bytes
 * taken out here are overwritten meanwhile (secure_delete), in case the staged copy outlives us.
 */
export function takeSecrets(db: DatabaseSync, part: DatabasePart): TakenSecret[] {
  db.exec('PRAGMA secure_delete = ON');
  // Rows are taken out as they are: a cascade must not take more (it is put back as it was).
  db.exec('PRAGMA foreign_keys = OFF');
  const found = find(db, part);
  const taken: TakenSecret[] = [];
  db.exec('BEGIN');
  try {
    for (const f of found) {
      const { table, column } = f.spec;
      const where = keyClause(f.key);
      const keyValues = Object.values(f.key).map(fromCell);
      if (f.spec.withoutIt === 'dropRow') {
        db.prepare(`DELETE FROM ${q(table)} WHERE ${where}`).run(...keyValues);
        taken.push({ part, table, column, key: f.key, row: f.row });
        continue;
      }
      const replaced = f.spec.withoutIt === 'null' ? null : f.replaced;
      const update = db.prepare(`UPDATE ${q(table)} SET ${q(column)} = ? WHERE ${where}`);
      try {
        update.run(fromCell(replaced), ...keyValues);
      } catch (e) {
        // Two addresses that differ only by their password would collide once it is gone: the
        // second keeps a fragment (never sent to the server) that tells them apart.
        if (typeof replaced !== 'string' || !/UNIQUE/.test(String(e))) throw e;
        update.run(`${replaced}#secret-left-out-${taken.length}`, ...keyValues);
      }
      taken.push({ part, table, column, key: f.key, value: f.value });
    }
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
  return taken;
}

/**
 * Puts sealed secrets back into a restored database. Returns a sentence for each one that found
 * no place (the backup's rows changed under it: should not happen, but is said, not hidden).
 */
export function putSecretsBack(
  db: DatabaseSync,
  part: DatabasePart,
  secrets: readonly TakenSecret[],
): string[] {
  const problems: string[] = [];
  db.exec('PRAGMA foreign_keys = OFF');
  db.exec('BEGIN');
  try {
    for (const s of secrets) {
      if (s.part !== part) continue;
      const keyValues = Object.values(s.key).map(fromCell);
      if (s.row) {
        const cols = Object.keys(s.row);
        db.prepare(
          `INSERT OR REPLACE INTO ${q(s.table)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        ).run(...Object.values(s.row).map(fromCell));
        continue;
      }
      const r = db
        .prepare(`UPDATE ${q(s.table)} SET ${q(s.column)} = ? WHERE ${keyClause(s.key)}`)
        .run(fromCell(s.value ?? null), ...keyValues);
      if (Number(r.changes) !== 1)
        problems.push(`A secret of ${s.table}.${s.column} found no row to return to.`);
    }
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  } finally {
    db.exec('PRAGMA foreign_keys = ON');
  }
  return problems;
}

/** What the person loses when these secrets stay out, for the warning. */
export function labelsOf(secrets: readonly TakenSecret[]): SecretCount[] {
  return tally(
    secrets.map(
      (s) =>
        SECRET_COLUMNS.find((c) => c.part === s.part && c.table === s.table && c.column === s.column)
          ?.label ?? `${s.table}.${s.column}`,
    ),
  );
}
