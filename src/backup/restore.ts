/**
 * Restoring a backup into a data folder, in two steps so nothing changes until everything is
 * known to be good:
 * 1. prepare: check the file (inspect.ts), open the sealed secrets with the passphrase, write every
 *    part into a staging folder beside the data (each checked against its size and SHA-256), put
 *    the secrets back, keep the folder's own install id, and open each database as the app would
 *    (older schemas are migrated here; database-jobs.ts, on a worker thread). A refusal at any
 *    point leaves the data folder untouched.
 * 2. commit: swap.ts moves the current data aside into replaced/<time>/ and the restored data in.
 * The app stops on the folder between the two (src/app/replaceable.ts); the CLI refuses to run
 * while an app holds it (holder.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSummary, RestoreReport } from '../app/api.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import type { ContainerReader, PartRecord } from './container.ts';
import type { SecretsBundle } from './create-backup.ts';
import { describeKinds, describeSummary } from './describe.ts';
import { type BackupInfo, openBackup } from './inspect.ts';
import { databaseSpec, MACHINE_SETTINGS, MEDIA_DIR, MEDIA_PREFIX } from './layout.ts';
import { type DatabaseWorker, startDatabaseWorker } from './off-thread.ts';
import { unseal } from './seal.ts';
import type { TakenSecret } from './secrets.ts';
import { EMPTY_SUMMARY, holdsSomething, openForReading, summarizeDataDir } from './summary.ts';
import { swapIn } from './swap.ts';

export interface RestoreOptions {
  /** Opens the sealed secrets; null when there are none or they are skipped. */
  passphrase: string | null;
  /** Restore without the sealed secrets (said in the warnings). */
  skipSecrets?: boolean;
  /** The person agreed to replace the data the folder holds. */
  replaceExisting?: boolean;
  now?: () => number;
}

export interface PreparedRestore {
  info: BackupInfo;
  /** What the restored folder will hold. */
  summary: DataSummary;
  warnings: string[];
  /** Puts the restored data in place; nothing may have the folder's databases open. */
  commit(): Promise<Result<RestoreReport>>;
  discard(): Promise<void>;
}

/** The restore's own refusal when the folder holds data and the person did not agree to replace it. */
export function wouldReplace(dataDir: string, current: DataSummary): Result<never> {
  return fail(
    tidingsError(
      'backup.wouldReplace',
      `${dataDir} already holds ${describeSummary(current)}. Restoring replaces them (a copy is kept in ${join(dataDir, 'replaced')}).`,
    ),
  );
}

export async function prepareRestore(
  file: string,
  dataDir: string,
  opts: RestoreOptions,
): Promise<Result<PreparedRestore>> {
  const opened = await openBackup(file);
  if (!opened.ok) return opened;
  const { info, reader } = opened.value;
  let staging: string | null = null;
  // A folder this restore made is removed again when it fails: nothing changed means nothing made.
  let madeFolder = !existsSync(dataDir);
  let worker: DatabaseWorker | null = null;
  try {
    const warnings: string[] = [];
    const secrets = await secretsToRestore(info, opts, warnings);
    if (!secrets.ok) return secrets;
    const current = existsSync(dataDir) ? summarizeDataDir(dataDir) : null;
    if (holdsSomething(current) && !opts.replaceExisting) return wouldReplace(dataDir, current!);

    await mkdir(dataDir, { recursive: true });
    staging = await mkdtemp(join(dataDir, '.restore-'));
    // Started now: it loads its code while the parts are written.
    worker = startDatabaseWorker();
    for (const part of info.parts) {
      const written = await writePart(reader, part, staging);
      if (!written.ok) return written;
    }
    const summary = { ...EMPTY_SUMMARY };
    const machineSettings = currentSettings(dataDir, MACHINE_SETTINGS);
    for (const part of info.parts) {
      const spec = databaseSpec(part.name);
      if (part.kind !== 'sqlite' || !spec) continue;
      const settled = await worker.run('settleRestored', {
        part: spec.part,
        path: join(staging, spec.file),
        secrets: secrets.value,
        machineSettings,
      });
      warnings.push(...settled.problems);
      Object.assign(summary, settled.summary);
    }
    summary.mediaFiles = info.parts.filter((p) => p.name.startsWith(MEDIA_PREFIX)).length;
    const ready = staging;
    staging = null; // the prepared restore owns it now
    madeFolder = false;
    return ok({
      info,
      summary,
      warnings,
      async commit() {
        const swapped = await swapIn(dataDir, ready, opts.now?.() ?? Date.now());
        if (!swapped.ok) {
          await rm(ready, { recursive: true, force: true });
          return swapped;
        }
        return ok({ summary, replacedCopy: swapped.value.replacedCopy, warnings });
      },
      discard: () => rm(ready, { recursive: true, force: true }),
    });
  } catch (e) {
    return fail(
      tidingsError(
        'backup.restoreFailed',
        `The backup could not be restored: ${fsErrorReason(e)}.`,
        undefined,
        e,
      ),
    );
  } finally {
    await worker?.close();
    reader.close();
    if (staging) await rm(staging, { recursive: true, force: true });
    if (madeFolder) await rm(dataDir, { recursive: true, force: true });
  }
}

