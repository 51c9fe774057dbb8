/**
 * Making a backup of a data folder, while the app runs on it or not. Each database is copied by
 * SQLite's online backup API from a reader of its own (one step: one consistent snapshot, taken
 * on libuv's threads, never a copy of a live file); the secrets are then taken out of the copies
 * (secrets.ts) and sealed or left out, and each copy is rebuilt with only its live rows
 * (database-jobs.ts, on a worker thread); the rebuilt copies and the media files become parts of
 * one container (container.ts), written under a temporary name and renamed when complete.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { backup } from 'node:sqlite';
import { BACKUP_FILE_EXTENSION, type BackupSecrets, type DataSummary } from '../app/api.ts';
import { APP_VERSION } from '../app/version.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import { ContainerWriter, FORMAT_NAME, FORMAT_VERSION, fileSize } from './container.ts';
import { describeKinds } from './describe.ts';
import { DATABASES, type DatabasePart, MEDIA_DIR, MEDIA_PREFIX } from './layout.ts';
import { type DatabaseWorker, startDatabaseWorker } from './off-thread.ts';
import { type SealedBox, startSealing } from './seal.ts';
import { countSecrets, labelsOf, type SecretCount, type TakenSecret } from './secrets.ts';
import { EMPTY_SUMMARY, mediaFiles, openForReading, summarizeDataDir } from './summary.ts';

export interface BackupOptions {
  /** Seals the secrets with this passphrase; null leaves them out (said in the report's warnings). */
  passphrase: string | null;
  now?: () => number;
}

export interface BackupReport {
  file: string;
  size: number;
  createdAt: string;
  summary: DataSummary;
  secrets: BackupSecrets;
  warnings: string[];
}

/** The secrets bundle as sealed: every secret taken out, to be put back by a restore. */
export interface SecretsBundle {
  version: 1;
  secrets: TakenSecret[];
}

/** Where the copies wait while the container is written: the data folder's disk, else the temp folder. */
async function stagingDir(dataDir: string): Promise<string> {
  try {
    return await mkdtemp(join(dataDir, '.backup-staging-'));
  } catch {
    return await mkdtemp(join(tmpdir(), 'tidings-backup-staging-'));
  }
}

/** Copies one live database by the backup API: the snapshot of one read transaction. */
async function copyDatabase(source: string, target: string): Promise<void> {
  const db = openForReading(source);
  try {
    // All pages in one step: a step at a time would start over whenever the app commits.
    await backup(db, target, { rate: 2 ** 31 - 1 });
  } finally {
    db.close();
  }
}

interface StagedCopy {
  part: DatabasePart;
  path: string;
  schemaVersion: number;
}

/**
 * Copies each database into `staging`, takes the secrets and the machine's own settings out of the
 * copies and rebuilds each with only its live rows (on `worker`). Returns the rebuilt copies,
 * what was taken, and what they hold.
 */
async function stageDatabases(
  dataDir: string,
  staging: string,
  worker: DatabaseWorker,
): Promise<{ copies: StagedCopy[]; taken: TakenSecret[]; summary: DataSummary }> {
  const summary: DataSummary = { ...EMPTY_SUMMARY };
  const taken: TakenSecret[] = [];
  const copies: StagedCopy[] = [];
  for (const spec of DATABASES) {
    const source = join(dataDir, spec.file);
    if (!existsSync(source)) continue;
    const copy = join(staging, `${spec.file}.copy`);
    const path = join(staging, spec.file);
    await copyDatabase(source, copy);
    const clean = await worker.run('cleanCopy', { part: spec.part, copy, into: path });
    await rm(copy, { force: true });
    taken.push(...clean.taken);
    Object.assign(summary, clean.summary);
    copies.push({ part: spec.part, path, schemaVersion: clean.schemaVersion });
  }
  return { copies, taken, summary };
}

