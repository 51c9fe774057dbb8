/**
 * The shared delivery queue (delivery/queue.ts) on a real PostgreSQL, without HTTP: deliverers that
 * answer in memory. A change is split into chunks of `batch` subscribers; three queues (three
 * instances) on one database deliver each subscriber once; outcomes and the chunk's end are one
 * write; a queue stopped mid-chunk hands back exactly what it did not deliver.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { delay, pgDatabasePerTest } from '../../testing/cloud-kit.ts';
import { pgRows, runningNow } from '../../testing/pg.ts';
import { waitFor as waitUntil } from '../../testing/wait.ts';
import type { PgCloudStore } from '../store/pg.ts';
import type { DeliveryResult } from '../store/store.ts';
import { type BatchDeliverer, DeliveryQueue } from './queue.ts';

const FEED = 'http://feed.test/rss';
const db = pgDatabasePerTest('queue-pg');
const queues: DeliveryQueue[] = [];

// Registered after the database's own hooks, so it runs before they close the stores.
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
});

const open = (): PgCloudStore => db.open({ maxConnections: 6 });

function queue(store: PgCloudStore, deliver: BatchDeliverer, batch = 1000): DeliveryQueue {
  const q = new DeliveryQueue(store, deliver, { batch, pollMs: 50 });
  queues.push(q);
  return q;
}

/** A deliverer that holds every chunk until its queue stops: the chunks stay to be looked at. */
const holdUntilStopped: BatchDeliverer = (_f, _c, _t, _r, signal) =>
  new Promise((r) => signal.addEventListener('abort', r));

/** A queue on a fresh store with `subscribers` of FEED, holding its chunks (holdUntilStopped). */
async function holdingQueue(subscribers: number): Promise<DeliveryQueue> {
  const s = open();
  await s.ready();
  await seed(s, subscribers);
  return queue(s, holdUntilStopped, 1000);
}

async function seed(store: PgCloudStore, n: number, feedUrl = FEED): Promise<void> {
  await store.insertSubscriptions(
    Array.from({ length: n }, (_, i) => ({
      feedUrl,
      callbackUrl: `http://cb.test/${feedUrl.length}/${i}`,
      protocol: 'http-post' as const,
      notifyProcedure: null,
      expiresAt: Date.now() + 3_600_000,
    })),
    Date.now(),
  );
}

const sql = <T>(text: string, params: unknown[] = []) => pgRows<T>(db.url, text, params);

/** The shared waitFor (src/testing/wait.ts), named first as these tests read best. */
const waitFor = (what: string, cond: () => boolean | Promise<boolean>, ms = 20_000) =>
  waitUntil(cond, ms, what);

/** Delivers every target at once, all successful; counts each subscriber reached. */
function counting(reached: Map<number, number>): BatchDeliverer {
  return async (_feed, _content, targets, record) => {
    for (const t of targets) reached.set(t.id, (reached.get(t.id) ?? 0) + 1);
    await record(targets.map((t) => ({ id: t.id, ok: true, at: Date.now() })));
  };
}

it('splits a change into chunks of `batch` subscribers and three instances deliver each subscriber once', async () => {
  const [a, b, c] = [open(), open(), open()];
  await a.ready();
  await seed(a, 2500);
  const reached = new Map<number, number>();
  const three = [a, b, c].map((s) => queue(s, counting(reached)));
  await Promise.all(three.map((q) => q.start()));
  const { changeId, subscribers } = await three[1]!.enqueue(FEED, null, Date.now());
  expect(subscribers).toBe(2500);
  const report = await three[1]!.done(changeId, FEED);
  expect(report).toMatchObject({ subscribers: 2500, delivered: 2500, failed: 0 });
  expect(reached.size).toBe(2500);
  expect([...reached.values()].every((n) => n === 1)).toBe(true);
  // The report removed the change and its chunks.
  expect(await sql('SELECT 1 FROM delivery_chunks')).toEqual([]);
  const subs = await sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM subscriptions WHERE ct_updates = 1');
  expect(subs[0]!.n).toBe(2500);
});

it('queues a change as ceil(subscribers / batch) chunks', async () => {
  const q = await holdingQueue(2500);
  const { subscribers } = await q.enqueue(FEED, null, Date.now());
  expect(subscribers).toBe(2500);
  const chunks = await sql<{ size: number; n: number }>(
    'SELECT size, cardinality(subscription_ids) AS n FROM delivery_chunks ORDER BY id',
  );
  expect(chunks.map((c) => c.size)).toEqual([1000, 1000, 500]);
  expect(chunks.map((c) => c.n)).toEqual([1000, 1000, 500]);
});

