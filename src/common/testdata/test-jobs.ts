/** Jobs for worker-jobs.test.ts: where they run, whether the starting thread went on meanwhile, failures. */
import { threadId } from 'node:worker_threads';

export const TEST_JOBS = {
  /** The thread the job ran on (0: the main thread). */
  where: (_: null) => threadId,
  /**
   * Waits (at most 5 s) for the starting thread to set the flag: only a thread whose event loop
   * runs while the job does can set it ('timed-out' when the job held that very thread).
   */
  waitForFlag: (flag: SharedArrayBuffer) => Atomics.wait(new Int32Array(flag), 0, 0, 5_000),
  fail: (code: string) => {
    throw Object.assign(new Error(`failed with ${code}`), { code });
  },
};
