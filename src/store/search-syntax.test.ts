import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { matchRanges, parseSearch, snippetOf } from './search-syntax.ts';

describe('parseSearch', () => {
  it.each([
    ['rss cloud ', '"rss" AND "cloud"'],
    ['rss clo', '"rss" AND "clo"*'],
    ['a OR b ', '("a" OR "b")'],
    ['x a OR b c ', '"x" AND ("a" OR "b") AND "c"'],
    ['a OR b OR c ', '("a" OR "b" OR "c")'],
    ['apple -pie ', '("apple") NOT ("pie")'],
    ['apple -"pie crust" -tart ', '("apple") NOT ("pie crust" OR "tart")'],
    ['"real time" feeds ', '"real time" AND "feeds"'],
    ['"real time"* ', '"real time"*'],
    ['ban* ', '"ban"*'],
    ['ba* ', '"ba"'],
    ['OR apple ', '"OR" AND "apple"'],
    ['apple OR ', '"apple" AND "OR"'],
    ['or apple ', '"or" AND "apple"'],
    ['-apple ', null],
    // As in search-query.ts: one chunk of text is one phrase ('e-mail' is "e mail").
    ['NEAR(a b) ', '"NEAR a" AND "b"'],
    ['', null],
  ])('%j -> %j', (input, expected) => {
    expect(parseSearch(input).match).toBe(expected);
  });

  it('lists the positive terms for highlighting', () => {
    expect(parseSearch('"real time" -no fe').terms).toEqual([
      { words: ['real', 'time'], prefix: false },
      { words: ['fe'], prefix: true },
    ]);
  });

  it.each([
    '"',
    '-',
    '- -',
    '"a" OR',
    'a OR OR b',
    '-"',
    '(((',
    '"unclosed phrase',
    '*',
    'a -b OR c',
    'NOT AND',
  ])('%j never makes an FTS syntax error', (input) => {
    const db = new DatabaseSync(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')");
    db.exec("INSERT INTO t VALUES ('a b c', 'unclosed phrase')");
    const q = parseSearch(input).match;
    if (q !== null) expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(q)).not.toThrow();
    db.close();
  });
});

describe('matchRanges and snippetOf', () => {
  const terms = parseSearch('"real time" café ban* ').terms;

  it('finds words, phrases and prefixes the way the tokenizer folds them', () => {
    const text = 'Real-time news at the Cafe: bananas, REAL TIME, realtime.';
    const hits = matchRanges(text, terms).map(([a, b]) => text.slice(a, b));
    expect(hits).toEqual(['Real-time', 'Cafe', 'bananas', 'REAL TIME']);
  });

  it('cuts a window around the first match and shifts the ranges into it', () => {
    const text = `${'lorem '.repeat(100)}the banana split ${'ipsum '.repeat(100)}`;
    const { snippet, ranges } = snippetOf(text, matchRanges(text, terms), 120);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(ranges.map(([a, b]) => snippet.slice(a, b))).toEqual(['banana']);
  });
});