it('writes failures and gone subscribers with the chunk, and reports them', async () => {
  const s = open();
  await s.ready();
  await seed(s, 30);
  const q = queue(s, async (_f, _c, targets, record) => {
    const results: DeliveryResult[] = targets.map((t, i) =>
      i % 3 === 0
        ? { id: t.id, ok: true, at: 5 }
        : i % 3 === 1
          ? { id: t.id, ok: false, at: 6, error: 'HTTP 500' }
          : { id: t.id, ok: false, at: 7, error: 'HTTP 410', gone: true },
    );
    await record(results);
  });
  const { changeId } = await q.enqueue(FEED, null, Date.now());
  expect(await q.done(changeId, FEED)).toMatchObject({ subscribers: 30, delivered: 10, failed: 20 });
  const rows = await sql<{ errors: number; last: string | null }>(
    'SELECT ct_errors::int AS errors, last_error AS last FROM subscriptions ORDER BY id',
  );
  expect(rows).toHaveLength(20); // the 10 gone were removed
  expect(rows.filter((r) => r.errors === 1 && r.last === 'HTTP 500')).toHaveLength(10);
  await s.flushCounters();
  const counters = await s.counters();
  expect(counters.notifications).toBe(10);
  expect(counters.notificationsFailed).toBe(20);
});

it('stopped mid-chunk, hands back exactly the subscribers it did not reach; another instance delivers those', async () => {
  const [a, b] = [open(), open()];
  await a.ready();
  await seed(a, 100);
  const reached = new Map<number, number>();
  let half: () => void = () => undefined;
  const halfDone = new Promise<void>((r) => {
    half = r;
  });
  // Delivers the first 40 of its chunk, then waits for the stop (as fanOut's workers do).
  let firstCalls = 0;
  const first = queue(a, async (_f, _c, targets, record, signal) => {
    firstCalls++;
    const some = targets.slice(0, 40);
    for (const t of some) reached.set(t.id, (reached.get(t.id) ?? 0) + 1);
    await record(some.map((t) => ({ id: t.id, ok: true, at: Date.now() })));
    half();
    await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
  });
  const { changeId } = await first.enqueue(FEED, null, Date.now());
  await halfDone;
  await first.stop();
  const left = await sql<{ n: number; leased: string | null }>(
    'SELECT size AS n, leased_by AS leased FROM delivery_chunks WHERE NOT done',
  );
  expect(left).toEqual([{ n: 60, leased: null }]);
  const second = queue(b, counting(reached));
  await second.start();
  await waitFor(
    'the rest delivered',
    async () => (await sql('SELECT 1 FROM delivery_chunks WHERE NOT done')).length === 0,
  );
  expect(reached.size).toBe(100);
  expect([...reached.values()].every((n) => n === 1)).toBe(true);
  // Nothing was claimed by the stopping instance after its hand-back.
  expect(firstCalls).toBe(1);
  const report = await second.done(changeId, FEED);
  expect(report).toMatchObject({ subscribers: 100, delivered: 100, failed: 0 });
});

it('a subscriber of two changes of one feed settled at once is counted twice', async () => {
  const s = open();
  await s.ready();
  await seed(s, 5);
  // Both changes are queued before any claim; both chunks end together: two writes, not one
  // statement updating each subscription twice (which would keep one of the updates).
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const q = queue(s, async (_f, _c, targets, record) => {
    await gate;
    await record(targets.map((t) => ({ id: t.id, ok: true, at: Date.now() })));
  });
  const one = await q.enqueue(FEED, null, Date.now());
  const two = await q.enqueue(FEED, null, Date.now());
  await waitFor(
    'both chunks claimed',
    async () =>
      (await sql('SELECT 1 FROM delivery_chunks WHERE leased_by IS NOT NULL AND NOT done')).length === 2,
  );
  release();
  await Promise.all([q.done(one.changeId, FEED), q.done(two.changeId, FEED)]);
  const rows = await sql<{ n: number }>('SELECT ct_updates::int AS n FROM subscriptions');
  expect(rows.map((r) => r.n)).toEqual([2, 2, 2, 2, 2]);
});

it('small changes that end close together are settled in one statement', async () => {
  const s = open();
  await s.ready();
  const feeds = Array.from({ length: 6 }, (_, i) => `http://feed.test/${i}.xml`);
  for (const f of feeds) await seed(s, 3, f);
  // Every change's only chunk ends at once, as soon as all six are being delivered. (They ended
  // 4 ms apart on a timer, which a loaded machine stretched past the 50 ms the writer waits.)
  let started = 0;
  let allStarted: () => void = () => undefined;
  const together = new Promise<void>((r) => {
    allStarted = r;
  });
  const q = queue(s, async (_f, _c, targets, record) => {
    if (++started === feeds.length) allStarted();
    await together;
    await record(targets.map((t) => ({ id: t.id, ok: true, at: Date.now() })));
  });
  const queued = [];
  for (const f of feeds) queued.push({ f, ...(await q.enqueue(f, null, Date.now())) });
  const reports = await Promise.all(queued.map((c) => q.done(c.changeId, c.f)));
  expect(reports.every((r) => r.delivered === 3)).toBe(true);
  // Rows written by one statement carry its transaction id.
  const writes = await sql<{ n: number }>('SELECT COUNT(DISTINCT xmin::text)::int AS n FROM subscriptions');
  expect(writes[0]!.n).toBe(1);
  expect(await sql('SELECT 1 FROM changes')).toEqual([]);
});

