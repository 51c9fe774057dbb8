/**
 * The app's stop sequence, the one Electron main runs on quit, on signals and on OS logout, and
 * the one the stop tests run in a plain Node child (main/app-stop.test.ts): first the shell lets
 * go of the window and tray, then the core stops (real-time off, no new fetches, running fetches
 * finish and commit, databases checkpoint and close), then the process exits.
 */
import { createShutdown, type Shutdown } from './shutdown.ts';

/** Long enough for fetches in flight to finish; short enough that logout is not held up. */
export const STOP_DEADLINE_MS = 15_000;

export interface AppStopOptions {
  core: { stop(): Promise<void> };
  /** The shell's own part, done first (close the window, remove the tray). Must not throw. */
  beforeCore?(): void;
  exit(code: number): void;
  deadlineMs?: number;
  log?(line: string): void;
}

export function createAppStop(opts: AppStopOptions): Shutdown {
  return createShutdown({
    deadlineMs: opts.deadlineMs ?? STOP_DEADLINE_MS,
    exit: opts.exit,
    ...(opts.log ? { log: opts.log } : {}),
    async stop() {
      try {
        opts.beforeCore?.();
      } catch {
        // The shell's windows are decoration at this point: the data must still be closed.
      }
      await opts.core.stop();
    },
  });
}
