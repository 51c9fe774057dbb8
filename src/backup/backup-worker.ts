/**
 * The backup's worker thread (off-thread.ts starts it): the SQLite work of database-jobs.ts,
 * off the app's event loop.
 */
import { serveJobs } from '../common/worker-jobs.ts';
import { DATABASE_JOBS } from './database-jobs.ts';

serveJobs(DATABASE_JOBS);
