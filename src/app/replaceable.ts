/**
 * The app as transports and shells hold it: one object for the whole run, behind which the app on
 * the data folder can be closed and opened again (a restore replaces the folder's data under a
 * running app: src/app/backup-api.ts). Every API command goes to the app open now; while the data
 * is being replaced, commands wait and then go to the new one. Events go through one emitter that
 * outlives each app, so a window's or main's subscriptions keep working across a restore.
 */
import { type Clock, systemClock } from '../common/clock.ts';
import { describeError, fail, type Result, tidingsError } from '../common/errors.ts';
import { API_METHODS, type ApiMethod, BACKUP_METHODS, type TidingsApi, type TidingsEvents } from './api.ts';
import { type BackupApi, backupApi } from './backup-api.ts';
import { holdDataDir } from './data-holder.ts';
import { Emitter } from './emitter.ts';
import type { Tidings, TidingsOptions } from './tidings.ts';

/** The app on the folder's data: everything but the backup commands, which live above it. */
export type AppOnFolder = Omit<Tidings, keyof BackupApi>;
export type OpenApp = (options: TidingsOptions, events: Emitter<TidingsEvents>) => AppOnFolder;

const FORWARDED = API_METHODS.filter(
  (m): m is Exclude<ApiMethod, keyof BackupApi> => !(BACKUP_METHODS as readonly string[]).includes(m),
);

/** Commands still running when the data is replaced are waited for this long, at most. */
const SETTLE_MS = 10_000;

export function replaceable(options: TidingsOptions, open: OpenApp): Tidings {
  const events = new Emitter<TidingsEvents>();
  const clock: Clock = options.clock ?? systemClock;
  let current = open(options, events);
  let started = false;
  let release: (() => void) | null = null;
  /** Set while the data is being replaced: commands wait for it. */
  let replacing: Promise<void> | null = null;
  const running = new Set<Promise<unknown>>();

  const forward =
    (method: Exclude<ApiMethod, keyof BackupApi>) =>
    async (...args: unknown[]): Promise<unknown> => {
      while (replacing) await replacing;
      const call = (current[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      running.add(call);
      try {
        return await call;
      } finally {
        running.delete(call);
      }
    };

  async function replaceData<T>(swap: () => Promise<Result<T>>): Promise<Result<T>> {
    while (replacing) await replacing;
    let done = () => {};
    replacing = new Promise((resolve) => {
      done = resolve;
    });
    try {
      await settle([...running], SETTLE_MS);
      await current.stop();
      let result: Result<T>;
      try {
        result = await swap();
      } catch (e) {
        result = fail(tidingsError('backup.swapFailed', describeError(e), undefined, e));
      }
      // The restored data, or the data as it was when the swap failed.
      try {
        current = open(options, events);
      } catch (e) {
        const message = `Tidings could not open its data again (${describeError(e)}): quit it and start it again.`;
        events.emit('notice', { level: 'error', message });
        return fail(tidingsError('backup.reopenFailed', message, undefined, e));
      }
      for (const base of servedAt.keys()) servedAt.set(base, current.sync.servedAt(base));
      if (started) current.start();
      return result;
    } finally {
      replacing = null;
      done();
    }
  }

  const backups = backupApi({
    dataDir: options.dataDir,
    clock,
    replaceData,
    restored: (report) => events.emit('data.restored', report),
  });
  const { start: startBackups, close: closeBackups, ...backupCommands } = backups;
  const forwarded = Object.fromEntries(FORWARDED.map((m) => [m, forward(m)])) as unknown as Omit<
    TidingsApi,
    keyof BackupApi
  >;

  // Where browser mode serves the sync doors (servedAt), told again to each app opened after a
  // restore; `sync.doors` is looked up per request, so it is always the open app's.
  const servedAt = new Map<string, () => void>();
  const sync: Tidings['sync'] = {
    get doors() {
      return current.sync.doors;
    },
    servedAt(base) {
      servedAt.set(base, current.sync.servedAt(base));
      return () => {
        servedAt.get(base)?.();
        servedAt.delete(base);
      };
    },
  };

  return {
    ...forwarded,
    ...backupCommands,
    sync,
    start() {
      started = true;
      release = holdDataDir(options.dataDir, clock.now());
      startBackups();
      current.start();
    },
    async stop(opts) {
      while (replacing) await replacing;
      await closeBackups();
      await current.stop(opts);
      release?.();
      release = null;
    },
    realtimeStarted: () => current.realtimeStarted(),
    on: (event, listener) => events.on(event, listener),
    onAny: (listener) => events.onAny(listener),
    get context() {
      return current.context;
    },
  };
}

/** Waits until these promises settle, or `ms` passed (a command that hangs does not hold a restore). */
async function settle(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
