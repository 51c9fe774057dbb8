/** The worker file of worker-jobs.test.ts. */
import { serveJobs } from '../worker-jobs.ts';
import { TEST_JOBS } from './test-jobs.ts';

serveJobs(TEST_JOBS);