/** Prepares and puts in place at once (the CLI, with no app on the folder). */
export async function restoreBackup(
  file: string,
  dataDir: string,
  opts: RestoreOptions,
): Promise<Result<RestoreReport>> {
  const prepared = await prepareRestore(file, dataDir, opts);
  if (!prepared.ok) return prepared;
  return prepared.value.commit();
}

/** The secrets to put back: opened with the passphrase, or none (with the reason among the warnings). */
async function secretsToRestore(
  info: BackupInfo,
  opts: RestoreOptions,
  warnings: string[],
): Promise<Result<TakenSecret[]>> {
  const what = describeKinds(info.secrets.kinds);
  if (info.secrets.mode === 'leftOut') {
    warnings.push(
      `This backup was made without its secrets (${what}): enter them again where they are asked for.`,
    );
    return ok([]);
  }
  if (info.secrets.mode !== 'sealed' || !info.box) return ok([]);
  if (opts.skipSecrets) {
    warnings.push(
      `Restored without the backup's secrets (${what}): enter them again where they are asked for.`,
    );
    return ok([]);
  }
  if (opts.passphrase === null) {
    return fail(
      tidingsError(
        'backup.needsPassphrase',
        `This backup holds secrets sealed with a passphrase (${what}): give the passphrase, or restore without them.`,
      ),
    );
  }
  const opened = await unseal(info.box, opts.passphrase, info.backupId);
  if (!opened.ok) return opened;
  try {
    const bundle = JSON.parse(opened.value.toString('utf8')) as SecretsBundle;
    if (bundle.version !== 1 || !Array.isArray(bundle.secrets)) throw new Error('unknown bundle');
    return ok(bundle.secrets.filter((s) => databaseSpec(s.part) && typeof s.table === 'string'));
  } catch {
    return fail(
      tidingsError(
        'backup.damaged',
        'This backup is damaged: its sealed secrets are not readable. Use another copy of it.',
      ),
    );
  }
}

async function writePart(reader: ContainerReader, part: PartRecord, staging: string): Promise<Result<true>> {
  const target =
    part.kind === 'sqlite'
      ? join(staging, databaseSpec(part.name)!.file)
      : join(staging, MEDIA_DIR, part.name.slice(MEDIA_PREFIX.length));
  await mkdir(join(target, '..'), { recursive: true });
  const handle = await open(target, 'wx');
  try {
    return await reader.readPart(part, async (bytes) => {
      await handle.write(bytes);
    });
  } finally {
    await handle.close();
  }
}

/** These settings of the folder's current reader database, as stored (key, JSON text). */
function currentSettings(dataDir: string, keys: readonly string[]): [string, string][] {
  const path = join(dataDir, databaseSpec('reader')!.file);
  if (!existsSync(path)) return [];
  const db = openForReading(path);
  try {
    const get = db.prepare('SELECT value FROM settings WHERE key = ?');
    return keys.flatMap((key) => {
      const row = get.get(key) as { value: string } | undefined;
      return row ? [[key, row.value] as [string, string]] : [];
    });
  } catch {
    return [];
  } finally {
    db.close();
  }
}
