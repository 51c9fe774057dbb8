/**
 * bench:reading — the reading experience's queries at 100,000 items across 1,000 feeds in 50
 * folders (issue 9), on a file database:
 * - folder_river_ms: the first two river pages of a folder (20 feeds), median;
 * - group_cap_page_ms: the first page of All with groupCap 3 (every fetch is 100 items), median;
 * - search_all_ms / search_folder_ms / search_feed_ms: a common word, `a OR b`, `a -b`, a
 *   phrase and a prefix, scoped to everything, a folder (20 feeds) or one feed, median;
 * - mute_insert_overhead_pct: inserting 10,000 more items with 5 mute filters (3 keywords,
 *   2 regexes) against without any.
 * Ends with one JSON line of those figures.
 */

import { parseSearch } from '../src/store/search-syntax.ts';
import { openStore } from '../src/store/store.ts';
import { makeItem, tempDir } from '../src/store/test-support.ts';

const FEEDS = 1000;
const PER_FEED = 100;
const FOLDERS = 50;
const RUNS = 9;
const WORDS = [
  'apple',
  'banana',
  'cloud',
  'river',
  'feed',
  'news',
  'rust',
  'node',
  'sqlite',
  'search',
  'mango',
  'kiwi',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(fn: () => unknown): number {
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  return median(runs);
}
const itemsFor = (f: number, prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeItem(`${prefix}${i}`, {
      title: `${WORDS[(i + f) % WORDS.length]} ${WORDS[(i * 5 + f) % WORDS.length]} story ${i}`,
      summary: `<p>About <b>${WORDS[(i * 7 + f) % WORDS.length]}</b> and ${WORDS[(i * 3) % WORDS.length]} today, item ${i}.</p>`,
    }),
  );

const dir = tempDir('tidings-bench-reading-');
const store = openStore(dir.file('tidings.db'));
try {
  const folders: number[] = [];
  for (let d = 0; d < FOLDERS; d++) folders.push(store.ensureFolderPath(`Folder ${d}/Sub`)!);
  const feeds: number[] = [];
  for (let f = 0; f < FEEDS; f++) {
    const id = store.addFeed({ url: `https://feed${f}.example/rss` }).feed.id;
    store.setFeedSettings(id, { folderId: folders[f % FOLDERS]! });
    feeds.push(id);
  }
  for (let f = 0; f < FEEDS; f++)
    store.upsertItems(feeds[f]!, itemsFor(f, 'i', PER_FEED), 1_000_000 + f * 1000);

  const folder = store.ensureFolderPath('Folder 7')!;
  const folderFeeds = store.feedIdsInFolder(folder);
  const folderRiver = time(() => {
    const p = store.riverItems({ feedIds: folderFeeds, limit: 50 });
    store.riverItems({ feedIds: folderFeeds, limit: 50, cursor: p.nextCursor });
  });
  const groupCap = time(() => store.riverItems({ groupCap: 3, limit: 50 }));

  const queries = ['apple ', 'apple OR mango ', 'apple -banana ', '"apple banana" ', 'ban'].map(
    (q) => parseSearch(q).match!,
  );
  const searchMs = (feedIds: number[] | null) =>
    median(queries.map((match) => time(() => store.searchScoped({ match, feedIds, limit: 50 }))));
  const searchAll = searchMs(null);
  const searchFolder = searchMs(folderFeeds);
  const searchFeed = searchMs([feeds[3]!]);

  const insert = (prefix: string) => {
    const t = performance.now();
    for (let f = 0; f < 100; f++) store.upsertItems(feeds[f]!, itemsFor(f, prefix, PER_FEED), 2_000_000 + f);
    return performance.now() - t;
  };
  const plain = insert('plain');
  for (const pattern of ['kiwi', 'rust', 'sqlite'])
    store.addMuteFilter({ kind: 'keyword', pattern, action: 'hide' });
  store.addMuteFilter({ kind: 'regex', pattern: '^mango\\s+\\w+', action: 'markRead' });
  store.addMuteFilter({ feedId: feeds[5]!, kind: 'regex', pattern: 'story (1|2)\\d\\b', action: 'hide' });
  const muted = insert('muted');

  console.log(
    JSON.stringify({
      items: FEEDS * PER_FEED,
      feeds: FEEDS,
      folder_river_ms: +folderRiver.toFixed(2),
      group_cap_page_ms: +groupCap.toFixed(2),
      search_all_ms: +searchAll.toFixed(2),
      search_folder_ms: +searchFolder.toFixed(2),
      search_feed_ms: +searchFeed.toFixed(2),
      mute_insert_overhead_pct: Math.round(((muted - plain) / plain) * 100),
    }),
  );
} finally {
  store.close();
  dir.remove();
}
