/**
 * The app's own stop path under fire: a refresh of 200 feeds on four real loopback hosts, stopped
 * by kill -9 and by SIGTERM (twice) in the middle, then restarted. The child runs the SAME stop
 * sequence Electron main runs (createAppStop + installSignalHandlers), on Node: only the Electron
 * binary is missing here, not the code path. Nothing committed may be lost, the database must be
 * intact, and the next run must fetch what is missing without duplicates.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FeedHost, rssFeed, startFeedHost } from '../src/testing/feed-host.ts';
import { waitFor } from '../src/testing/wait.ts';

const CHILD = fileURLToPath(new URL('./testdata/stop-child.ts', import.meta.url));
const HOSTS = 4;
const FEEDS_PER_HOST = 50;
const ITEMS = 20;
const FEEDS = HOSTS * FEEDS_PER_HOST;
const ALL_ITEMS = FEEDS * ITEMS;

let hosts: FeedHost[] = [];
let dir = '';
let opml = '';
/** Every feed as served, so a test can slow them all down and back (`everyFeedAnswersIn`). */
const served: { host: FeedHost; path: string; body: string; delayMs: number }[] = [];

/** From now on each feed answers after `ms` (null: its own delay again). */
function everyFeedAnswersIn(ms: number | null): void {
  for (const f of served) f.host.set(f.path, { body: f.body, delayMs: ms ?? f.delayMs });
}
const totalHits = () => served.reduce((n, f) => n + f.host.hits(f.path), 0);

