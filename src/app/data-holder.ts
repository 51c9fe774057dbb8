/**
 * Which running app holds a data folder: a started app (the desktop app, `tidings serve`) writes
 * its process id into `app.pid` there and removes it when it stops. Commands that must not change
 * the folder under a running app (`tidings restore`) ask `dataDirHolder` first, and `tidings post`
 * asks it to say whether what it leaves to the app (hosting, the own cloud's pings) happens now or
 * waits for the app to start. A file left by a killed app names a process that is gone, and is
 * ignored.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../common/process.ts';

export const HOLDER_FILE = 'app.pid';

export interface Holder {
  pid: number;
  /** ISO time it started. */
  since: string;
  /** Where the holder's file is, for the message when it is stale after all (a reused pid). */
  file: string;
}

/** Marks the folder as held by this process; the function returned lets it go (if still ours). */
export function holdDataDir(dataDir: string, now: number = Date.now()): () => void {
  const file = join(dataDir, HOLDER_FILE);
  try {
    writeFileSync(file, `${JSON.stringify({ pid: process.pid, since: new Date(now).toISOString() })}\n`);
  } catch {
    // A folder we cannot write to: the app fails on its databases anyway; nothing to hold.
    return () => {};
  }
  return () => {
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/** The other live process holding the folder, or null. */
export function dataDirHolder(dataDir: string, self: number = process.pid): Holder | null {
  const holder = readHolder(join(dataDir, HOLDER_FILE));
  return holder && holder.pid !== self && pidAlive(holder.pid) ? holder : null;
}

function readHolder(file: string): Holder | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; since?: unknown };
    return Number.isInteger(v.pid) && (v.pid as number) > 0
      ? { pid: v.pid as number, since: typeof v.since === 'string' ? v.since : '', file }
      : null;
  } catch {
    return null;
  }
}
