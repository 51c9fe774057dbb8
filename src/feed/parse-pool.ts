/**
 * Parsing that never stalls the app. A feed document may be up to 20 MiB; parsing one with
 * 600,000 items on the main thread stalled the API, the receiver and the poller for 13 s (issue
 * 10). Small documents (the vast majority; microseconds to a few ms) are parsed inline; larger
 * ones go to one worker thread, one at a time, so the main event loop keeps answering and at most
 * one big parse holds memory at once. The worker has a heap ceiling, a hard deadline on top of the
 * parser's own, and exits when idle so the memory of a huge parse is given back to the system.
 *
 * Where the worker's code lives: beside this module as parse-worker.ts (sources run by Node's type
 * stripping) or parse-worker.js (a bundle that builds it as its own entry). Without either, parsing
 * stays inline: slower to answer meanwhile, never wrong.
 */
import { Worker } from 'node:worker_threads';
import { fail, type Result, tidingsError } from '../common/errors.ts';
import { workerBeside } from '../common/worker-jobs.ts';
import { type OpmlDocument, parseOpml } from './opml.ts';
import { parseFeed } from './parse.ts';
import type { ParseOptions, ParseResult } from './parse-types.ts';
import type { ParseAnswer, ParseJob } from './parse-worker.ts';

export interface ParsePoolOptions {
  /** Documents at least this large are parsed off the main thread (default 256 KiB). */
  offThreadBytes?: number;
  /** The worker exits after this long without work (default 20 s). */
  idleMs?: number;
  /**
   * After a document at least this large (default 4 MiB) the worker is replaced: its heap grew to
   * read it, and a fresh one (about 100 ms to start) gives all of that back at once.
   */
  recycleBytes?: number;
  /** The worker's heap ceiling in MB (default 224): past it the parse fails, the app does not. */
  maxHeapMb?: number;
  /**
   * The worker's young generation in MB (default 8): short-lived parse garbage is collected
   * sooner instead of growing the resident set by tens of MB.
   */
  youngMb?: number;
  /** Added to the parser's own deadline before the worker is stopped outright (default 5 s). */
  graceMs?: number;
}

export interface ParsePool {
  parse(body: Uint8Array, options: ParseOptions): Promise<ParseResult>;
  /** An OPML list to import, read off the main thread when large (10 MB took 2 s inline). */
  parseOpml(text: string): Promise<Result<OpmlDocument>>;
  /** Parses done off the main thread so far (tests, diagnostics). */
  readonly offThread: number;
  close(): Promise<void>;
}

interface Pending {
  job: ParseJob;
  /** The document's size (the bytes themselves may have been handed to the worker). */
  bytes: number;
  /** The worker's answer, or the pool's own failure (stopped, crashed, too slow) as a ParseResult. */
  resolve: (r: ParseAnswer['result']) => void;
  timer: NodeJS.Timeout | null;
}

const failure = (code: string, message: string): ParseResult => ({ kind: 'error', error: { code, message } });

/** How long reading an OPML list may take off the main thread before it is stopped. */
const OPML_PARSE_MS = 30_000;

/** The job done here, when there is no worker to do it. */
const inline = (job: ParseJob): ParseAnswer['result'] =>
  job.kind === 'opml' ? parseOpml(job.text) : parseFeed(job.body, job.options);

/** The answer to parses cut short by close(): not the document's fault, so nothing to record. */
export const PARSE_STOPPED = 'feed.parseStopped';
const stopping = () => failure(PARSE_STOPPED, 'The app is stopping; the document was not read.');

