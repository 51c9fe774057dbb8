/**
 * A data folder built by the app itself (testdata/built-folder.ts), backed up while the app runs,
 * restored into an empty folder: the same river, counts, read and starred state, folders, filters,
 * settings, posts and the bytes of their hosted feeds. Secrets leave only sealed, or not at all.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTidings } from '../app/tidings.ts';
import { createLoopbackPublisher } from '../testing/app-fixture.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore.ts';
import { summarizeDataDir } from './summary.ts';
import { unpackedBytes } from './testdata/backup-bytes.ts';
import { buildFolder, FEED_LOGIN, HOSTING_PASSWORD, SECRETS, snapshot } from './testdata/built-folder.ts';
import { filesOf, tempDirs } from './testdata/folders.ts';

const PASSPHRASE = 'correct horse battery';
const dirs = tempDirs('tidings-round-trip-');
let source: string;
let before: Record<string, unknown>;
let sealedFile: string;
let leftOutFile: string;

beforeAll(async () => {
  const built = await buildFolder();
  source = built.dataDir;
  await built.app.context.scheduler.idle();
  // Taken while the app runs on the folder, as a person would from the CLI.
  const out = dirs.make();
  sealedFile = join(out, 'sealed.tidings-backup');
  leftOutFile = join(out, 'left-out.tidings-backup');
  const sealed = await createBackup(source, sealedFile, { passphrase: PASSPHRASE });
  const leftOut = await createBackup(source, leftOutFile, { passphrase: null });
  if (!sealed.ok || !leftOut.ok) throw new Error('backup failed');
  await built.close();
  before = await snapshot(source);
}, 90_000);

afterAll(() => {
  rmSync(source, { recursive: true, force: true });
  dirs.removeAll();
});

describe('backup and restore', () => {
  it('restores into an empty folder as the same river, counts, posts and settings', async () => {
    const target = join(dirs.make(), 'new-data');
    const r = await restoreBackup(sealedFile, target, { passphrase: PASSPHRASE });
    expect(r.ok && r.value).toMatchObject({ replacedCopy: null, warnings: [] });
    expect(r.ok && r.value.summary).toEqual(summarizeDataDir(source));
    expect(await snapshot(target)).toEqual(before);
    // Nothing of the restore's own is left behind.
    expect(readdirSync(target).sort()).toEqual(['cloud.db', 'publish-media', 'publish.db', 'tidings.db']);

    // And it runs: the hosted feed is served again, private as it was, with the same posts.
    const { app, base } = await createLoopbackPublisher(target);
    app.start();
    try {
      await app.realtimeStarted();
      const login = `Basic ${Buffer.from(`friend:${HOSTING_PASSWORD}`).toString('base64')}`;
      expect((await fetch(`${base}/site/feed.xml`)).status).toBe(401);
      const feed = await fetch(`${base}/site/feed.xml`, { headers: { authorization: login } });
      expect(feed.status).toBe(200);
      expect(await feed.text()).toContain('First post, before the backup');
    } finally {
      await app.stop();
    }
  });

  it('holds no secret in plain text when they are left out, and restores without them, saying so', async () => {
    // The search would find them: the folder itself holds them in plain text, where they live.
    const live = Buffer.concat(['tidings.db', 'publish.db'].map((f) => readFileSync(join(source, f))));
    for (const secret of SECRETS) expect(live.includes(secret), secret).toBe(true);
    const bytes = await unpackedBytes(leftOutFile);
    for (const secret of SECRETS) expect(bytes.includes(secret), secret).toBe(false);

    const target = dirs.make();
    const r = await restoreBackup(leftOutFile, target, { passphrase: null });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.warnings.join(' ')).toMatch(
      /without its secrets \(feed logins: 2; passwords in feed addresses: 1; publishing passwords: 1\)/,
    );
    const app = createTidings({ dataDir: target });
    try {
      const feeds = await app.listFeeds();
      const store = app.context.store;
      expect(feeds.map((f) => store.getCredentials(f.id)).filter(Boolean)).toEqual([]);
      const userinfo = feeds.find((f) => f.title === 'Userinfo')!;
      expect(store.getFeed(userinfo.id)!.url).toMatch(/^http:\/\/u@127\.0\.0\.1:\d+\/userinfo\.xml$/);
      // The private feed stays private: its password is one nobody knows, not none.
      const hosting = (await app.getPublishSettings()).hosting;
      expect(hosting.private).toMatchObject({ scheme: 'basic', username: 'friend' });
      expect(hosting.private!.password).not.toBe(HOSTING_PASSWORD);
      expect(hosting.private!.password.length).toBeGreaterThanOrEqual(20);
      // Everything else is there.
      const { feeds: _f, credentials: _c, feedUrls: _u, publishSettings: _p, ...rest } = before;
      const {
        feeds: _f2,
        credentials: _c2,
        feedUrls: _u2,
        publishSettings: _p2,
        ...restored
      } = await snapshot(target);
      expect(restored).toEqual(rest);
    } finally {
      await app.stop();
    }
  });

  it('holds sealed secrets only sealed, and opens them with the passphrase alone', async () => {
    const bytes = await unpackedBytes(sealedFile);
    for (const secret of SECRETS) expect(bytes.includes(secret), secret).toBe(false);

    const target = dirs.make();
    const wrong = await restoreBackup(sealedFile, target, { passphrase: 'correct horse battery!' });
    expect(!wrong.ok && wrong.error.message).toMatch(/passphrase does not open/);
    const none = await restoreBackup(sealedFile, target, { passphrase: null });
    expect(!none.ok && none.error.code).toBe('backup.needsPassphrase');
    expect(readdirSync(target)).toEqual([]);

    const skipped = await restoreBackup(sealedFile, target, { passphrase: null, skipSecrets: true });
    expect(skipped.ok && skipped.value.warnings.join(' ')).toMatch(/Restored without the backup's secrets/);
    const app = createTidings({ dataDir: target });
    try {
      const feeds = await app.listFeeds();
      expect(feeds.map((f) => app.context.store.getCredentials(f.id)).filter(Boolean)).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it('asks before replacing data, then keeps a copy of it, and keeps the folder its own install id', async () => {
    const target = dirs.make();
    const first = await restoreBackup(leftOutFile, target, { passphrase: null });
    expect(first.ok).toBe(true);
    const app = createTidings({ dataDir: target, realtime: { tunnelHost: false } });
    const installId = app.context.store.getSetting<string | null>('installId', null);
    expect(installId).toMatch(/^[0-9a-f-]{36}$/);
    await app.unsubscribe((await app.listFeeds())[0]!.id);
    await app.stop();
    const filesBefore = filesOf(target);

    const refused = await restoreBackup(sealedFile, target, { passphrase: PASSPHRASE });
    expect(!refused.ok && refused.error.message).toMatch(/already holds 6 feeds.*Restoring replaces them/);
    expect(filesOf(target)).toEqual(filesBefore);

    const r = await restoreBackup(sealedFile, target, { passphrase: PASSPHRASE, replaceExisting: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.replacedCopy).toMatch(/replaced\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(summarizeDataDir(r.value.replacedCopy!)?.feeds).toBe(6);
    expect(existsSync(join(r.value.replacedCopy!, 'realtime.db'))).toBe(true);
    expect(existsSync(join(target, 'realtime.db'))).toBe(false);
    expect(await snapshot(target)).toEqual(before);
    const reopened = createTidings({ dataDir: target });
    expect(reopened.context.store.getSetting('installId', null)).toBe(installId);
    expect(
      reopened.context.store.getCredentials(
        (await reopened.listFeeds()).find((f) => f.title === 'Members')!.id,
      ),
    ).toEqual({ scheme: 'basic', ...FEED_LOGIN });
    await reopened.stop();
  });
});
