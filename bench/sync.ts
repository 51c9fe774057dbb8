/**
 * bench:sync — the sync APIs (issue 32) over 100,000 items in 200 feeds (20 folders), on a file
 * database, through the app's receiver on 127.0.0.1 (real sockets, as a phone's calls arrive):
 * - greader_ids_p99_ms: unread ids of the reading list, n=1000 (NetNewsWire's call), p99 of 200;
 * - greader_contents_1000_ms: contents of 1,000 items (a POST of 1,000 long ids), median of 9;
 * - fever_items_p99_ms: 50 items since an id (Reeder's Fever paging), p99 of 200;
 * - edit_tag_1000_ms: mark 1,000 items read (and back, alternately) with edit-tag, median of 9;
 * - backup_100k_s, restore_100k_s: a backup of this running app's folder (its sync password sealed
 *   by a passphrase), and its restore into an empty folder (bench:backup times both in detail:
 *   CPU, the event loop's blocks, the calmest of three runs);
 * - peak_rss_mb.
 * Each figure is one step in STEPS (run once to warm up, then measured).
 * Ends with one JSON line of the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTidings, type Tidings } from '../src/app/tidings.ts';
import { createBackup } from '../src/backup/create-backup.ts';
import { restoreBackup } from '../src/backup/restore.ts';
import { makeItem } from '../src/store/test-support.ts';
import { seededRandom } from '../src/testing/seeded.ts';
import { FeverTestClient, feverKey, GReaderTestClient } from '../src/testing/sync-clients.ts';
import { median, percentile } from './support/stats.ts';

const FEEDS = 200;
const PER_FEED = 500;
const FOLDERS = 20;
const SAMPLES = 200;
const RUNS = 9;

interface Bench {
  app: Tidings;
  dataDir: string;
  greader: GReaderTestClient;
  fever: FeverTestClient;
  itemIds: number[];
  random: () => number;
}

const ms = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const round = (n: number) => Math.round(n * 100) / 100;
const pick = <T>(b: Bench, xs: readonly T[]) => xs[Math.floor(b.random() * xs.length)]!;
/** 1,000 consecutive item ids from a random place, as `i` fields written by `form`. */
const thousandIds = (b: Bench, form: (id: number) => string): [string, string][] => {
  const start = Math.floor(b.random() * (b.itemIds.length - 1000));
  return b.itemIds.slice(start, start + 1000).map((id) => ['i', form(id)]);
};

/** One figure each; the JSON line has them in this order. */
const STEPS: { key: string; run(b: Bench): Promise<number> }[] = [
  {
    key: 'greader_ids_p99_ms',
    async run(b) {
      const form: [string, string][] = [
        ['output', 'json'],
        ['s', 'user/-/state/com.google/reading-list'],
        ['xt', 'user/-/state/com.google/read'],
        ['n', '1000'],
      ];
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        times.push(
          await ms(async () => {
            const res = await b.greader.raw('GET', '/reader/api/0/stream/items/ids', form);
            if (res.status !== 200 || JSON.parse(res.text).itemRefs.length !== 1000)
              throw new Error('ids failed');
          }),
        );
      }
      console.log(`  ids: p50 ${round(median(times))} ms, max ${round(Math.max(...times))} ms`);
      return percentile(times, 0.99);
    },
  },
  {
    key: 'greader_contents_1000_ms',
    async run(b) {
      const token = await b.greader.editToken();
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const form: [string, string][] = [
          ['T', token],
          ['output', 'json'],
          ...thousandIds(b, (id) => `tag:google.com,2005:reader/item/${id.toString(16)}`),
        ];
        times.push(
          await ms(async () => {
            const res = await b.greader.raw('POST', '/reader/api/0/stream/items/contents', form);
            if (res.status !== 200 || JSON.parse(res.text).items.length !== 1000)
              throw new Error('contents failed');
          }),
        );
      }
      return median(times);
    },
  },
  {
    key: 'fever_items_p99_ms',
    async run(b) {
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const since = pick(b, b.itemIds.slice(0, -100));
        times.push(
          await ms(async () => {
            const res = await b.fever.call(['items'], [['since_id', String(since)]]);
            if ((res.items as unknown[]).length !== 50) throw new Error('fever items failed');
          }),
        );
      }
      return percentile(times, 0.99);
    },
  },
  {
    key: 'edit_tag_1000_ms',
    async run(b) {
      const token = await b.greader.editToken();
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const ids = thousandIds(b, String);
        for (const state of ['a', 'r'] as const) {
          const form: [string, string][] = [['T', token], ...ids, [state, 'user/-/state/com.google/read']];
          const t = await ms(async () => {
            const res = await b.greader.raw('POST', '/reader/api/0/edit-tag', form);
            if (res.text !== 'OK') throw new Error(`edit-tag failed: ${res.text}`);
          });
          if (state === 'a') times.push(t);
        }
      }
      return median(times);
    },
  },
  {
    key: 'backup_100k_s',
    async run(b) {
      rmSync(backupFile(b), { force: true });
      const t = await ms(async () => {
        const made = await createBackup(b.dataDir, backupFile(b), { passphrase: PASSPHRASE });
        if (!made.ok) throw new Error(made.error.message);
      });
      return t / 1000;
    },
  },
  {
    key: 'restore_100k_s',
    async run(b) {
      const into = mkdtempSync(join(tmpdir(), 'tidings-bench-sync-restored-'));
      try {
        const t = await ms(async () => {
          const restored = await restoreBackup(backupFile(b), into, { passphrase: PASSPHRASE });
          if (!restored.ok) throw new Error(restored.error.message);
          if (restored.value.summary.items !== FEEDS * PER_FEED)
            throw new Error(`restored ${JSON.stringify(restored.value.summary)}`);
        });
        return t / 1000;
      } finally {
        rmSync(into, { recursive: true, force: true });
      }
    },
  },
];

