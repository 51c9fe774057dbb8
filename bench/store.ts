/**
 * bench:store — the reader's store at 100,000 items on a file database.
 * 1. insert: 200 feeds x 500 items through upsertItems, in fetch-sized batches of 50
 *    (one transaction each, as the poller does), titles and ~500-byte HTML summaries drawn
 *    from a Zipf-distributed vocabulary so word frequencies look like real text;
 * 2. search: eight different queries (rare, medium and common words, two words, prefixes as
 *    typed), the median over all runs;
 * 3. river: the first page and a deep page (item 50,000, reached by cursor), median.
 * The store is closed and reopened between inserting and querying (cold page cache).
 * Ends with one JSON line: {"insert_100k_s":..,"fts_ms":..,"river_page_ms":..}
 */
import { statSync } from 'node:fs';
import type { Item } from '../src/feed/model.ts';
import { openStore } from '../src/store/store.ts';
import { tempDir } from '../src/store/test-support.ts';

const FEEDS = 200;
const PER_FEED = 500;
const BATCH = 50;
const RUNS = 15;

// Deterministic PRNG (mulberry32): the same corpus on every run.
let seed = 0x7d1d6;
function rand(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// A vocabulary of 20,000 pronounceable words; word k is drawn with probability ~ 1/k (Zipf).
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
const VOCAB = Array.from({ length: 20_000 }, (_, k) => {
  let w = '';
  let n = k + 7;
  while (n > 0) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return w;
});
const HARMONIC = VOCAB.reduce((s, _, k) => s + 1 / (k + 1), 0);
const CUMULATIVE = (() => {
  const c = new Float64Array(VOCAB.length);
  let s = 0;
  for (let k = 0; k < VOCAB.length; k++) c[k] = s += 1 / (k + 1) / HARMONIC;
  return c;
})();
function word(): string {
  const r = rand();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo]!;
}
const words = (n: number) => Array.from({ length: n }, word).join(' ');

function makeItem(feed: number, k: number, base: number): Item {
  const summary = `<p>${words(30)} <a href="https://example.com/${feed}/${k}">${words(3)}</a> ${words(25)}</p><p>${words(20)}</p>`;
  return {
    id: `https://example.com/${feed}/${k}`,
    title: words(4 + Math.floor(rand() * 6)),
    link: `https://example.com/${feed}/${k}`,
    summary,
    content: null,
    published: new Date(base + k * 60_000).toISOString(),
    updated: null,
    authors: [{ name: `Author ${feed}`, email: null, uri: null }],
    categories: [{ term: word(), scheme: null, label: null }],
    enclosures: [],
    comments: null,
    media: [],
    children: [],
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

const dir = tempDir('tidings-bench-store-');
const path = dir.file('bench.db');
try {
  // Build the corpus first so only the store is timed.
  const T0 = Date.UTC(2026, 0, 1);
  const batches: { feed: number; items: Item[]; seenAt: number }[] = [];
  for (let round = 0; round < PER_FEED / BATCH; round++) {
    for (let f = 0; f < FEEDS; f++) {
      const items = Array.from({ length: BATCH }, (_, i) => makeItem(f, round * BATCH + i, T0));
      batches.push({ feed: f, items, seenAt: T0 + (round * FEEDS + f) * 60_000 });
    }
  }
  const avgSummary = batches[0]!.items.reduce((s, i) => s + (i.summary?.length ?? 0), 0) / BATCH;

  let store = openStore(path);
  const feedIds = Array.from(
    { length: FEEDS },
    (_, f) => store.addFeed({ url: `https://example.com/${f}/feed` }).feed.id,
  );
  const t0 = performance.now();
  let inserted = 0;
  for (const b of batches) inserted += store.upsertItems(feedIds[b.feed]!, b.items, b.seenAt).inserted.length;
  const insertS = (performance.now() - t0) / 1000;
  // A re-fetch of unchanged items: the poller's most common case.
  const t1 = performance.now();
  for (const b of batches.slice(0, 200)) store.upsertItems(feedIds[b.feed]!, b.items, b.seenAt + 1);
  const unchangedMsPerFetch = (performance.now() - t1) / 200;
  store.close();
  const sizeMb = statSync(path).size / 1024 / 1024;

  store = openStore(path);
  // Queries across the frequency range (the vocabulary's rank k appears in about 1/k of texts).
  // The last two are as-you-type prefixes (no trailing space), one of only three letters.
  const queries = [
    VOCAB[40]!,
    VOCAB[300]!,
    VOCAB[2_000]!,
    VOCAB[9_000]!,
    `${VOCAB[60]} ${VOCAB[150]}`,
    `${VOCAB[25]} ${VOCAB[800]} `,
    VOCAB[500]!.slice(0, 5),
    VOCAB[120]!.slice(0, 3),
  ];
  const ftsTimes: number[] = [];
  let slowestQuery = 0;
  const perQuery: string[] = [];
  for (const q of queries) {
    const times: number[] = [];
    let hits = 0;
    for (let r = 0; r < RUNS; r++) {
      const s = performance.now();
      hits = store.search(q, 50).length;
      times.push(performance.now() - s);
    }
    ftsTimes.push(...times);
    slowestQuery = Math.max(slowestQuery, median(times));
    perQuery.push(
      `  ${JSON.stringify(q).padEnd(28)} ${String(hits).padStart(3)} hits  median ${round(median(times))} ms`,
    );
  }

  const firstTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const s = performance.now();
    store.riverItems({ limit: 50 });
    firstTimes.push(performance.now() - s);
  }
  // Walk to item 50,000 by cursor, then time that deep page.
  let cursor: string | null = null;
  for (let p = 0; p < 1_000; p++) cursor = store.riverItems({ limit: 50, cursor }).nextCursor;
  const deepTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const s = performance.now();
    store.riverItems({ limit: 50, cursor });
    deepTimes.push(performance.now() - s);
  }
  const unreadTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const s = performance.now();
    store.riverItems({ limit: 50, cursor, unreadOnly: true, feedId: feedIds[7] });
    unreadTimes.push(performance.now() - s);
  }
  const countT = performance.now();
  const unread = store.unreadCount();
  const feedsListed = store.listFeeds().length;
  const listMs = performance.now() - countT;
  store.close();

  const fts = median(ftsTimes);
  const river = Math.max(median(firstTimes), median(deepTimes));
  console.log(
    `store: ${inserted} items in ${FEEDS} feeds (summaries ~${Math.round(avgSummary)} bytes), ${round(sizeMb, 1)} MB on disk`,
  );
  console.log(
    `insert: ${round(insertS)} s (${Math.round(inserted / insertS)} items/s, ${batches.length} upsert batches of ${BATCH})`,
  );
  console.log(`re-upsert of an unchanged 50-item fetch: ${round(unchangedMsPerFetch)} ms`);
  console.log(`search, median of ${RUNS} runs each:`);
  for (const line of perQuery) console.log(line);
  console.log(`search median over all: ${round(fts)} ms (slowest query's median ${round(slowestQuery)} ms)`);
  console.log(
    `river first page: ${round(median(firstTimes))} ms; page at item 50,000 (cursor): ${round(median(deepTimes))} ms`,
  );
  console.log(`river one feed, unread only, deep cursor: ${round(median(unreadTimes))} ms`);
  console.log(`unreadCount + listFeeds (${feedsListed} feeds, ${unread} unread): ${round(listMs)} ms`);
  console.log(
    JSON.stringify({ insert_100k_s: round(insertS), fts_ms: round(fts), river_page_ms: round(river) }),
  );
} finally {
  dir.remove();
}