export function createParsePool(opts: ParsePoolOptions = {}): ParsePool {
  const offThreadBytes = opts.offThreadBytes ?? 256 * 1024;
  const idleMs = opts.idleMs ?? 20_000;
  const recycleBytes = opts.recycleBytes ?? 4 * 1024 * 1024;
  const maxHeapMb = opts.maxHeapMb ?? 224;
  const graceMs = opts.graceMs ?? 5_000;
  const youngMb = opts.youngMb ?? 8;
  let file = workerBeside(import.meta.url, 'parse-worker');
  const queue: Pending[] = [];
  let current: Pending | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  let offThread = 0;
  let closed = false;

  /** The running worker; `ready` once it has loaded the parser and said so. */
  let worker: { thread: Worker; ready: boolean } | null = null;

  function start(): { thread: Worker; ready: boolean } {
    const thread = new Worker(file!, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: youngMb },
    });
    thread.unref(); // a parked worker never keeps the process alive
    const w = { thread, ready: false };
    // A worker we already let go of (idle, timed out) speaks for no job any more.
    thread.on('message', (answer: ParseAnswer | { ready: true }) => {
      if (worker !== w) return;
      if ('ready' in answer) {
        w.ready = true;
        if (current) send(current);
      } else if (current && answer.id === current.job.id) settle(answer.result);
    });
    thread.on('error', (err: NodeJS.ErrnoException) => {
      if (worker !== w) return;
      worker = null;
      if (!w.ready) {
        // The worker could not even load the parser (a packaging that cannot start it): parse
        // inline from now on, this document included (its bytes were not handed over yet).
        file = null;
        if (current) settle(inline(current.job));
        return;
      }
      settle(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? failure('feed.tooLarge', `The document needs more than ${maxHeapMb} MB to read; it was not read.`)
          : failure('feed.parseFailed', `The document could not be read: ${err.message}`),
      );
    });
    thread.on('exit', () => {
      if (worker !== w) return;
      worker = null;
      settle(failure('feed.parseFailed', 'The document could not be read (the parser stopped).'));
    });
    return w;
  }

  function stopWorker(): void {
    const w = worker;
    worker = null;
    void w?.thread.terminate();
  }

  function settle(result: ParseAnswer['result']): void {
    const done = current;
    if (!done) return;
    current = null;
    if (done.timer) clearTimeout(done.timer);
    if (done.bytes >= recycleBytes) stopWorker();
    done.resolve(result);
    pump();
  }

  function pump(): void {
    if (current || closed) return;
    const next = queue.shift();
    if (!next) {
      if (worker && !idleTimer) {
        idleTimer = setTimeout(() => {
          idleTimer = null;
          stopWorker(); // its heap goes back to the system
        }, idleMs);
        idleTimer.unref();
      }
      return;
    }
    if (idleTimer) {
      clearTimeout(idleTimer);
      idleTimer = null;
    }
    if (!file) {
      next.resolve(inline(next.job));
      pump();
      return;
    }
    current = next;
    worker ??= start();
    if (worker.ready) send(next);
  }

  function send(p: Pending): void {
    if (!worker) return;
    const limit = p.job.kind === 'opml' ? OPML_PARSE_MS : p.job.options.maxParseMs;
    if (typeof limit === 'number' && Number.isFinite(limit)) {
      p.timer = setTimeout(() => {
        stopWorker();
        settle(
          failure(
            'feed.parseTimeout',
            `Reading the document took longer than ${Math.round(limit / 1000)} s; it was stopped.`,
          ),
        );
      }, limit + graceMs);
      p.timer.unref();
    }
    offThread++;
    if (p.job.kind === 'opml') {
      worker.thread.postMessage(p.job);
      return;
    }
    const body = p.job.body;
    // Hand the bytes over instead of copying 20 MiB. Some buffers cannot be handed over (Node's
    // shared pool, views into larger buffers): those are copied by postMessage.
    const whole =
      body.buffer instanceof ArrayBuffer &&
      body.byteOffset === 0 &&
      body.byteLength === body.buffer.byteLength;
    try {
      worker.thread.postMessage(p.job, whole ? [body.buffer as ArrayBuffer] : []);
    } catch {
      worker.thread.postMessage(p.job);
    }
  }

  return {
    get offThread() {
      return offThread;
    },
    parse(body, options) {
      if (body.byteLength < offThreadBytes || (!file && !closed))
        return Promise.resolve(parseFeed(body, options));
      // Stopping: a big document is not read now (inline it would hold up the stop).
      if (closed) return Promise.resolve(stopping());
      return new Promise((resolve) => {
        const job: ParseJob = { id: nextId++, body, options };
        queue.push({ job, bytes: body.byteLength, resolve: (r) => resolve(r as ParseResult), timer: null });
        pump();
      });
    },
    parseOpml(text) {
      if (text.length < offThreadBytes || (!file && !closed)) return Promise.resolve(parseOpml(text));
      if (closed) return Promise.resolve(fail(tidingsError('app.stopping', 'The app is stopping.')));
      return new Promise((resolve) => {
        const job: ParseJob = { id: nextId++, kind: 'opml', text };
        const answered = (r: ParseAnswer['result']) =>
          resolve(
            'kind' in r
              ? fail(
                  tidingsError(
                    r.kind === 'error' ? r.error.code : 'opml.failed',
                    r.kind === 'error' ? r.error.message : 'The list could not be read.',
                  ),
                )
              : r,
          );
        queue.push({ job, bytes: text.length, resolve: answered, timer: null });
        pump();
      });
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      for (const p of queue.splice(0)) p.resolve(stopping());
      const w = worker;
      worker = null;
      if (current) settle(stopping());
      await w?.thread.terminate();
    },
  };
}
