/**
 * Backup and restore through the API, as Settings' buttons use it: a backup read in pieces while
 * the app runs, uploaded again in pieces, previewed, and restored under the running app, which
 * reloads its stores and keeps working (polling, subscribing) on the restored data.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { inspectBackup } from '../backup/inspect.ts';
import { filesOf, tempDirs } from '../backup/testdata/folders.ts';
import { makeItem } from '../store/test-support.ts';
import { startAppWithHost } from '../testing/app-fixture.ts';
import { type FeedHost, rssFeed } from '../testing/feed-host.ts';
import type { FeedView, RestoreReport, TidingsApi, TransferChunk } from './api.ts';
import { HOLDER_FILE } from './data-holder.ts';
import type { Tidings } from './tidings.ts';
import { PIECE_BYTES } from './transfers.ts';

let host: FeedHost;
let app: Tidings;
let dataDir: string;
const dirs = tempDirs('tidings-backup-api-');

beforeEach(async () => {
  const fx = await startAppWithHost('tidings-backup-api-');
  ({ host, app, dataDir } = fx);
  return async () => {
    await fx.close();
    dirs.removeAll();
  };
});

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Reads a made backup piece by piece, as the window does. */
async function download(api: TidingsApi, transferId: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const chunk: TransferChunk = unwrap(await api.readTransfer(transferId, offset));
    pieces.push(Buffer.from(chunk.dataBase64, 'base64'));
    offset = chunk.nextOffset;
  }
  return Buffer.concat(pieces);
}

/** Sends a file piece by piece, as the window does. */
async function upload(api: TidingsApi, bytes: Buffer): Promise<string> {
  const { transferId } = unwrap(await api.startUpload(bytes.length));
  for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES) {
    const piece = bytes.subarray(offset, offset + PIECE_BYTES).toString('base64');
    unwrap(await api.writeUpload(transferId, offset, piece));
  }
  return transferId;
}

async function river(): Promise<{ id: number; read: boolean; starred: boolean }[]> {
  const page = await app.river({ limit: 500 });
  return page.groups.flatMap((g) => g.items.map(({ id, read, starred }) => ({ id, read, starred })));
}

async function twoFeeds(): Promise<void> {
  for (const name of ['one', 'two']) {
    host.set(
      `/${name}.xml`,
      rssFeed(name, [
        { title: `${name} a`, guid: `${name}-a` },
        { title: `${name} b`, guid: `${name}-b` },
      ]),
    );
    unwrap(await app.subscribe({ url: `${host.url}/${name}.xml`, folder: name === 'two' ? 'Later' : null }));
  }
  await app.context.scheduler.idle();
  // Bulk, so the backup takes several pieces each way.
  const text = (i: number) => `<p>Item ${i}: ${randomBytes(1200).toString('base64')}</p>`;
  const feed = (await app.listFeeds())[0]!;
  // Seen a day ago: within retention, so the restored app's first prune keeps them.
  const items = Array.from({ length: 3000 }, (_, i) => makeItem(`bulk-${i}`, { summary: text(i) }));
  app.context.store.upsertItems(feed.id, items, Date.now() - 86_400_000);
  const shown = await river();
  await app.setStarred(shown[1]!.id, true);
  await app.markRead([shown[0]!.id, shown[2]!.id], true);
}