/** What the manifest says of the secrets: none, sealed (with the box), or left out. */
async function secretsRecord(
  taken: TakenSecret[],
  sealer: ((plaintext: Uint8Array) => Promise<SealedBox>) | null,
): Promise<BackupSecrets & { box?: SealedBox }> {
  if (taken.length === 0) return { mode: 'none', kinds: [] };
  const kinds = labelsOf(taken);
  if (sealer === null) return { mode: 'leftOut', kinds };
  const bundle: SecretsBundle = { version: 1, secrets: taken };
  return { mode: 'sealed', kinds, box: await sealer(Buffer.from(JSON.stringify(bundle), 'utf8')) };
}

export async function createBackup(
  dataDir: string,
  file: string,
  opts: BackupOptions,
): Promise<Result<BackupReport>> {
  if (!existsSync(join(dataDir, 'tidings.db'))) {
    return fail(tidingsError('backup.noData', `There is no Tidings data in ${dataDir} to back up.`));
  }
  const createdAt = new Date(opts.now?.() ?? Date.now()).toISOString();
  const backupId = randomUUID();
  const partial = join(dirname(file), `.${basename(file)}.${backupId.slice(0, 8)}.partial`);
  let staging: string | null = null;
  let writer: ContainerWriter | null = null;
  let worker: DatabaseWorker | null = null;
  try {
    // Started now: the worker loads its code, and scrypt derives the key on libuv's threads, while
    // the first database is copied (work that waits on the disk more than on a core).
    worker = startDatabaseWorker();
    const sealer = opts.passphrase === null ? null : startSealing(opts.passphrase, backupId);
    staging = await stagingDir(dataDir);
    const { copies, taken, summary } = await stageDatabases(dataDir, staging, worker);
    const media = mediaFiles(dataDir);
    summary.mediaFiles = media.length;
    const sealing = secretsRecord(taken, sealer);
    sealing.catch(() => {}); // awaited below; a failure meanwhile is not unhandled

    writer = ContainerWriter.create(partial);
    for (const copy of copies) await writer.addPart(copy.part, 'sqlite', copy.path, copy.schemaVersion);
    for (const name of media)
      await writer.addPart(`${MEDIA_PREFIX}${name}`, 'file', join(dataDir, MEDIA_DIR, name), null);
    const secrets = await sealing;
    await writer.finish({
      format: FORMAT_NAME,
      formatVersion: FORMAT_VERSION,
      appVersion: APP_VERSION,
      createdAt,
      backupId,
      summary,
      secrets,
    });
    writer = null;
    await rename(partial, file);
    const { box: _sealed, ...shown } = secrets;
    const warnings = shown.mode === 'leftOut' ? [leftOutWarning(shown.kinds)] : [];
    return ok({ file, size: await fileSize(file), createdAt, summary, secrets: shown, warnings });
  } catch (e) {
    writer?.abort();
    await rm(partial, { force: true });
    return fail(
      tidingsError('backup.failed', `The backup could not be written: ${fsErrorReason(e)}.`, undefined, e),
    );
  } finally {
    await worker?.close();
    if (staging) await rm(staging, { recursive: true, force: true });
  }
}

/** What a backup of the folder would hold now, and its secrets (which go in only sealed). */
export function planBackup(dataDir: string): { summary: DataSummary; secrets: SecretCount[] } {
  const counts: SecretCount[] = [];
  for (const spec of DATABASES) {
    const path = join(dataDir, spec.file);
    if (!existsSync(path)) continue;
    const db = openForReading(path);
    try {
      counts.push(...countSecrets(db, spec.part));
    } finally {
      db.close();
    }
  }
  return { summary: summarizeDataDir(dataDir) ?? { ...EMPTY_SUMMARY }, secrets: counts };
}

/** tidings-2026-11-30.tidings-backup */
export function backupFileName(now: number): string {
  return `tidings-${new Date(now).toISOString().slice(0, 10)}${BACKUP_FILE_EXTENSION}`;
}

export function leftOutWarning(kinds: readonly SecretCount[]): string {
  return `Secrets were left out of this backup (no passphrase was given): ${describeKinds(kinds)}. After restoring it, enter them again.`;
}
