/**
 * One clean stop, however many times it is asked for: the first request (quit, SIGINT, SIGTERM,
 * SIGHUP, OS logout or shutdown) starts it; later ones wait for the same stop (a second Ctrl-C
 * must not kill the process while databases close); a hard deadline ends the process if the stop
 * hangs (SQLite's WAL keeps committed data safe even then).
 *
 * Generic on purpose: the desktop shell (main/app-stop.ts) and `tidings serve` (src/cli/cli-serve.ts)
 * both stop through it.
 */

export type ShutdownState = 'running' | 'stopping' | 'stopped';

export interface ShutdownOptions {
  /** The clean stop itself. */
  stop(reason: string): Promise<void>;
  /** Ends the process: 0 after a clean stop, 1 after a failed one or the deadline. */
  exit(code: number): void;
  /** The longest a stop may take before exit(1). */
  deadlineMs: number;
  log?(line: string): void;
  /** A timer that keeps the process alive (unlike an unref'd one): the deadline must fire. */
  setTimer?(ms: number, fn: () => void): { cancel(): void };
}

export interface Shutdown {
  /** Starts the stop (first call) or waits for the one under way. */
  request(reason: string): Promise<void>;
  readonly state: ShutdownState;
}

const refTimer = (ms: number, fn: () => void) => {
  const t = setTimeout(fn, ms);
  return { cancel: () => clearTimeout(t) };
};

export function createShutdown(opts: ShutdownOptions): Shutdown {
  const log = opts.log ?? (() => {});
  const setTimer = opts.setTimer ?? refTimer;
  let state: ShutdownState = 'running';
  let done: Promise<void> | null = null;
  let exited = false;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    opts.exit(code);
  };

  return {
    get state() {
      return state;
    },
    request(reason) {
      if (done) {
        if (state === 'stopping') {
          log(
            `Already stopping (${reason} ignored); waiting for it, ${Math.round(opts.deadlineMs / 1000)} s at most.`,
          );
        }
        return done;
      }
      state = 'stopping';
      log(`Stopping (${reason})…`);
      const deadline = setTimer(opts.deadlineMs, () => {
        log(`The stop took longer than ${Math.round(opts.deadlineMs / 1000)} s; exiting without waiting.`);
        exit(1);
      });
      done = (async () => {
        let code = 0;
        try {
          await opts.stop(reason);
        } catch (err) {
          code = 1;
          log(`The stop failed: ${err instanceof Error ? err.message : String(err)}`);
        }
        deadline.cancel();
        state = 'stopped';
        exit(code);
      })();
      return done;
    },
  };
}

/** What signal handling needs of `process` (a fake in tests). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/**
 * Routes each signal to the shutdown. The handlers stay installed after the first signal, so a
 * second one is answered by "already stopping" instead of Node's default (dying at once).
 */
export function installSignalHandlers(
  target: SignalSource,
  shutdown: Shutdown,
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'],
): () => void {
  const handlers = signals.map((signal) => {
    const handler = () => void shutdown.request(signal);
    target.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) target.off(signal, handler);
  };
}
