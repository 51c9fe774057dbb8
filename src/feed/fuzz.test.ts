/**
 * Mutated feeds (deterministic): whatever the damage, the parser answers with a feed, a redirect
 * or a readable error, never an unexpected throw (which parse.ts would report as "could not be
 * read"), and never slowly. A guard for the one-pass tree builder (xml/build.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse.ts';

const dir = new URL('./testdata/', import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => /\.(xml|rdf|json)$/.test(f))
  .map((f) => readFileSync(new URL(f, dir), 'utf8'));

const JUNK = [
  '<',
  '>',
  '&',
  '"',
  "'",
  ']]>',
  '<![CDATA[',
  '</',
  '/>',
  '<!--',
  '=',
  '\u0000',
  '&#x0;',
  '</item>',
  '<item>',
  ':',
  'xmlns:a="x"',
  '{',
  '}',
  '[',
  ']',
  ',',
];

describe('mutated feeds', () => {
  it('always give a feed, a redirect or a readable error, quickly', () => {
    let seed = 11;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const kinds = new Map<string, number>();
    for (let n = 0; n < 1500; n++) {
      let doc = fixtures[Math.floor(rnd() * fixtures.length)]!;
      for (let e = 1 + Math.floor(rnd() * 3); e > 0; e--) {
        const at = Math.floor(rnd() * doc.length);
        const r = rnd();
        if (r < 0.3) doc = doc.slice(0, at) + doc.slice(at + 1 + Math.floor(rnd() * 20));
        else if (r < 0.85) doc = doc.slice(0, at) + JUNK[Math.floor(rnd() * JUNK.length)] + doc.slice(at);
        else doc = doc.slice(0, at);
      }
      const t0 = performance.now();
      const result = parseFeed(doc);
      expect(performance.now() - t0).toBeLessThan(1000);
      const kind = result.kind === 'error' ? result.error.code : result.kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (result.kind === 'error') expect(result.error.message).not.toMatch(/could not be read/);
    }
    expect([...kinds.keys()].sort()).toEqual(['feed', 'feed.malformed', 'feed.notAFeed', 'redirect']);
  });
});
