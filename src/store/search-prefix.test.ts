import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../common/clock.ts';
import { createContext, type StoreContext } from './context.ts';
import { STORE_MIGRATIONS } from './schema.ts';
import { MAX_EXPANSION, prefixExpander } from './search-prefix.ts';
import { openDatabase } from './sqlite.ts';

let db: DatabaseSync;
let ctx: StoreContext;

beforeEach(() => {
  db = openDatabase(':memory:', STORE_MIGRATIONS);
  ctx = createContext(db, systemClock);
  const rows: [string, string][] = [
    ['Gopherholes in winter', 'x'],
    ['gophers', 'an e gopherine'],
    ['Gophér', 'plain'],
    ['gopfoo', 'e mail and e mailbox'],
    ['unrelated', 'gopherx ran'],
  ];
  const insert = db.prepare('INSERT INTO items_fts (rowid, title, body) VALUES (?, ?, ?)');
  for (const [i, [title, body]] of rows.entries()) insert.run(i + 1, title, body);
});
afterEach(() => db.close());

/** Row ids FTS5 itself matches, newest first. */
const native = (match: string) =>
  (
    db
      .prepare('SELECT rowid AS id FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid DESC')
      .all(match) as {
      id: number;
    }[]
  ).map((r) => r.id);

describe('prefixExpander', () => {
  it.each([
    '"gophe"*',
    '"GOPHE"*',
    '"e gophe"*',
    '"e mail"*',
    '"gopher"* AND "x"',
    '("ran" OR "gophers"*) NOT ("plain")',
    '{title} : ("gophe"*)',
    '"gopfoo"*',
  ])('%s finds the same rows as FTS5 prefix matching', (match) => {
    const expanded = prefixExpander(ctx)(match);
    expect(native(expanded)).toEqual(native(match));
    expect(native(match).length).toBeGreaterThan(0);
  });

  it('spells a long prefix out as the indexed words and leaves short, unknown and non-ASCII ones', () => {
    const expand = prefixExpander(ctx);
    expect(expand('"gophe"*')).toBe('("gopher" OR "gopherholes" OR "gopherine" OR "gophers" OR "gopherx")');
    expect(expand('"e gopheri"*')).toBe('"e gopherine"');
    // Three letters are in the prefix index already.
    expect(expand('"gop"*')).toBe('"gop"*');
    expect(expand('"zzzz"*')).toBe('"zzzz"*');
    expect(expand('"gophé"*')).toBe('("gopher" OR "gopherholes" OR "gopherine" OR "gophers" OR "gopherx")');
    expect(expand('"жжжж"*')).toBe('"жжжж"*');
    expect(expand('"gophers" AND "x"')).toBe('"gophers" AND "x"');
  });

  it('keeps FTS5 prefix matching when too many words start with the prefix', () => {
    const insert = db.prepare('INSERT INTO items_fts (rowid, title, body) VALUES (?, ?, ?)');
    for (let i = 0; i <= MAX_EXPANSION; i++) insert.run(100 + i, `manyword${i}`, '');
    expect(prefixExpander(ctx)('"manyw"*')).toBe('"manyw"*');
    expect(native('"manyw"*')).toHaveLength(MAX_EXPANSION + 1);
  });
});
