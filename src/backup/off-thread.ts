/**
 * The backup's worker thread, started for one backup or one restore and closed after it.
 * Found beside this module: backup-worker.ts in the sources, backup-worker.js in the app's bundle
 * (its own entry in electron.vite.config.ts). Kept apart from database-jobs.ts, which the worker
 * itself loads: a bundler may put a module both entries share in a chunk of its own, where
 * import.meta.url would name another folder.
 */
import { type JobWorker, startJobWorker, workerBeside } from '../common/worker-jobs.ts';
import { DATABASE_JOBS } from './database-jobs.ts';

export type DatabaseWorker = JobWorker<typeof DATABASE_JOBS>;

export function startDatabaseWorker(): DatabaseWorker {
  return startJobWorker(workerBeside(import.meta.url, 'backup-worker'), DATABASE_JOBS);
}
