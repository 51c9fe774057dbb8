/**
 * The cloud's statements at once on PostgreSQL are one budget its instances share (pg-share.ts):
 * three instances each run their share, not each the whole budget; one alone runs all of it.
 */
import type { Pool } from 'pg';
import { expect, it } from 'vitest';
import { pgDatabasePerTest } from '../../testing/cloud-kit.ts';
import { runningNow } from '../../testing/pg.ts';
import type { PgCloudStore } from './pg.ts';

const db = pgDatabasePerTest('pg-share');

/** An instance's store: 8 connections at most, a cloud budget of 6, instances counted every 50 ms. */
const instance = () => db.open({ maxConnections: 8, cloudStatements: 6, shareEveryMs: 50 });

/**
 * Runs 8 statements at once through the pool (as pings and settles do) and returns the most seen
 * running together in the database (sampled from pg_stat_activity while they sleep).
 */
async function mostAtOnce(pool: Pool): Promise<number> {
  // The connections opened first: one opening while the others sleep could miss the sampling.
  await Promise.all(Array.from({ length: 8 }, () => pool.query('SELECT pg_sleep(0.05)')));
  let most = 0;
  let running = true;
  const watch = (async () => {
    while (running) {
      most = Math.max(most, await runningNow(db.url, 'SELECT pg_sleep(0.4)%'));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await Promise.all(Array.from({ length: 8 }, () => pool.query('SELECT pg_sleep(0.4)')));
  running = false;
  await watch;
  return most;
}

/** Resolves once every store's share is `n` (they count the instances every 50 ms). */
async function shares(stores: PgCloudStore[], n: number): Promise<void> {
  const until = Date.now() + 5000;
  while (stores.some((s) => s.statementShare !== n) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
  expect(stores.map((s) => s.statementShare)).toEqual(stores.map(() => n));
}

it('three instances each run their share of the cloud budget at once, not the whole of it', async () => {
  const stores = [instance(), instance(), instance()];
  await Promise.all(stores.map((s) => s.ready()));
  await shares(stores, 2);
  expect(await mostAtOnce(await stores[0]!.connection())).toBe(2);
});

it('one instance alone runs the whole budget, and takes it back when the others stop', async () => {
  const [a, b] = [instance(), instance()];
  await Promise.all([a.ready(), b.ready()]);
  await shares([a, b], 3);
  await b.close();
  await shares([a], 6);
  expect(await mostAtOnce(await a.connection())).toBe(6);
});

it('a budget above 8 (tidings cloud --database-statements) is run in full by one instance', async () => {
  const store = db.open({ cloudStatements: 12, shareEveryMs: 50 });
  await store.ready();
  expect(store.statementShare).toBe(12);
  // Its pool holds as many connections as the budget, not the default 8: 12 statements at once
  // open 12 (counted by the pool; sampling the database missed one as they opened, under load).
  const pool = await store.connection();
  await Promise.all(Array.from({ length: 12 }, () => pool.query('SELECT pg_sleep(0.2)')));
  expect(pool.totalCount).toBe(12);
});
