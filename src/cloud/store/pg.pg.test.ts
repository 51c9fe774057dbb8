/**
 * The PostgreSQL store's own promises, beyond the behaviour suite it shares with SQLite: the
 * schema is made once when several instances start at once, a database newer than this code is
 * refused with a readable reason, and a change read by two instances at once is one change.
 */
import pg from 'pg';
import { expect, it, vi } from 'vitest';
import { pgDatabasePerTest } from '../../testing/cloud-kit.ts';
import { pgRows } from '../../testing/pg.ts';
import type { CloudLogEntry } from '../core/log.ts';
import { DEFAULT_MAX_CONNECTIONS, LOG_KEPT, migrate, PG_MIGRATIONS, PgCloudStore } from './pg.ts';

const db = pgDatabasePerTest('store-pg');

const store = () => db.open({ maxConnections: 4 });

it('creates the schema once when eight instances start at the same moment', async () => {
  const stores = Array.from({ length: 8 }, store);
  await Promise.all(stores.map((s) => s.ready()));
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const v = await client.query('SELECT version FROM cloud_schema');
    expect(v.rows).toEqual([{ version: PG_MIGRATIONS.at(-1)!.version }]);
  } finally {
    await client.end();
  }
  // Every instance works on the one schema.
  await Promise.all(stores.map((s, i) => s.bump('pings', i + 1)));
  await Promise.all(stores.map((s) => s.flushCounters()));
  expect((await stores[0]!.counters()).pings).toBe(36);
});

it('refuses a database whose schema is newer than this code, saying so', async () => {
  await store().ready();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('UPDATE cloud_schema SET version = 999');
  await client.end();
  await expect(store().ready()).rejects.toThrow(/version 999, newer than this Tidings knows/);
});

it('a read recorded by two instances at once is one change', async () => {
  const [a, b] = [store(), store()];
  await a.touchResource('http://f.test/rss', 1);
  for (let round = 0; round < 20; round++) {
    const c = { hash: `h${round}`, size: round, etag: null, lastModified: null, title: null };
    const seen = await Promise.all([
      a.recordContent('http://f.test/rss', c, 2),
      b.recordContent('http://f.test/rss', c, 2),
    ]);
    expect(seen.filter(Boolean)).toHaveLength(1);
  }
  expect((await a.getResource('http://f.test/rss'))!.ctUpdates).toBe(20);
});

/** Backends of the stores under test (the tests' own connections are not named tidings-cloud). */
const backends = () =>
  pgRows<{ pid: number }>(
    db.url,
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'tidings-cloud %' ORDER BY pid`,
  );

it('plans each named statement once per connection (a generic plan), not on every call', async () => {
  const s = store();
  await s.ready();
  const mode = await s.transaction((c) =>
    c.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`),
  );
  expect(mode.rows[0]?.mode).toBe('force_generic_plan');
});

it('never JIT-compiles a statement, even where the server would (100-300 ms of CPU each)', async () => {
  const s = store();
  await s.ready();
  // The threshold at 0, as if every estimate passed it.
  const costly = 'EXPLAIN (ANALYZE, FORMAT JSON) SELECT sum(a) FROM generate_series(1, 1000) a';
  const jitted = (plan: unknown) => JSON.stringify(plan).includes('"JIT"');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ available: boolean }>('SELECT pg_jit_available() AS available');
    await client.query('SET jit_above_cost = 0');
    // A connection with the server's defaults compiles it where the server can: what the store must not do.
    if (rows[0]?.available) expect(jitted((await client.query(costly)).rows)).toBe(true);
  } finally {
    await client.end();
  }
  const own = await s.transaction(async (c) => {
    await c.query('SET LOCAL jit_above_cost = 0');
    return c.query(costly);
  });
  expect(jitted(own.rows)).toBe(false);
});

it('keeps 8 connections at most by default, however many statements wait', async () => {
  const s = db.open();
  await Promise.all(Array.from({ length: 20 }, () => s.transaction((c) => c.query('SELECT pg_sleep(0.05)'))));
  expect(DEFAULT_MAX_CONNECTIONS).toBe(8);
  expect(await backends()).toHaveLength(8);
});

it('keeps its connections while idle: the next burst finds the same backends, none started anew', async () => {
  const s = store();
  await s.ready();
  // Four transactions at once: four connections.
  const burst = () =>
    Promise.all(Array.from({ length: 4 }, () => s.transaction((c) => c.query('SELECT pg_sleep(0.05)'))));
  // pg-pool's idle timers are setTimeout: faked, so an hour without a statement passes at once.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let before: { pid: number }[];
  try {
    await burst();
    before = await backends();
    vi.advanceTimersByTime(3_600_000);
  } finally {
    vi.useRealTimers();
  }
  expect(before).toHaveLength(4);
  await new Promise((r) => setTimeout(r, 300)); // a connection ended would be gone by now
  await burst();
  expect(await backends()).toEqual(before);
});

