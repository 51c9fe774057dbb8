/**
 * The search box's syntax (issue 9) -> an FTS5 MATCH expression that can never be a syntax
 * error, plus the terms to highlight. Words are ANDed; `a OR b` (capital OR) offers
 * alternatives; `-word` and `-"a phrase"` exclude; `"a phrase"` keeps words together; `pre*` is
 * a prefix (and the last word is one while the person is still typing it). Every word becomes a
 * quoted string of letters, digits and marks only, so FTS5's own operators, brackets and column
 * filters typed by a person are plain words or vanish (as in search-query.ts).
 */
const MAX_TERMS = 16;
const MIN_PREFIX = 3;
const MAX_INPUT = 1000;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export interface SearchTerm {
  /** The words, as typed (the tokenizer folds case and diacritics the same way on both sides). */
  words: string[];
  /** The last word is a prefix. */
  prefix: boolean;
}

export interface ParsedSearch {
  /** null when nothing positive is left to search for. */
  match: string | null;
  /** Terms to highlight (the positive ones). */
  terms: SearchTerm[];
}

interface Chunk {
  text: string;
  quoted: boolean;
  negated: boolean;
  /** Typed `*` at the end. */
  star: boolean;
}

function chunksOf(input: string): Chunk[] {
  const out: Chunk[] = [];
  // "quoted phrase" (optionally -"..."), or a run of non-space characters.
  const re = /(-?)"([^"]*)("?)|(\S+)/g;
  for (let m = re.exec(input); m; m = re.exec(input)) {
    if (m[4] !== undefined) {
      const raw = m[4];
      const negated = raw.startsWith('-') && raw.length > 1;
      out.push({ text: negated ? raw.slice(1) : raw, quoted: false, negated, star: raw.endsWith('*') });
    } else {
      const star = m[3] === '"' && input[re.lastIndex] === '*';
      if (star) re.lastIndex++;
      out.push({ text: m[2] ?? '', quoted: true, negated: m[1] === '-', star });
    }
  }
  return out;
}

const quote = (t: SearchTerm) =>
  `"${t.words.join(' ')}"${t.prefix && [...t.words[t.words.length - 1]!].length >= MIN_PREFIX ? '*' : ''}`;

export function parseSearch(input: string): ParsedSearch {
  const text = (input ?? '').slice(0, MAX_INPUT).normalize('NFC');
  const chunks = chunksOf(text);
  const typingLast = !/\s$/.test(text) && /[\p{L}\p{N}\p{M}]$/u.test(text);
  // Positive clauses: each a list of alternatives (OR); negatives: terms to exclude.
  const clauses: SearchTerm[][] = [];
  const negatives: SearchTerm[] = [];
  let joinNext = false;
  let count = 0;
  for (let i = 0; i < chunks.length && count < MAX_TERMS; i++) {
    const c = chunks[i]!;
    if (!c.quoted && !c.negated && c.text === 'OR') {
      // Only between two terms; a leading or trailing OR is the word "or".
      if (clauses.length > 0 && i < chunks.length - 1) {
        joinNext = true;
        continue;
      }
    }
    const words = c.text.match(WORD);
    if (!words) continue;
    const isLast = i === chunks.length - 1;
    const term: SearchTerm = { words, prefix: c.star || (isLast && typingLast && !c.quoted && !c.negated) };
    count++;
    if (c.negated) {
      negatives.push(term);
      joinNext = false;
    } else if (joinNext && clauses.length > 0) {
      clauses[clauses.length - 1]!.push(term);
      joinNext = false;
    } else {
      clauses.push([term]);
    }
  }
  const terms = clauses.flat();
  if (clauses.length === 0) return { match: null, terms: [] };
  const positive = clauses.map((alts) =>
    alts.length === 1 ? quote(alts[0]!) : `(${alts.map(quote).join(' OR ')})`,
  );
  let match = positive.join(' AND ');
  if (negatives.length > 0) match = `(${match}) NOT (${negatives.map(quote).join(' OR ')})`;
  return { match, terms };
}

/** Folds as the unicode61 tokenizer with remove_diacritics does: lower case, no combining marks. */
export function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** [start, end) ranges in `text` where any of the terms match, merged and in order. */
export function matchRanges(text: string, terms: readonly SearchTerm[]): [number, number][] {
  if (!text || terms.length === 0) return [];
  const tokens: { start: number; end: number; folded: string }[] = [];
  for (const m of text.matchAll(WORD)) {
    tokens.push({ start: m.index, end: m.index + m[0].length, folded: fold(m[0]) });
  }
  const folded = terms.map((t) => ({ words: t.words.map(fold), prefix: t.prefix }));
  const ranges: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (const t of folded) {
      const n = t.words.length;
      if (i + n > tokens.length) continue;
      let hit = true;
      for (let k = 0; k < n && hit; k++) {
        const tok = tokens[i + k]!.folded;
        const w = t.words[k]!;
        hit = k === n - 1 && t.prefix ? tok.startsWith(w) : tok === w;
      }
      if (hit) {
        ranges.push([tokens[i]!.start, tokens[i + n - 1]!.end]);
        break;
      }
    }
  }
  // Merge overlaps (a phrase and one of its words).
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/**
 * A window of `text` around its first match, with the ranges shifted into it. `text` must
 * already have its whitespace collapsed (the ranges are offsets into it as given).
 */
export function snippetOf(
  text: string,
  ranges: readonly [number, number][],
  width = 240,
): { snippet: string; ranges: [number, number][] } {
  const clean = text;
  const first = ranges[0];
  let start = first ? Math.max(0, first[0] - Math.floor(width / 4)) : 0;
  // Start at a word boundary so the snippet does not open mid-word.
  if (start > 0) {
    const space = clean.indexOf(' ', start);
    if (space !== -1 && space < (first?.[0] ?? start)) start = space + 1;
  }
  const end = Math.min(clean.length, start + width);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < clean.length ? '…' : '';
  const shifted: [number, number][] = [];
  for (const [a, b] of ranges) {
    if (b <= start || a >= end) continue;
    shifted.push([Math.max(a, start) - start + prefix.length, Math.min(b, end) - start + prefix.length]);
  }
  return { snippet: prefix + clean.slice(start, end) + suffix, ranges: shifted };
}