beforeAll(async () => {
  hosts = await Promise.all(Array.from({ length: HOSTS }, () => startFeedHost()));
  const outlines: string[] = [];
  hosts.forEach((host, h) => {
    for (let f = 0; f < FEEDS_PER_HOST; f++) {
      const path = `/feed-${f}.xml`;
      const items = Array.from({ length: ITEMS }, (_, i) => ({
        title: `Host ${h} feed ${f} item ${i}`,
        guid: `h${h}-f${f}-i${i}`,
        description: `Body ${i} of feed ${f} on host ${h}.`,
        date: new Date(Date.UTC(2026, 0, 1, 0, i)),
      }));
      // Slow enough that a stop lands while fetches are in flight.
      const feed = { host, path, body: rssFeed(`Host ${h} feed ${f}`, items), delayMs: 40 + ((f * 7) % 60) };
      served.push(feed);
      host.set(path, { body: feed.body, delayMs: feed.delayMs });
      outlines.push(`<outline type="rss" text="H${h}F${f}" xmlUrl="${host.url}${path}"/>`);
    }
  });
  opml = `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>${outlines.join('')}</body></opml>`;
});
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-stop-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  /** Highest "items N" printed so far. */
  items(): number;
  stderr(): string;
  waitForItems(n: number): Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(mode: 'import' | 'finish'): Run {
  const opmlFile = join(dir, 'subs.opml');
  writeFileSync(opmlFile, opml);
  const child = spawn(process.execPath, [CHILD, join(dir, 'data'), mode, opmlFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let items = 0;
  let stderr = '';
  let buffer = '';
  const waiters: { n: number; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^items (\d+)$/.exec(line);
      if (m) items = Math.max(items, Number(m[1]));
    }
    for (const w of waiters.filter((w) => items >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    items: () => items,
    stderr: () => stderr,
    exit,
    waitForItems: (n) =>
      new Promise<void>((resolve, reject) => {
        if (items >= n) return resolve();
        waiters.push({ n, resolve });
        void exit.then(() =>
          reject(new Error(`the child exited at ${items} items: ${stderr.slice(0, 2000)}`)),
        );
      }),
  };
}

function dbPath(): string {
  return join(dir, 'data', 'tidings.db');
}

/** The database is whole, and its counters and search index agree with its rows. */
function checkIntact(): Set<string> {
  const db = new DatabaseSync(dbPath());
  try {
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    const unread = db
      .prepare(
        'SELECT (SELECT COALESCE(SUM(unread), 0) FROM feeds) AS kept, count(*) AS real FROM items WHERE read = 0',
      )
      .get() as { kept: number; real: number };
    expect(unread.kept).toBe(unread.real);
    const count = (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
    const indexed = (db.prepare('SELECT count(*) AS n FROM items_fts_docsize').get() as { n: number }).n;
    expect(indexed).toBe(count);
    expect(() => db.exec("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")).not.toThrow();
    const rows = db
      .prepare('SELECT f.url AS url, i.guid AS guid FROM items i JOIN feeds f ON f.id = i.feed_id')
      .all() as {
      url: string;
      guid: string;
    }[];
    const keys = new Set(rows.map((r) => `${r.url} ${r.guid}`));
    // One row per (feed, guid): a refetch after the stop added no duplicates.
    expect(keys.size).toBe(rows.length);
    return keys;
  } finally {
    db.close();
  }
}

function feedCount(): number {
  const db = new DatabaseSync(dbPath());
  try {
    return (db.prepare('SELECT count(*) AS n FROM feeds').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Restart: the next run fetches what the stop interrupted, and everything is there. */
async function restartAndFinish(before: Set<string>): Promise<void> {
  const second = run('finish');
  const { code, signal } = await second.exit;
  expect({ code, signal, stderr: code === 0 ? '' : second.stderr() }).toEqual({
    code: 0,
    signal: null,
    stderr: '',
  });
  const after = checkIntact();
  expect(feedCount()).toBe(FEEDS);
  expect(after.size).toBe(ALL_ITEMS);
  for (const key of before) expect(after.has(key)).toBe(true);
}

describe('stopping during a refresh of 200 feeds', () => {
  it('kill -9: the database is intact, nothing committed is lost, the restart completes it', async () => {
    const first = run('import');
    // Well into the refresh, far from its end.
    await first.waitForItems(ALL_ITEMS / 5);
    first.child.kill('SIGKILL');
    const { signal } = await first.exit;
    expect(signal).toBe('SIGKILL');
    const reported = first.items();
    expect(reported).toBeLessThan(ALL_ITEMS);

    const before = checkIntact();
    expect(feedCount()).toBe(FEEDS);
    // Every item the child announced was committed before it said so.
    expect(before.size).toBeGreaterThanOrEqual(reported);
    await restartAndFinish(before);
  });

  it('SIGTERM, then a second SIGTERM: one clean stop, fetches in flight committed, databases closed', async () => {
    const first = run('import');
    await first.waitForItems(ALL_ITEMS / 5);
    // The second signal must land while the first stop is still waiting for its fetches: sent
    // 20 ms after the first, a loaded machine once delivered it after the stop had ended. From here
    // every feed answers in 1.5 s, and the signals go once such a fetch is under way.
    everyFeedAnswersIn(1_500);
    const hitsBefore = totalHits();
    await waitFor(() => totalHits() > hitsBefore, 10_000, 'a slow fetch under way');
    first.child.kill('SIGTERM');
    await waitFor(
      () => /Stopping \(SIGTERM\)/.test(first.stderr()),
      10_000,
      'the child to say it is stopping',
    );
    first.child.kill('SIGTERM');
    const { code, signal } = await first.exit;
    everyFeedAnswersIn(null);
    // Exited by itself, cleanly, not killed by the second signal.
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toMatch(/Stopping \(SIGTERM\)/);
    expect(first.stderr()).toMatch(/Already stopping \(SIGTERM ignored\)/);
    expect(first.items()).toBeLessThan(ALL_ITEMS);

    // Closed: the write-ahead log was folded back into the database file.
    const wal = `${dbPath()}-wal`;
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    const before = checkIntact();
    // Everything the river was told about is stored, and nothing half-fetched beyond it.
    expect(before.size).toBe(first.items());
    await restartAndFinish(before);
  });
});