it('an unreachable database is a readable error, not a crash', async () => {
  const s = new PgCloudStore('postgres://tidings@127.0.0.1:1/nowhere');
  try {
    await expect(s.counters()).rejects.toThrow(/ECONNREFUSED|connect/);
  } finally {
    await s.close();
  }
});

it('counts of several instances are written without a read, and read the same from each', async () => {
  const [a, b] = [store(), store()];
  await Promise.all([a.ready(), b.ready()]);
  await a.bump('pings', 2);
  await b.bump('pings', 3);
  await b.bump('changes');
  // Neither reads: their counts are written on their own, within the interval.
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    for (;;) {
      const r = await c.query("SELECT value::int AS v FROM counters WHERE name = 'pings'");
      if (r.rows[0]?.v === 5) break;
      await new Promise((res) => setTimeout(res, 20));
    }
  } finally {
    await c.end();
  }
  expect(await a.counters()).toEqual(await b.counters());
  expect((await a.counters()).changes).toBe(1);
});

it('begins a read in one step: the row before, the check counted unless too recent, the saved feed', async () => {
  const s = store();
  const first = await s.beginCheck('http://f.test/rss', 10_000, 5);
  expect(first).toEqual({ before: undefined, tooRecent: false, saved: undefined });
  // 4.999 s later: too recent, nothing counted.
  const soon = await s.beginCheck('http://f.test/rss', 14_999, 5);
  expect(soon.tooRecent).toBe(true);
  expect(soon.before).toMatchObject({ ctChecks: 1, whenLastCheck: 10_000 });
  expect((await s.getResource('http://f.test/rss'))!.ctChecks).toBe(1);
  // No minimum: counted again, and the row as it was before this check.
  const again = await s.beginCheck('http://f.test/rss', 14_999, 0);
  expect(again).toMatchObject({ tooRecent: false, before: { ctChecks: 1, whenLastCheck: 10_000 } });
  expect(await s.getResource('http://f.test/rss')).toMatchObject({ ctChecks: 2, whenLastCheck: 14_999 });
  await s.addAccount('ann', 'x', 1);
  const feed = {
    name: 'ann',
    publicUrl: 'http://f.test/ann.xml',
    body: '<rss/>',
    contentType: 'application/rss+xml',
    hash: 'h',
    whenSaved: 2,
  };
  await s.saveFeed(feed);
  expect((await s.beginCheck(feed.publicUrl, 20_000, 0)).saved).toEqual(feed);
});

it('keeps the log as one row per write, reads the newest entries across writes, and trims it to LOG_KEPT', async () => {
  const s = store();
  await s.ready();
  const entries = (from: number, n: number): CloudLogEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      at: from + i,
      kind: 'ping',
      feedUrl: `http://f.test/${from + i}`,
    }));
  await s.appendLog(entries(0, 300));
  await s.appendLog(entries(300, 5));
  expect(await pgRows(db.url, 'SELECT n FROM log_batches ORDER BY id')).toEqual([{ n: 300 }, { n: 5 }]);
  const recent = await s.recentLog(250);
  expect(recent.map((e) => e.at)).toEqual(Array.from({ length: 250 }, (_, i) => 304 - i));
  expect(recent[0]).toEqual({ at: 304, kind: 'ping', feedUrl: 'http://f.test/304' });
  // Many small writes (more than one page of rows) still give `limit` entries in order.
  for (let i = 0; i < 40; i++) await s.appendLog(entries(1000 + i * 2, 2));
  expect((await s.recentLog(100)).map((e) => e.at)).toEqual(
    Array.from({ length: 100 }, (_, i) => (i < 80 ? 1079 - i : 304 - (i - 80))),
  );
  // The sweep keeps the newest writes that hold LOG_KEPT entries.
  for (let i = 0; i < 4; i++) await s.appendLog(entries(2000 + i * 400, 400));
  await s.sweep(Date.now(), 1);
  const kept = await pgRows<{ n: number }>(db.url, 'SELECT SUM(n)::int AS n FROM log_batches');
  expect(kept[0]!.n).toBe(1200);
  expect((await s.recentLog(LOG_KEPT)).length).toBe(LOG_KEPT);
});

it('moves the entries logged before version 5 into one write, oldest first', async () => {
  const pool = new pg.Pool({ connectionString: db.url });
  try {
    await migrate(
      pool,
      PG_MIGRATIONS.filter((m) => m.version <= 4),
    );
    await pool.query(
      `INSERT INTO log_entries (entry) VALUES ('{"at":1,"kind":"ping"}'), ('{"at":2,"kind":"notify"}')`,
    );
  } finally {
    await pool.end();
  }
  const s = store();
  expect(await s.recentLog(10)).toEqual([
    { at: 2, kind: 'notify' },
    { at: 1, kind: 'ping' },
  ]);
});
