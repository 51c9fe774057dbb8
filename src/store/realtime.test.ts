import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ACTIVITY_FLUSH_MS,
  type ActivityInput,
  type CloudSubscriptionRow,
  ensureRealtimeSchema,
  RealtimeStore,
} from './realtime.ts';
import { STORE_MIGRATIONS } from './schema.ts';
import { openDatabase } from './sqlite.ts';
import { openStore } from './store.ts';
import { type TempDir, tempDir } from './test-support.ts';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('tidings-realtime-');
});
afterEach(() => dir.remove());

const row = (over: Partial<CloudSubscriptionRow> = {}): CloudSubscriptionRow => ({
  feedId: 1,
  feedUrl: 'http://feeds.example/a.xml',
  cloudUrl: 'http://cloud.example:5337/pleaseNotify',
  protocol: 'http-post',
  callbackUrl: 'https://x.loca.lt:443/rsscloud/t/notify',
  status: 'live',
  message: 'Thanks for the registration.',
  lastOkAt: 1000,
  lastAttemptAt: 1000,
  nextRenewalAt: 2000,
  failures: 0,
  lastNotifiedAt: null,
  ...over,
});

const entry = (i: number, over: Partial<ActivityInput> = {}): ActivityInput => ({
  at: 1_000 + i,
  direction: 'in',
  peer: '127.0.0.1',
  procedure: 'notify',
  feedUrl: `http://feeds.example/${i}.xml`,
  result: 'fetch queued',
  ok: true,
  latencyMs: 1,
  ...over,
});

describe('RealtimeStore', () => {
  it('puts, reads, updates and deletes subscription rows', () => {
    const rt = new RealtimeStore(new DatabaseSync(':memory:'));
    expect(rt.getSubscription(1)).toBeNull();
    rt.putSubscription(row());
    expect(rt.getSubscription(1)).toEqual(row());
    rt.putSubscription(row({ status: 'failed', failures: 2, message: 'no' }));
    expect(rt.getSubscription(1)).toMatchObject({ status: 'failed', failures: 2, message: 'no' });
    rt.markNotified(1, 5_000);
    expect(rt.getSubscription(1)?.lastNotifiedAt).toBe(5_000);
    rt.putSubscription(row({ feedId: 2, callbackUrl: null, lastOkAt: null, nextRenewalAt: null }));
    expect(rt.listSubscriptions().map((r) => r.feedId)).toEqual([1, 2]);
    expect(rt.getSubscription(1)?.lastNotifiedAt).toBe(5_000); // read again: from the cache
    expect(rt.deleteSubscription(1)).toBe(true);
    expect(rt.getSubscription(1)).toBeNull();
    expect(rt.deleteSubscription(1)).toBe(false);
    expect(rt.listSubscriptions().map((r) => r.feedId)).toEqual([2]);
    // Rows are read once and shared: frozen, so no caller can change what the next one sees.
    const two = rt.getSubscription(2)!;
    expect(rt.getSubscription(2)).toBe(two);
    expect(() => {
      (two as { status: string }).status = 'failed';
    }).toThrow(TypeError);
    rt.markNotified(2, 7_000);
    expect(rt.getSubscription(2)).toMatchObject({ status: 'live', lastNotifiedAt: 7_000 });
  });

  it('refuses a status outside the four', () => {
    const rt = new RealtimeStore(new DatabaseSync(':memory:'));
    expect(() => rt.putSubscription(row({ status: 'maybe' as never }))).toThrow();
  });

  it('keeps the activity log bounded, newest first', () => {
    const rt = new RealtimeStore(new DatabaseSync(':memory:'), { activityCap: 50 });
    for (let i = 0; i < 120; i++)
      rt.addActivity(entry(i, { ok: i % 2 === 0, direction: i % 3 ? 'in' : 'out' }));
    expect(rt.activityCount()).toBe(50);
    const list = rt.listActivity(10);
    expect(list.map((e) => e.at)).toEqual([1119, 1118, 1117, 1116, 1115, 1114, 1113, 1112, 1111, 1110]);
    expect(list[0]).toMatchObject({ ok: false, direction: 'in', feedUrl: 'http://feeds.example/119.xml' });
    expect(rt.listActivity(1_000)).toHaveLength(50);
    expect(rt.listActivity(0)).toHaveLength(1);
  });

  it('lives beside the reader store in one file without touching its schema version', () => {
    const path = dir.file('tidings.db');
    const store = openStore(path);
    store.addFeed({ url: 'http://feeds.example/a.xml' });
    store.close();

    const db = openDatabase(path, STORE_MIGRATIONS);
    const rt = new RealtimeStore(db);
    rt.putSubscription(row());
    rt.addActivity(entry(1));
    rt.flushActivity(); // entries are written a moment later; an owner closing now flushes
    const version = db.prepare('PRAGMA user_version').get() as { user_version: number };
    expect(version.user_version).toBe(Math.max(...STORE_MIGRATIONS.map((m) => m.version)));
    db.close();

    // Reopened by both: the store still works and the realtime rows are still there.
    const again = openStore(path);
    expect(again.listFeeds()).toHaveLength(1);
    again.close();
    const db2 = openDatabase(path, STORE_MIGRATIONS);
    ensureRealtimeSchema(db2);
    ensureRealtimeSchema(db2);
    const rt2 = new RealtimeStore(db2);
    expect(rt2.getSubscription(1)?.status).toBe('live');
    expect(rt2.listActivity()).toHaveLength(1);
    db2.close();
  });
});

describe('activity log under a storm', () => {
  it('writes a burst of entries in one go, keeps ids growing and the cap, and reads see all', async () => {
    const dir = tempDir('tidings-rt-storm-');
    try {
      const db = openDatabase(dir.file('rt.db'), []);
      const rt = new RealtimeStore(db, { activityCap: 100 });
      const ids = Array.from({ length: 150 }, (_, i) => rt.addActivity(entry(i)).id);
      expect(ids).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
      // Nothing written yet in this turn; a read flushes first.
      expect(rt.listActivity(1)[0]?.id).toBe(150);
      expect(rt.activityCount()).toBe(100);
      await new Promise((r) => setImmediate(r));
      rt.addActivity(entry(999));
      await new Promise((r) => setImmediate(r));
      // Not yet written (the burst's entries wait together), and written within ACTIVITY_FLUSH_MS.
      expect((db.prepare('SELECT MAX(id) AS m FROM activity_log').get() as { m: number }).m).toBe(150);
      await new Promise((r) => setTimeout(r, ACTIVITY_FLUSH_MS + 20));
      expect((db.prepare('SELECT MAX(id) AS m FROM activity_log').get() as { m: number }).m).toBe(151);
      db.close();
      // Reopened: ids go on from the newest, never reused.
      const db2 = openDatabase(dir.file('rt.db'), []);
      expect(new RealtimeStore(db2).addActivity(entry(1)).id).toBe(152);
      db2.close();
    } finally {
      dir.remove();
    }
  });
});
