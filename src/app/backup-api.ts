/**
 * Backup and restore as API commands (Settings' two buttons; the work is in src/backup/). A backup
 * is made into a transfer the window reads in pieces and saves as a file; a backup to restore is
 * uploaded in pieces, checked (previewRestore), and restored: the app stops on its data folder,
 * the restored data is put in place, and the app opens it again (replaceData, replaceable.ts).
 */

import { join } from 'node:path';
import { backupFileName, createBackup, planBackup } from '../backup/create-backup.ts';
import { inspectBackup } from '../backup/inspect.ts';
import { prepareRestore, wouldReplace } from '../backup/restore.ts';
import { MIN_PASSPHRASE_LENGTH, passphraseProblem } from '../backup/seal.ts';
import { holdsSomething, summarizeDataDir } from '../backup/summary.ts';
import { REPLACED_DIR } from '../backup/swap.ts';
import type { Clock } from '../common/clock.ts';
import { fail, type Result, tidingsError } from '../common/errors.ts';
import type { BACKUP_METHODS, BackupFacts, RestoreReport, TidingsApi } from './api.ts';
import { apiResult } from './api-result.ts';
import { dataDirHolder } from './data-holder.ts';
import { Transfers } from './transfers.ts';

export type BackupApi = Pick<TidingsApi, (typeof BACKUP_METHODS)[number]>;

export interface BackupDeps {
  dataDir: string;
  clock: Clock;
  /** Stops the app on its folder, runs `swap`, and opens the folder again (whatever swap did). */
  replaceData<T>(swap: () => Promise<Result<T>>): Promise<Result<T>>;
  /** After a restore: every window loads everything again. */
  restored(report: RestoreReport): void;
}

export function backupApi(deps: BackupDeps): BackupApi & { start(): void; close(): Promise<void> } {
  const { dataDir, clock } = deps;
  const transfers = new Transfers(dataDir, clock);

  /** Another app on this folder would keep writing to files a restore moves aside. */
  const heldElsewhere = () => {
    const other = dataDirHolder(dataDir);
    return other
      ? fail<never>(
          tidingsError(
            'backup.heldElsewhere',
            `Another Tidings (process ${other.pid}) is running on this data folder: quit it, then restore.`,
          ),
        )
      : null;
  };

  return {
    backupPlan: async () => ({
      ...planBackup(dataDir),
      fileName: backupFileName(clock.now()),
      minPassphraseLength: MIN_PASSPHRASE_LENGTH,
    }),

    createBackup: async (request) => {
      const problem = request.passphrase === null ? null : passphraseProblem(request.passphrase);
      if (problem) return apiResult(fail(tidingsError('backup.weakPassphrase', problem)));
      const target = transfers.newDownload();
      const made = await createBackup(dataDir, target.path, {
        passphrase: request.passphrase,
        now: () => clock.now(),
      });
      if (!made.ok) return apiResult(made);
      await target.ready();
      const { size, summary, secrets, warnings } = made.value;
      return {
        ok: true,
        value: {
          transferId: target.id,
          fileName: backupFileName(clock.now()),
          size,
          summary,
          secrets,
          warnings,
        },
      };
    },

    readTransfer: async (id, offset) => apiResult(await transfers.read(id, offset)),
    startUpload: async (size) => apiResult(transfers.startUpload(size)),
    writeUpload: async (id, offset, data) => apiResult(await transfers.write(id, offset, data)),

    previewRestore: async (id) => {
      const path = transfers.completeUpload(id);
      if (!path.ok) return apiResult(path);
      const info = await inspectBackup(path.value);
      if (!info.ok) return apiResult(info);
      const current = summarizeDataDir(dataDir);
      const { createdAt, appVersion, formatVersion, size, summary, secrets } = info.value;
      const facts: BackupFacts = { createdAt, appVersion, formatVersion, size, summary, secrets };
      return {
        ok: true,
        value: {
          ...facts,
          current: holdsSomething(current) ? current : null,
          keepsCopyIn: join(dataDir, REPLACED_DIR),
        },
      };
    },

    restoreBackup: async (id, request) => {
      const path = transfers.completeUpload(id);
      if (!path.ok) return apiResult(path);
      const refused = heldElsewhere();
      if (refused) return apiResult(refused);
      const current = summarizeDataDir(dataDir);
      if (holdsSomething(current) && !request.replaceExisting)
        return apiResult(wouldReplace(dataDir, current!));
      const prepared = await prepareRestore(path.value, dataDir, {
        passphrase: request.passphrase,
        skipSecrets: request.skipSecrets === true,
        replaceExisting: true,
        now: () => clock.now(),
      });
      if (!prepared.ok) return apiResult(prepared);
      const done = await deps.replaceData(() => prepared.value.commit());
      if (!done.ok) return apiResult(done);
      await transfers.discard(id);
      deps.restored(done.value);
      return { ok: true, value: done.value };
    },

    discardTransfer: (id) => transfers.discard(id),
    start: () => transfers.clearLeftovers(),
    close: () => transfers.close(),
  };
}
