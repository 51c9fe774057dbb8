/**
 * The cloud store's schema step to one subscriber list for every protocol: a database made before
 * WebSub keeps its subscriptions through the migration, and then holds WebSub rows beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../store/sqlite.ts';
import { MIGRATIONS, SqliteCloudStore } from './sqlite.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-cloud-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('migrates a pre-WebSub database without losing a subscription, then keeps WebSub rows in the same list', async () => {
  const path = join(dir, 'cloud.sqlite');
  const v1 = openDatabase(path, MIGRATIONS.slice(0, 1));
  // The version-1 schema as an older Tidings wrote it (this file is the one place SQL is seen
  // outside store.ts: it stands in for that older code).
  v1.prepare(
    `INSERT INTO subscriptions (feed_url, callback_url, protocol, notify_procedure, ct_updates, when_created, when_expires)
     VALUES ('http://f.test/rss', 'http://r.test/RPC2', 'xml-rpc', 'river.feedUpdated', 4, 1000, 9000)`,
  ).run();
  v1.prepare(
    `INSERT INTO resources (url, last_hash, when_last_update) VALUES ('http://f.test/rss', 'h', 500)`,
  ).run();
  v1.close();

  const store = SqliteCloudStore.open(path);
  try {
    expect(await store.allSubscriptions()).toEqual([
      expect.objectContaining({
        feedUrl: 'http://f.test/rss',
        callbackUrl: 'http://r.test/RPC2',
        protocol: 'xml-rpc',
        notifyProcedure: 'river.feedUpdated',
        ctUpdates: 4,
        whenExpires: 9000,
        secret: null,
        leaseSeconds: null,
        state: 'active',
      }),
    ]);
    expect(await store.getResource('http://f.test/rss')).toMatchObject({ lastHash: 'h', siteName: null });
    const websub = {
      feedUrl: 'http://f.test/rss',
      callbackUrl: 'http://r.test/cb',
      secret: 's',
      leaseSeconds: 300,
    };
    expect(await store.addPendingWebSub(websub, 2000, 8000)).toBe(true);
    expect(await store.addPendingWebSub(websub, 2000, 8000)).toBe(false);
    expect((await store.liveTargetsPage('http://f.test/rss', 3000, '', 100)).map((t) => t.protocol)).toEqual([
      'xml-rpc',
    ]);
    await store.activateWebSub(websub, 2500, 8000);
    expect(await store.liveTargetsPage('http://f.test/rss', 3000, '', 100)).toEqual([
      expect.objectContaining({ protocol: 'xml-rpc' }),
      expect.objectContaining({ protocol: 'websub', callbackUrl: 'http://r.test/cb', secret: 's' }),
    ]);
    // A failed verification of a renewal leaves the active row as it was.
    await store.dropPending(websub.feedUrl, websub.callbackUrl);
    expect(await store.countForCallback('http://r.test/cb')).toBe(1);
  } finally {
    await store.close();
  }
});
