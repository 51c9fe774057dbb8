import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from './search-query.ts';

describe('toFtsQuery', () => {
  it.each([
    ['rss cloud', '"rss" "cloud"*'],
    ['rss cloud ', '"rss" "cloud"'],
    ['clo', '"clo"*'],
    ['"foo AND (', '"foo" "AND"'],
    ['NEAR(', '"NEAR"'],
    ['clou* rss', '"clou"* "rss"*'],
    ['clou*', '"clou"*'],
    ['NEAR(a b, 3)', '"NEAR a" "b" "3"'],
    ['e-mail', '"e mail"*'],
    ['title:secret', '"title secret"*'],
    ['a* OR b^', '"a" "OR" "b"'],
    ['-x +y', '"x" "y"'],
    ['ka', '"ka"'],
    ['kam', '"kam"*'],
    ['ka*', '"ka"'],
    ["it's", '"it s"'],
    ["it's fin", '"it s" "fin"*'],
    ['café naïve', '"café" "naïve"*'],
    ['日本語', '"日本語"*'],
    ['', null],
    ['   ', null],
    ['"()*^:-', null],
  ])('%j -> %j', (input, expected) => {
    expect(toFtsQuery(input)).toBe(expected);
  });

  it('caps the number of terms', () => {
    const q = toFtsQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))!;
    expect(q.split(' ')).toHaveLength(16);
  });

  // Every output must be valid FTS5: run each against a real table.
  it.each([
    '"foo AND (',
    'NEAR(',
    'NOT',
    'AND OR NOT',
    '"',
    '""""',
    'a"b',
    '(((',
    ')',
    '*',
    'foo*bar',
    '{title body}: x',
    '^start',
    'col:val',
    "'; DROP TABLE items; --",
    '\u0000\u0001',
    'a\u0301',
    '🙂 smile',
  ])('%j never produces an FTS syntax error', (input) => {
    const db = new DatabaseSync(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')");
    db.exec("INSERT INTO t VALUES ('foo and near', 'not smile start')");
    const q = toFtsQuery(input);
    if (q !== null) expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(q)).not.toThrow();
    db.close();
  });
});
