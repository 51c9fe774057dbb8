/**
 * After a PostgreSQL restart the instances LISTEN again (issue 31: 3 listening connections before,
 * 0 after, so free work was found only by the 1 s poll). A server of its own, restarted as a crash
 * would: every connection cut at once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgRows, startPostgres, type TestPostgres } from '../../testing/pg.ts';
import { waitFor } from '../../testing/wait.ts';
import { PgCloudStore } from '../store/pg.ts';
import { DeliveryQueue } from './queue.ts';

let server: TestPostgres;
let url: string;

beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** Connections of the database listening for free work now. */
async function listening(): Promise<number> {
  const rows = await pgRows<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND query = 'LISTEN tidings_deliveries' AND pid <> pg_backend_pid()`,
  );
  return rows[0]?.n ?? 0;
}

it('three instances listen again once the database is back from a restart', { timeout: 60_000 }, async () => {
  const stores = [0, 1, 2].map(() => new PgCloudStore(url, { maxConnections: 2 }));
  // A poll too slow to matter here: only LISTEN finds free work within the test.
  const delivered: number[] = [];
  const queues = stores.map(
    (s) =>
      new DeliveryQueue(
        s,
        async (_feed, _content, targets, record) => {
          for (const t of targets) delivered.push(t.id);
          await record(targets.map((t) => ({ id: t.id, ok: true, at: Date.now() })));
        },
        { pollMs: 60_000 },
      ),
  );
  try {
    await Promise.all(queues.map((q) => q.start()));
    expect(await listening()).toBe(3);
    await server.restart();
    await waitFor(async () => (await listening().catch(() => 0)) === 3, 20_000, 'three listeners again');
    expect(queues.every((q) => q.listening)).toBe(true);
    // And a notification reaches them: a change left free is claimed well before the poll.
    await stores[0]!.insertSubscriptions(
      Array.from({ length: 3 }, (_, i) => ({
        feedUrl: 'http://feed.test/rss',
        callbackUrl: `http://cb.test/${i}`,
        protocol: 'http-post' as const,
        notifyProcedure: null,
        expiresAt: Date.now() + 3_600_000,
      })),
      Date.now(),
    );
    await pgRows(
      url,
      `INSERT INTO changes (feed_url, when_created, subscribers) VALUES ('http://feed.test/rss', 0, 3)`,
    );
    await pgRows(
      url,
      `INSERT INTO delivery_chunks (change_id, subscription_ids, size)
      SELECT id, ARRAY(SELECT id FROM subscriptions ORDER BY id), 3 FROM changes; SELECT pg_notify('tidings_deliveries', '')`,
    );
    await waitFor(
      async () => (await pgRows(url, 'SELECT 1 FROM delivery_chunks WHERE NOT done')).length === 0,
      10_000,
      'the free chunk claimed and delivered',
    );
    expect(delivered).toHaveLength(3);
  } finally {
    await Promise.all(queues.map((q) => q.stop()));
    await Promise.all(stores.map((s) => s.close()));
  }
});
