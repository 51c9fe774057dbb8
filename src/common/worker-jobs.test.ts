import { afterEach, describe, expect, it } from 'vitest';
import { fsErrorReason } from './fs-errors.ts';
import { TEST_JOBS } from './testdata/test-jobs.ts';
import { type JobWorker, startJobWorker, workerBeside } from './worker-jobs.ts';

let worker: JobWorker<typeof TEST_JOBS> | null = null;
afterEach(async () => {
  await worker?.close();
  worker = null;
});

/** Sets the flag from this thread's event loop, as soon as it gets to run. */
function flagSoon(): SharedArrayBuffer {
  const flag = new SharedArrayBuffer(4);
  setImmediate(() => {
    const cell = new Int32Array(flag);
    Atomics.store(cell, 0, 1);
    Atomics.notify(cell, 0);
  });
  return flag;
}

describe('jobs on a worker thread', () => {
  it('run off the starting thread, which goes on answering meanwhile', async () => {
    worker = startJobWorker(workerBeside(import.meta.url, 'testdata/jobs-worker'), TEST_JOBS);
    expect(await worker.run('where', null)).not.toBe(0);
    // 'ok' once woken, 'not-equal' when the flag was set before the job began: never 'timed-out'.
    expect(await worker.run('waitForFlag', flagSoon())).not.toBe('timed-out');
  });

  it("give back a job's failure with its message and code", async () => {
    worker = startJobWorker(workerBeside(import.meta.url, 'testdata/jobs-worker'), TEST_JOBS);
    const failed = await worker.run('fail', 'ENOSPC').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).toMatchObject({ message: 'failed with ENOSPC', code: 'ENOSPC' });
    expect(fsErrorReason(failed)).toBe('the disk is full');
    expect(await worker.run('where', null)).not.toBe(0);
  });

  it('run inline when there is no worker file, or when it cannot load', async () => {
    expect(workerBeside(import.meta.url, 'testdata/no-such-worker')).toBeNull();
    worker = startJobWorker(null, TEST_JOBS);
    expect(await worker.run('where', null)).toBe(0);
    await worker.close();

    worker = startJobWorker(workerBeside(import.meta.url, 'testdata/broken-worker'), TEST_JOBS);
    expect(await worker.run('where', null)).toBe(0);
    expect(await worker.run('where', null)).toBe(0);
  });

  it('refuses jobs once closed', async () => {
    worker = startJobWorker(workerBeside(import.meta.url, 'testdata/jobs-worker'), TEST_JOBS);
    await worker.close();
    await expect(worker.run('where', null)).rejects.toThrow(/closed/);
  });
});
