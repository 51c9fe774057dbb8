/**
 * A secret that was changed or removed leaves with no backup: not the old login of a feed, not the
 * login of a feed unsubscribed, not the private feed's old password, not a replaced app
 * password's hash. A database keeps the bytes of deleted and rewritten rows in its free space, so
 * a copy of its pages would carry them: the live databases overwrite them (secure_delete), and a
 * backup rebuilds its copies with only their live rows, which also covers a folder whose free
 * space was filled before that (by an older Tidings).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tidings } from '../app/tidings.ts';
import { createTidings } from '../app/tidings.ts';
import { rssFeed } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore.ts';
import { unpackedBytes } from './testdata/backup-bytes.ts';
import { type BuiltFolder, buildFolder, FEED_LOGIN, HOSTING_PASSWORD } from './testdata/built-folder.ts';
import { tempDirs } from './testdata/folders.ts';

const PASSPHRASE = 'correct horse battery';
const NEW_FEED_PASSWORD = 'feed-password-new-5d0b';
const NEW_HOSTING_PASSWORD = 'hosting-password-new-91ce';
const GONE_LOGIN = { username: 'former', password: 'gone-feed-password-e7a4' };

const dirs = tempDirs('tidings-remnants-');
let built: BuiltFolder;
let stopped: Promise<void> | null = null;
/** The app stops once, whichever asks first. */
const stopBuilt = () => {
  stopped ??= built.close();
  return stopped;
};
/** Every secret the folder held once and holds no more. */
const formerSecrets: string[] = [FEED_LOGIN.password, HOSTING_PASSWORD, GONE_LOGIN.password];

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The sync account's hashes as stored now (the app password's and the Fever key's). */
function syncHashes(app: Tidings): string[] {
  const row = app.context.store.db
    .prepare('SELECT password_hash, fever_key_hash FROM sync_account WHERE id = 1')
    .get() as { password_hash: string; fever_key_hash: string };
  return [row.password_hash, row.fever_key_hash];
}

async function backUp(dataDir: string, passphrase: string | null): Promise<string> {
  const file = join(dirs.make(), passphrase ? 'sealed.tidings-backup' : 'left-out.tidings-backup');
  unwrap(await createBackup(dataDir, file, { passphrase }));
  return file;
}

/** The secrets among `secrets` that anyone holding the backup could read: in its file, or unpacked. */
async function readableIn(file: string, secrets: readonly string[]): Promise<string[]> {
  const bytes = [readFileSync(file), await unpackedBytes(file)];
  return secrets.filter((s) => bytes.some((b) => b.includes(s)));
}

beforeAll(async () => {
  built = await buildFolder('tidings-remnants-built-');
  const { app, host } = built;
  const feeds = await app.listFeeds();

  // A feed's login changed (as the store writes every login change).
  const members = feeds.find((f) => f.title === 'Members')!;
  const newLogin = { username: FEED_LOGIN.username, password: NEW_FEED_PASSWORD };
  host.set('/private.xml', {
    body: rssFeed('Members', [{ title: 'Members only', guid: 'm-1' }]),
    basicAuth: newLogin,
  });
  app.context.store.setCredentials(members.id, { scheme: 'basic', ...newLogin });

  // A feed with a login, unsubscribed.
  host.set('/gone.xml', {
    body: rssFeed('Gone', [{ title: 'Soon gone', guid: 'g-1' }]),
    basicAuth: GONE_LOGIN,
  });
  const gone = unwrap(
    await app.subscribe({ url: `${host.url}/gone.xml`, credentials: { scheme: 'basic', ...GONE_LOGIN } }),
  );
  await app.context.scheduler.idle();
  await app.unsubscribe(gone.id);

  // The private hosted feed's password changed in Settings: the app's own reading of it follows.
  unwrap(
    await app.updatePublishSettings({
      hosting: {
        enabled: true,
        private: { scheme: 'basic', username: 'friend', password: NEW_HOSTING_PASSWORD },
      },
    }),
  );
  unwrap(await app.post({ text: 'A post after the new password' }));
  const own = feeds.find((f) => f.own)!;
  await waitFor(
    async () => app.context.store.getCredentials(own.id)?.password === NEW_HOSTING_PASSWORD,
    20_000,
    'the own feed to read with the new password',
  );

  // The phone apps' password made, then replaced.
  unwrap(await app.newSyncPassword('phone'));
  formerSecrets.push(...syncHashes(app));
  unwrap(await app.newSyncPassword('phone'));
  await app.context.scheduler.idle();
}, 90_000);

afterAll(async () => {
  await stopBuilt();
  dirs.removeAll();
});

describe('secrets changed or removed', () => {
  it('leave with no backup, sealed or left out, and the sealed one restores the current ones', async () => {
    // Taken while the app runs, as Settings > Backup takes it.
    const sealed = await backUp(built.dataDir, PASSPHRASE);
    const leftOut = await backUp(built.dataDir, null);
    expect(await readableIn(sealed, formerSecrets)).toEqual([]);
    expect(await readableIn(leftOut, formerSecrets)).toEqual([]);

    const target = dirs.make();
    unwrap(await restoreBackup(sealed, target, { passphrase: PASSPHRASE }));
    const app = createTidings({ dataDir: target });
    try {
      const feeds = await app.listFeeds();
      expect(feeds.map((f) => f.title)).not.toContain('Gone');
      const members = feeds.find((f) => f.title === 'Members')!;
      expect(app.context.store.getCredentials(members.id)?.password).toBe(NEW_FEED_PASSWORD);
      expect((await app.getPublishSettings()).hosting.private?.password).toBe(NEW_HOSTING_PASSWORD);
    } finally {
      await app.stop();
    }
  });

  it('are overwritten where they stood in the live databases', async () => {
    await stopBuilt();
    const live = Buffer.concat(['tidings.db', 'publish.db'].map((f) => readFileSync(join(built.dataDir, f))));
    // The search would find them: the current ones are there, in plain text, where they live.
    for (const current of [NEW_FEED_PASSWORD, NEW_HOSTING_PASSWORD])
      expect(live.includes(current)).toBe(true);
    expect(formerSecrets.filter((s) => live.includes(s))).toEqual([]);
  });

  it('leave with no backup of a folder whose free space held them before (an older Tidings wrote it)', async () => {
    await stopBuilt();
    const before = ['remnant-login-0c41', 'remnant-login-2f88'];
    // As the databases were written before secure_delete: a deleted row's bytes stay where it stood.
    const db = new DatabaseSync(join(built.dataDir, 'tidings.db'));
    try {
      db.exec('PRAGMA secure_delete = OFF');
      const add = db.prepare('INSERT INTO feeds (url, credentials, meta, created_at) VALUES (?, ?, ?, 0)');
      for (const [i, password] of before.entries()) {
        const login = JSON.stringify({ scheme: 'basic', username: 'old', password });
        add.run(`https://old${i}.example/`, login, '{}');
      }
      db.exec("DELETE FROM feeds WHERE url LIKE 'https://old_.example/'");
    } finally {
      db.close();
    }
    const live = readFileSync(join(built.dataDir, 'tidings.db'));
    expect(before.filter((s) => live.includes(s))).toEqual(before);

    for (const passphrase of [PASSPHRASE, null]) {
      const file = await backUp(built.dataDir, passphrase);
      expect(await readableIn(file, before)).toEqual([]);
    }
  });
});
