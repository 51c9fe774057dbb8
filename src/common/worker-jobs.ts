/**
 * Synchronous work on a worker thread, so the app's event loop keeps answering meanwhile: SQLite
 * in node:sqlite is synchronous, and a VACUUM of a large database holds its thread for seconds.
 * A worker file registers its jobs by name (serveJobs); startJobWorker starts that file on a
 * thread of its own and runs jobs there by name, one message each way, until it is closed.
 *
 * Where a worker's code lives: beside the module that starts it, as NAME.ts in the sources (run by
 * Node's type stripping) or NAME.js in a bundle that builds it as an entry of its own (see
 * electron.vite.config.ts). Without either, or when the worker cannot even load, the jobs run
 * inline: the app answers more slowly meanwhile, the work is the same.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

/** Jobs by name; each takes one argument and returns a value, both structured-cloneable. */
// biome-ignore lint/suspicious/noExplicitAny: each job names its own argument type
export type Jobs = Record<string, (arg: any) => unknown>;

export interface JobWorker<J extends Jobs> {
  /** Runs one job off the main thread; rejects with the job's error (message and code kept). */
  run<K extends keyof J & string>(name: K, arg: Parameters<J[K]>[0]): Promise<Awaited<ReturnType<J[K]>>>;
  /** Stops the thread (jobs still running are refused). */
  close(): Promise<void>;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThrownError };

/** What crosses the thread of a thrown error: the message and the codes that say what it was. */
interface ThrownError {
  message: string;
  code?: unknown;
  errcode?: unknown;
  errstr?: unknown;
}

/**
 * NAME.js (the app's build), NAME.mjs (the cloud's package) or NAME.ts (the source tree) beside
 * the module whose import.meta.url is `base`; null when none.
 */
export function workerBeside(base: string, name: string): URL | null {
  for (const file of [`${name}.js`, `${name}.mjs`, `${name}.ts`]) {
    const url = new URL(`./${file}`, base);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

/** In the worker file: answers the jobs the starting thread asks for, then says it is ready. */
export function serveJobs(jobs: Jobs): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', async ({ id, name, arg }: { id: number; name: string; arg: unknown }) => {
    let answer: Answer;
    try {
      const job = jobs[name];
      if (!job) throw new Error(`no job named ${name}`);
      answer = { id, ok: true, value: await job(arg) };
    } catch (e) {
      answer = { id, ok: false, error: thrownError(e) };
    }
    port.postMessage(answer);
  });
  port.postMessage({ ready: true });
}

function thrownError(e: unknown): ThrownError {
  if (!(e instanceof Error)) return { message: String(e) };
  const { code, errcode, errstr } = e as Error & Record<string, unknown>;
  return { message: e.message, code, errcode, errstr };
}

const rebuilt = (t: ThrownError): Error => Object.assign(new Error(t.message), t);

export function startJobWorker<J extends Jobs>(file: URL | null, jobs: J): JobWorker<J> {
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  /** Jobs asked for before the worker said it is ready (sent then, or run inline if it never is). */
  const queued: { id: number; name: string; arg: unknown }[] = [];
  let nextId = 1;
  let ready = false;
  let inline = file === null;
  let closed = false;
  const thread = file ? new Worker(file) : null;

  const runInline = async (name: string, arg: unknown) => {
    const job = jobs[name];
    if (!job) throw new Error(`no job named ${name}`);
    return job(arg);
  };
  const settleAll = (why: Error) => {
    for (const w of waiting.values()) w.reject(why);
    waiting.clear();
  };
  /** The worker could not load its code: what it was asked runs here instead. */
  const fallBackInline = () => {
    inline = true;
    for (const { id, name, arg } of queued.splice(0)) {
      const w = waiting.get(id);
      waiting.delete(id);
      runInline(name, arg).then(w?.resolve, w?.reject);
    }
  };

  thread?.on('message', (m: Answer | { ready: true }) => {
    if ('ready' in m) {
      ready = true;
      for (const job of queued.splice(0)) thread.postMessage(job);
      return;
    }
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.value);
    else w?.reject(rebuilt(m.error));
  });
  thread?.on('error', (e) => {
    if (!ready) fallBackInline();
    else settleAll(e);
  });
  thread?.on('exit', () => {
    if (!ready && !closed) fallBackInline();
    settleAll(new Error('the worker thread stopped before it answered'));
  });

  return {
    run(name, arg) {
      if (closed) return Promise.reject(new Error('the worker is closed'));
      if (inline || !thread) return runInline(name, arg) as never;
      return new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        const job = { id, name, arg };
        if (ready) thread.postMessage(job);
        else queued.push(job);
      });
    },
    async close() {
      closed = true;
      settleAll(new Error('the worker is closed'));
      await thread?.terminate();
    },
  };
}