describe('backup and restore through the API', () => {
  it('makes a backup in pieces while the app runs, and restores it under the running app', async () => {
    await twoFeeds();
    const feedsBefore = await app.listFeeds();
    const riverBefore = await river();
    const plan = await app.backupPlan();
    expect(plan).toMatchObject({ summary: { feeds: 2, folders: 1 }, secrets: [], minPassphraseLength: 8 });
    expect(plan.fileName).toMatch(/^tidings-\d{4}-\d\d-\d\d\.tidings-backup$/);

    const ready = unwrap(await app.createBackup({ passphrase: null }));
    expect(ready.secrets.mode).toBe('none');
    const bytes = await download(app, ready.transferId);
    expect(bytes.length).toBe(ready.size);
    expect(bytes.length).toBeGreaterThan(PIECE_BYTES);
    const file = join(dirs.make(), ready.fileName);
    writeFileSync(file, bytes);
    expect((await inspectBackup(file)).ok).toBe(true);
    await app.discardTransfer(ready.transferId);
    expect((await app.readTransfer(ready.transferId, 0)).ok).toBe(false);

    // What happens after the backup: to be undone by the restore.
    await app.markAllRead();
    await app.unsubscribe(feedsBefore[1]!.id);

    const transferId = await upload(app, await readFile(file));
    const preview = unwrap(await app.previewRestore(transferId));
    expect(preview).toMatchObject({
      summary: { feeds: 2 },
      current: { feeds: 1, unread: 0 },
      keepsCopyIn: join(dataDir, 'replaced'),
      secrets: { mode: 'none' },
    });

    const refused = await app.restoreBackup(transferId, { passphrase: null });
    expect(!refused.ok && refused.error.code).toBe('backup.wouldReplace');
    expect(await app.listFeeds()).toHaveLength(1);

    const restoredEvents: RestoreReport[] = [];
    app.on('data.restored', (r) => restoredEvents.push(r));
    const hitsBeforeRestore = ['/one.xml', '/two.xml'].map((path) => [path, host.hits(path)] as const);
    let restoring = true;
    const restore = app.restoreBackup(transferId, { passphrase: null, replaceExisting: true }).finally(() => {
      restoring = false;
    });
    // Commands sent meanwhile are answered, from the data as it was or as restored, never from
    // a store being closed (they wait while the data is swapped).
    const answers: number[] = [];
    while (restoring) {
      answers.push((await app.listFeeds()).length);
      await new Promise((r) => setImmediate(r)); // the restore's file work needs the loop too
    }
    const report = unwrap(await restore);
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.every((n) => n === 1 || n === 2)).toBe(true);
    expect(answers.at(-1)).toBe(2);
    expect(restoredEvents).toEqual([report]);
    expect(report.replacedCopy).toContain(join(dataDir, 'replaced'));
    // As backed up (when each was fetched last and is due next are the restored app's own).
    const kept = (feeds: FeedView[]) =>
      feeds.map(({ id, url, title, folderPath, unread, status }) => ({
        id,
        url,
        title,
        folderPath,
        unread,
        status,
      }));
    expect(kept(await app.listFeeds())).toEqual(kept(feedsBefore));
    expect(await river()).toEqual(riverBefore);

    // The restored app reads every feed again at once, to catch up on what came since the backup.
    await app.context.scheduler.idle();
    expect(hitsBeforeRestore.every(([path, hits]) => host.hits(path) > hits)).toBe(true);

    // The restored app runs: a new subscription is fetched by its scheduler.
    host.set('/three.xml', rssFeed('three', [{ title: 'three a', guid: 'three-a' }]));
    const three = unwrap(await app.subscribe({ url: `${host.url}/three.xml` }));
    await app.context.scheduler.idle();
    expect((await app.listFeeds()).find((f) => f.id === three.id)).toMatchObject({ status: 'ok', unread: 1 });
  });

  it('refuses what is not whole or in order, a weak passphrase, and another app on the folder', async () => {
    await twoFeeds();
    const weak = await app.createBackup({ passphrase: 'short' });
    expect(!weak.ok && weak.error.message).toMatch(/at least 8 characters/);

    const ready = unwrap(await app.createBackup({ passphrase: null }));
    const bytes = await download(app, ready.transferId);
    const { transferId } = unwrap(await app.startUpload(bytes.length));
    const outOfOrder = await app.writeUpload(transferId, 5, bytes.subarray(0, 10).toString('base64'));
    expect(!outOfOrder.ok && outOfOrder.error.code).toBe('backup.uploadOrder');
    unwrap(await app.writeUpload(transferId, 0, bytes.subarray(0, PIECE_BYTES).toString('base64')));
    const early = await app.previewRestore(transferId);
    expect(!early.ok && early.error.message).toMatch(/Only [\d]+ of the backup's \d+ bytes arrived/);
    const tooLong = await app.writeUpload(
      transferId,
      PIECE_BYTES,
      Buffer.alloc(bytes.length).toString('base64'),
    );
    expect(tooLong.ok).toBe(false);

    // Another Tidings holds the folder (its process is alive): a restore would pull files from under it.
    const whole = await upload(app, bytes);
    const holder = join(dataDir, HOLDER_FILE);
    const ours = await readFile(holder, 'utf8');
    writeFileSync(holder, JSON.stringify({ pid: process.ppid, since: new Date().toISOString() }));
    const before = filesOf(dataDir);
    const held = await app.restoreBackup(whole, { passphrase: null, replaceExisting: true });
    expect(!held.ok && held.error.message).toMatch(
      new RegExp(`Another Tidings \\(process ${process.ppid}\\)`),
    );
    expect(filesOf(dataDir)).toEqual(before);
    writeFileSync(holder, ours);
    unwrap(await app.restoreBackup(whole, { passphrase: null, replaceExisting: true }));
  });
});
