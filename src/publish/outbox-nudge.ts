/**
 * How a `tidings post` tells the app running on the same data folder that the outbox has new
 * work: it touches a file beside publish.db, which the running app watches (inotify, FSEvents: a
 * few milliseconds), so the post is published at once instead of at the runner's next look (every
 * 5 s). The database stays the only truth: with no app running the touch is harmless and the work
 * waits in publish.db; a watch that cannot be set up (an odd file system) leaves the 5-second look.
 * A file of its own, not the folder: the databases' WAL writes there would wake the watcher
 * all day.
 */
import { closeSync, type FSWatcher, openSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NUDGE_FILE = 'outbox.nudge';

/** Says "look at the outbox now" to whichever app watches this data folder. Never throws. */
export function nudgeOutbox(dataDir: string): void {
  try {
    // Written in place (same inode): a watcher on the file sees a change, not a vanished file.
    writeFileSync(join(dataDir, NUDGE_FILE), `${process.pid} ${Date.now()}\n`);
  } catch {
    // No folder yet or not writable: the app's periodic look still finds the work.
  }
}

/** Calls onNudge whenever another process nudges this data folder; returns the stop function. */
export function watchNudges(dataDir: string, onNudge: () => void): () => void {
  let watcher: FSWatcher | null = null;
  try {
    closeSync(openSync(join(dataDir, NUDGE_FILE), 'a')); // the file must exist to be watched
    watcher = watch(join(dataDir, NUDGE_FILE), { persistent: false }, () => onNudge());
    watcher.on('error', () => watcher?.close());
  } catch {
    return () => {};
  }
  return () => watcher?.close();
}
