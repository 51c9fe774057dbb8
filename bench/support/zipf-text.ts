/**
 * Deterministic text for the benches' corpora: a PRNG (mulberry32, so every run makes the same
 * corpus) and a vocabulary of pronounceable words drawn with Zipf frequencies (word k with
 * probability ~ 1/k), so word frequencies, and what the search index and compression see, look
 * like real text.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'ze',
  'qua',
  'bri',
  'dor',
  'fen',
  'gal',
  'hux',
  'jin',
];

export interface ZipfText {
  /** Uniform in [0, 1). */
  rand(): number;
  word(): string;
  /** n words, space-separated. */
  words(n: number): string;
  /** Every word, the most frequent first. */
  vocabulary: readonly string[];
}

export function zipfText(seed: number, vocabularySize = 20_000): ZipfText {
  let state = seed;
  const rand = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const vocabulary = Array.from({ length: vocabularySize }, (_, k) => {
    let w = '';
    for (let n = k + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
    return w;
  });
  const harmonic = vocabulary.reduce((s, _, k) => s + 1 / (k + 1), 0);
  const cumulative = new Float64Array(vocabulary.length);
  let sum = 0;
  for (let k = 0; k < vocabulary.length; k++) cumulative[k] = sum += 1 / (k + 1) / harmonic;
  const word = (): string => {
    const r = rand();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  return { rand, word, words: (n) => Array.from({ length: n }, word).join(' '), vocabulary };
}
