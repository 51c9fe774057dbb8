import { Worker } from 'node:worker_threads';
import { workerBeside } from '../common/worker-jobs.ts';
import { extractArticle } from './extract.ts';
import type { ExtractAnswer, ExtractJob } from './extract-worker.ts';

export type ExtractResult =
  | ExtractAnswer['result']
  | { ok: false; code: 'fulltext.tooSlow'; message: string };

export interface ExtractPool {
  extract(html: string, url: string): Promise<ExtractResult>;
  close(): Promise<void>;
}

export interface ExtractPoolOptions {
  /** A page taking longer than this is given up (default 20 s). */
  deadlineMs?: number;
  /** The worker exits after this long without work (default 30 s). */
  idleMs?: number;
  /** The worker's heap ceiling in MB (default 256). */
  maxHeapMb?: number;
  /** false: always inline (tests of the extraction itself). */
  offThread?: boolean;
}

interface Pending {
  job: ExtractJob;
  resolve(result: ExtractResult): void;
}

export function createExtractPool(opts: ExtractPoolOptions = {}): ExtractPool {
  const deadlineMs = opts.deadlineMs ?? 20_000;
  const idleMs = opts.idleMs ?? 30_000;
  const file = opts.offThread === false ? null : workerBeside(import.meta.url, 'extract-worker');
  const queue: Pending[] = [];
  let current: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  let worker: { thread: Worker; ready: boolean } | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 1;

  const failed = (message: string): ExtractResult => ({ ok: false, code: 'fulltext.extractFailed', message });

  function stop(): void {
    const w = worker;
    worker = null;
    void w?.thread.terminate();
  }

  function settle(result: ExtractResult): void {
    const done = current;
    if (!done) return;
    current = null;
    clearTimeout(done.timer);
    done.pending.resolve(result);
    pump();
  }

  function start(): { thread: Worker; ready: boolean } {
    const thread = new Worker(file!, { resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 256 } });
    thread.unref();
    const w = { thread, ready: false };
    thread.on('message', (answer: ExtractAnswer | { ready: true }) => {
      if (worker !== w) return;
      if ('ready' in answer) {
        w.ready = true;
        if (current) w.thread.postMessage(current.pending.job);
      } else if (current?.pending.job.id === answer.id) settle(answer.result);
    });
    thread.on('error', (err: NodeJS.ErrnoException) => {
      if (worker !== w) return;
      worker = null;
      settle(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? failed('The page is too big to read as an article.')
          : failed(`The page could not be read as an article: ${err.message}`),
      );
    });
    thread.on('exit', () => {
      if (worker !== w) return;
      worker = null;
      settle(failed('The page could not be read as an article (the reader stopped).'));
    });
    return w;
  }

  function pump(): void {
    if (current) return;
    const next = queue.shift();
    if (!next) {
      if (worker && !idle) {
        idle = setTimeout(() => {
          idle = null;
          stop();
        }, idleMs);
        idle.unref();
      }
      return;
    }
    if (idle) {
      clearTimeout(idle);
      idle = null;
    }
    const timer = setTimeout(() => {
      stop();
      settle({
        ok: false,
        code: 'fulltext.tooSlow',
        message: `Reading the page as an article took longer than ${Math.round(deadlineMs / 1000)} s; it was stopped.`,
      });
    }, deadlineMs);
    timer.unref();
    current = { pending: next, timer };
    worker ??= start();
    if (worker.ready) worker.thread.postMessage(next.job);
  }

  return {
    extract(html, url) {
      if (!file) {
        try {
          return Promise.resolve(extractArticle(html, url));
        } catch (e) {
          return Promise.resolve(failed(`The page could not be read as an article: ${String(e)}`));
        }
      }
      return new Promise((resolve) => {
        queue.push({ job: { id: nextId++, html, url }, resolve });
        pump();
      });
    },
    async close() {
      if (idle) clearTimeout(idle);
      for (const p of queue.splice(0)) p.resolve(failed('The app is stopping.'));
      if (current) settle(failed('The app is stopping.'));
      const w = worker;
      worker = null;
      await w?.thread.terminate();
    },
  };
}