/** Counts the notifications of new work every instance listens to (delivery/queue.ts). */
async function listenForWork(): Promise<{ count: () => number; end: () => Promise<void> }> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  let n = 0;
  c.on('notification', () => n++);
  await c.query('LISTEN tidings_deliveries');
  return { count: () => n, end: () => c.end() };
}

it('the instance that queues a small change delivers it itself: leased as queued, no notification, no claim', async () => {
  const [a, b, c] = [open(), open(), open()];
  await a.ready();
  await seed(a, 5);
  const calls = [0, 0, 0];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const three = [a, b, c].map((s, i) =>
    queue(s, async (_f, _c, targets, record) => {
      calls[i]!++;
      await gate;
      await record(targets.map((t) => ({ id: t.id, ok: true, at: Date.now() })));
    }),
  );
  await Promise.all(three.map((q) => q.start()));
  const work = await listenForWork();
  try {
    const { changeId } = await three[1]!.enqueue(FEED, null, Date.now());
    // Leased to the instance that queued it in the statement that queued it.
    expect(await sql('SELECT leased_by FROM delivery_chunks')).toEqual([{ leased_by: three[1]!.instanceId }]);
    release();
    expect(await three[1]!.done(changeId, FEED)).toMatchObject({ subscribers: 5, delivered: 5, failed: 0 });
    await delay(200); // a notification would have arrived by now
    expect(work.count()).toBe(0);
    expect(calls).toEqual([0, 1, 0]);
    // Its only chunk settled, the change went with it.
    expect(await sql('SELECT 1 FROM changes')).toEqual([]);
    expect(await sql('SELECT 1 FROM delivery_chunks')).toEqual([]);
  } finally {
    await work.end();
  }
});

it('a change of several chunks: the first is the queueing instance’s, the rest are announced to all', async () => {
  const q = await holdingQueue(2500);
  await q.start();
  const work = await listenForWork();
  try {
    await q.enqueue(FEED, null, Date.now());
    await waitFor('a notification', () => work.count() === 1);
    const first = await sql<{ leased_by: string | null }>(
      'SELECT leased_by FROM delivery_chunks ORDER BY id LIMIT 1',
    );
    expect(first).toEqual([{ leased_by: q.instanceId }]);
  } finally {
    await work.end();
  }
});

it('a chunk leased as queued by an instance that died goes to another when the lease ends', async () => {
  const [a, b] = [open(), open()];
  await a.ready();
  await seed(a, 20);
  const dying = new DeliveryQueue(a, holdUntilStopped, { leaseMs: 500, pollMs: 50 });
  queues.push(dying);
  await dying.enqueue(FEED, null, Date.now());
  expect(await sql('SELECT leased_by FROM delivery_chunks')).toEqual([{ leased_by: dying.instanceId }]);
  // Gone from the database (as a killed process): its lease is no longer renewed.
  await a.close();
  const reached = new Map<number, number>();
  const other = new DeliveryQueue(b, counting(reached), { leaseMs: 500, pollMs: 50 });
  queues.push(other);
  await other.start();
  await waitFor('the 20 delivered by the other', () => reached.size === 20);
  expect([...reached.values()].every((n) => n === 1)).toBe(true);
});

it('looks for the end of the changes it waits on with one statement at a time, however slow', async () => {
  const s = open();
  await s.ready();
  const q = queue(s, holdUntilStopped);
  await q.start();
  // Twelve changes delivered elsewhere (their chunks done): this instance only waits for their end.
  const ids = (
    await sql<{ id: number }>(
      `INSERT INTO changes (feed_url, when_created, subscribers)
      SELECT 'http://f.test/' || g, 0, 1 FROM generate_series(1, 12) g RETURNING id::int AS id`,
    )
  ).map((r) => r.id);
  await sql(`INSERT INTO delivery_chunks (change_id, subscription_ids, size, delivered, done)
    SELECT id, '{}', 0, 1, true FROM changes`);
  // The end check removes the changes it finds ended: held up here as by a busy database.
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('SELECT id FROM changes FOR UPDATE');
  let most = 0;
  const reports = [];
  for (const id of ids) {
    // A change waited on while a check is under way (a ping whose chunk another instance took).
    reports.push(q.done(id, FEED));
    await delay(40);
    most = Math.max(most, await runningNow(db.url, '%WITH fin AS%'));
  }
  await locker.query('COMMIT');
  await locker.end();
  for (const r of await Promise.all(reports))
    expect(r).toMatchObject({ subscribers: 1, delivered: 1, failed: 0 });
  expect(most).toBe(1);
});
