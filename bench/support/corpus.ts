/**
 * A data folder as a heavy user's would be, for benches (bench:backup; bench:sync can use it too):
 * `items` items spread over `feeds` feeds in 20 folders, with ~600-byte HTML summaries of words
 * with real text's frequencies (zipf-text.ts), a third read, one in 40 starred, a few feeds behind a login (secrets), mute filters,
 * saved searches and some posts. Built straight into the stores (no HTTP), the same on every run.
 * Run as a script (`node bench/support/corpus.ts DIR [FEEDS] [ITEMS]`) it builds DIR in a process
 * of its own, so the caller's memory figures are its own; it prints one JSON line of what it made.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Item } from '../../src/feed/model.ts';
import { newItem } from '../../src/feed/model-new.ts';
import { PublishStore } from '../../src/publish/publish-store.ts';
import { openStore } from '../../src/store/store.ts';
import { zipfText } from './zipf-text.ts';

export interface CorpusOptions {
  feeds?: number;
  items?: number;
  folders?: number;
  posts?: number;
}

export interface Corpus {
  feeds: number;
  items: number;
  read: number;
  starred: number;
  posts: number;
}

export function buildCorpus(dataDir: string, opts: CorpusOptions = {}): Corpus {
  const feeds = opts.feeds ?? 200;
  const total = opts.items ?? 100_000;
  const folders = opts.folders ?? 20;
  const posts = opts.posts ?? 50;
  const { word, words } = zipfText(0x32b4c);
  const T0 = Date.UTC(2026, 10, 1);

  const store = openStore(join(dataDir, 'tidings.db'));
  let read = 0;
  let starred = 0;
  try {
    const feedIds: number[] = [];
    for (let f = 0; f < feeds; f++) {
      const login =
        f % 50 === 7
          ? { scheme: 'basic' as const, username: `reader${f}`, password: `pw-${f}-secret` }
          : null;
      const { feed } = store.addFeed({
        url: `https://feed${f}.example.org/rss`,
        folder: f % 3 === 0 ? null : `Folder ${f % folders}`,
        credentials: login,
      });
      feedIds.push(feed.id);
    }
    const perFeed = Math.ceil(total / feeds);
    let made = 0;
    // Fetch-sized batches, newest last, as the poller stores them.
    for (let round = 0; made < total; round++) {
      for (let f = 0; f < feeds && made < total; f++) {
        const n = Math.min(50, perFeed - round * 50, total - made);
        if (n <= 0) continue;
        const items: Item[] = Array.from({ length: n }, (_, i) => {
          const k = round * 50 + i;
          return {
            ...newItem(),
            id: `https://feed${f}.example.org/${k}`,
            title: words(5),
            link: `https://feed${f}.example.org/${k}`,
            summary: `<p>${words(40)} <a href="https://feed${f}.example.org/${k}">${words(3)}</a></p><p>${words(30)}</p>`,
            published: new Date(T0 + (round * feeds + f) * 60_000 + i).toISOString(),
          };
        });
        store.upsertItems(feedIds[f]!, items, T0 + (round * feeds + f) * 60_000);
        made += n;
      }
    }
    store.atomically(() => {
      const ids = store.db.prepare('SELECT id FROM items ORDER BY id').all() as { id: number }[];
      const toRead = ids.filter((_, i) => i % 3 === 0).map((r) => r.id);
      for (let i = 0; i < toRead.length; i += 500) read += store.markRead(toRead.slice(i, i + 500), true);
      for (const { id } of ids.filter((_, i) => i % 40 === 1)) if (store.setStarred(id, true)) starred++;
    });
    for (const pattern of ['kaka', 'lolo', 'mimi'])
      store.addMuteFilter({ kind: 'keyword', pattern, action: 'markRead' });
    for (let s = 0; s < 5; s++) store.saveSearch({ name: `Search ${s}`, query: word() });
    store.setSetting('retentionDays', 3650);
  } finally {
    store.close();
  }

  const publish = new PublishStore(join(dataDir, 'publish.db'));
  try {
    for (let p = 0; p < posts; p++) {
      publish.insertPost(
        `post-${p}`,
        {
          text: `Post ${p}: ${words(12)}`.slice(0, 140),
          link: null,
          enclosure: null,
          tags: ['bench'],
          children: [],
        },
        T0 + p * 3_600_000,
        [],
      );
    }
  } finally {
    publish.close();
  }
  return { feeds, items: total, read, starred, posts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, feeds, items] = process.argv.slice(2);
  if (!dir) throw new Error('usage: node bench/support/corpus.ts DIR [FEEDS] [ITEMS]');
  console.log(
    JSON.stringify(buildCorpus(dir, { feeds: Number(feeds ?? 200), items: Number(items ?? 100_000) })),
  );
}
