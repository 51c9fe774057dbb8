/**
 * bench:store — the reader's store at 1,000,000 items on a file database.
 * 1. insert: 1,000 feeds x 1,000 items through upsertItems, in fetch-sized batches of 50
 *    (one transaction each, as the poller does), titles and ~500-byte HTML summaries drawn
 *    from a Zipf-distributed vocabulary so word frequencies look like real text;
 * 2. search: eight different queries (rare, medium and common words, two words, prefixes as
 *    typed), the median over all runs;
 * 3. river: the first page and a deep page (half way down, reached by cursor), median;
 * 4. counts: the feed list with every feed's unread count, plus the total (what the sidebar asks).
 * The store is closed and reopened between inserting and querying (cold page cache).
 * The corpus is generated batch by batch (1M items at once would not fit in memory); only the
 * upserts are timed. ITEMS=100000 for a quick run.
 * STORE_BENCH_DB=/path/bench.db keeps the built database there and, when the file already
 * exists, skips the insert (insert_s is then null) so query work can be measured in seconds.
 * Ends with one JSON line: {"items":..,"insert_s":..,"fts_ms":..,"river_page_ms":..,"counts_ms":..}
 */
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import type { Item } from '../src/feed/model.ts';
import { openStore } from '../src/store/store.ts';
import { tempDir } from '../src/store/test-support.ts';
import { zipfText } from './support/zipf-text.ts';

const ITEMS = Number(process.env.ITEMS ?? 1_000_000);
const FEEDS = 1_000;
const PER_FEED = Math.ceil(ITEMS / FEEDS);
const BATCH = 50;
const RUNS = 15;

// The same corpus on every run: word frequencies as in real text (bench/support/zipf-text.ts).
const { rand, word, words, vocabulary: VOCAB } = zipfText(0x7d1d6);

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

function countItems(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const round2 = (x: number) => round(x, 1);

const dir = tempDir('tidings-bench-store-');
const keptDb = process.env.STORE_BENCH_DB || null;
const reuse = keptDb !== null && existsSync(keptDb);
const path = keptDb ?? dir.file('bench.db');
try {
  const T0 = Date.UTC(2026, 0, 1);
  const batchOf = (round: number, f: number) => ({
    feed: f,
    items: Array.from({ length: BATCH }, (_, i) => makeItem(f, round * BATCH + i, T0)),
    seenAt: T0 + (round * FEEDS + f) * 60_000,
  });
  const firstBatch = batchOf(0, 0);
  const avgSummary = firstBatch.items.reduce((s, i) => s + (i.summary?.length ?? 0), 0) / BATCH;

  let store = openStore(path);
  const feedIds = reuse
    ? store.listFeeds().map((f) => f.id)
    : Array.from(
        { length: FEEDS },
        (_, f) => store.addFeed({ url: `https://example.com/${f}/feed` }).feed.id,
      );
  let insertMs = 0;
  let insertCpuUs = 0;
  let inserted = 0;
  let batches = 0;
  const kept: ReturnType<typeof batchOf>[] = [];
  for (let round = 0; !reuse && round < PER_FEED / BATCH; round++) {
    for (let f = 0; f < FEEDS; f++) {
      const b = batchOf(round, f);
      if (kept.length < 200) kept.push(b);
      const s = performance.now();
      const c = process.cpuUsage();
      inserted += store.upsertItems(feedIds[b.feed]!, b.items, b.seenAt).inserted.length;
      const used = process.cpuUsage(c);
      insertCpuUs += used.user + used.system;
      insertMs += performance.now() - s;
      batches++;
    }
    if (round % 4 === 3) console.log(`  ... ${inserted} items, ${round2(insertMs / 1000)} s`);
  }
  const insertS = insertMs / 1000;
  // A re-fetch of unchanged items: the poller's most common case.
  const t1 = performance.now();
  for (const b of kept) store.upsertItems(feedIds[b.feed]!, b.items, b.seenAt + 1);
  const unchangedMsPerFetch = reuse ? Number.NaN : (performance.now() - t1) / kept.length;
  if (reuse) inserted = countItems(path);
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
  // CPU time too: on a shared machine the wall clock is mostly other processes' turns.
  const ftsCpu: number[] = [];
  let slowestQuery = 0;
  const perQuery: string[] = [];
  for (const q of queries) {
    const times: number[] = [];
    const cpu: number[] = [];
    let hits = 0;
    for (let r = 0; r < RUNS; r++) {
      const s = performance.now();
      const c = process.cpuUsage();
      hits = store.search(q, 50).length;
      const used = process.cpuUsage(c);
      times.push(performance.now() - s);
      cpu.push((used.user + used.system) / 1000);
    }
    ftsTimes.push(...times);
    ftsCpu.push(...cpu);
    slowestQuery = Math.max(slowestQuery, median(times));
    perQuery.push(
      `  ${JSON.stringify(q).padEnd(28)} ${String(hits).padStart(3)} hits  median ${round(median(times))} ms (CPU ${round(median(cpu))} ms)`,
    );
  }

  const firstTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const s = performance.now();
    store.riverItems({ limit: 50 });
    firstTimes.push(performance.now() - s);
  }
  // Walk half way down by cursor, then time that deep page.
  let cursor: string | null = null;
  const deepPages = Math.floor(inserted / 2 / 50);
  for (let p = 0; p < deepPages; p++) cursor = store.riverItems({ limit: 50, cursor }).nextCursor;
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
  // The sidebar's question: every feed with its unread count, and the total.
  const countTimes: number[] = [];
  let unread = 0;
  let feedsListed = 0;
  for (let r = 0; r < RUNS; r++) {
    const s = performance.now();
    unread = store.unreadCount();
    feedsListed = store.listFeeds().length;
    countTimes.push(performance.now() - s);
  }
  const countsMs = median(countTimes);
  store.close();

  const fts = median(ftsTimes);
  const river = Math.max(median(firstTimes), median(deepTimes));
  console.log(
    `store: ${inserted} items in ${FEEDS} feeds (summaries ~${Math.round(avgSummary)} bytes), ${round(sizeMb, 1)} MB on disk`,
  );
  console.log(
    `insert: ${round(insertS)} s, CPU ${round(insertCpuUs / 1e6)} s (${Math.round(inserted / insertS)} items/s, ${batches} upsert batches of ${BATCH})`,
  );
  console.log(`re-upsert of an unchanged 50-item fetch: ${round(unchangedMsPerFetch)} ms`);
  console.log(`search, median of ${RUNS} runs each:`);
  for (const line of perQuery) console.log(line);
  console.log(
    `search median over all: ${round(fts)} ms, CPU ${round(median(ftsCpu))} ms (slowest query's median ${round(slowestQuery)} ms)`,
  );
  console.log(
    `river first page: ${round(median(firstTimes))} ms; page at item ${deepPages * 50} (cursor): ${round(median(deepTimes))} ms`,
  );
  console.log(`river one feed, unread only, deep cursor: ${round(median(unreadTimes))} ms`);
  console.log(
    `unreadCount + listFeeds (${feedsListed} feeds, ${unread} unread), median: ${round(countsMs)} ms`,
  );
  console.log(
    JSON.stringify({
      items: inserted,
      insert_s: reuse ? null : round(insertS),
      insert_cpu_s: reuse ? null : round(insertCpuUs / 1e6),
      fts_ms: round(fts),
      fts_cpu_ms: round(median(ftsCpu)),
      fts_slowest_ms: round(slowestQuery),
      river_page_ms: round(river),
      counts_ms: round(countsMs),
      load_avg: round(loadavg()[0]!, 1),
    }),
  );
} finally {
  dir.remove();
}