const PASSPHRASE = 'a bench passphrase';
/** Beside the data folder, not in it. */
const backupFile = (b: Bench) => `${b.dataDir}.tidings-backup`;

async function setUp(): Promise<Bench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-bench-sync-'));
  const app = createTidings({ dataDir, realtime: { tunnelHost: false, receiverPort: 0 } });
  const store = app.context.store;
  const t0 = performance.now();
  const now = Date.now();
  for (let f = 0; f < FEEDS; f++) {
    // Feeds on a closed port: nothing is fetched during the bench (start() schedules them later).
    const { feed } = store.addFeed({
      url: `http://127.0.0.1:9/feed-${f}.xml`,
      title: `Feed ${f}`,
      folder: `Folder ${f % FOLDERS}`,
    });
    const items = Array.from({ length: PER_FEED }, (_, i) =>
      makeItem(`f${f}-${i}`, {
        title: `Story ${i} of feed ${f}`,
        summary: `<p>Story ${i} of feed ${f}: ${'some words about it '.repeat(20)}</p>`,
        published: new Date(now - (f * PER_FEED + i) * 60_000).toISOString(),
      }),
    );
    store.upsertItems(feed.id, items, now - (FEEDS - f) * 60_000);
  }
  console.log(
    `seeded ${FEEDS * PER_FEED} items in ${FEEDS} feeds in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // Polling stays off (the feeds would only fail): the receiver is what the bench needs.
  app.context.realtime?.start();
  await new Promise((r) => setTimeout(r, 50));
  while (!app.context.realtime?.info().receiverUrl) await new Promise((r) => setTimeout(r, 20));
  const made = await app.newSyncPassword('bench');
  if (!made.ok) throw new Error(made.error.message);
  const info = await app.setSyncEnabled(true);
  const greader = new GReaderTestClient(info.greader.local[0]!);
  if ((await greader.login('bench', made.value.password)).status !== 200) throw new Error('login failed');
  const fever = new FeverTestClient(info.fever.local[0]!, feverKey('bench', made.value.password));
  if ((await fever.call([])).auth !== 1) throw new Error('fever login failed');
  const itemIds = (store.db.prepare('SELECT id FROM items ORDER BY id').all() as { id: number }[]).map(
    (r) => r.id,
  );
  return { app, dataDir, greader, fever, itemIds, random: seededRandom(32) };
}

const bench = await setUp();
const figures: Record<string, number> = {};
try {
  for (const step of STEPS) {
    await step.run(bench); // warm-up: JIT and caches, not measured
    figures[step.key] = round(await step.run(bench));
    console.log(`${step.key}: ${figures[step.key]}`);
  }
} finally {
  await bench.app.stop();
  rmSync(bench.dataDir, { recursive: true, force: true });
  rmSync(backupFile(bench), { force: true });
}
figures.peak_rss_mb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(figures));
