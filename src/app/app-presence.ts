/**
 * Which app runs on a data folder: the running app (tidings serve, the desktop app) leaves a
 * small file there while it runs, so a `tidings post` on the same folder can tell the person
 * whether what it leaves to the app (built-in hosting, the own cloud's pings) happens now or
 * waits for the app to start. The file is a hint, not a lock: a process that died (kill -9)
 * leaves it behind, and the pid check sees through that.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../publish/outbox-runner.ts';

export const PRESENCE_FILE = 'app.running';

interface Presence {
  pid: number;
  startedAt: string;
}

/** Says "an app runs here" until the returned function is called. Never throws. */
export function markRunning(dataDir: string, now: number): () => void {
  const file = join(dataDir, PRESENCE_FILE);
  const mine: Presence = { pid: process.pid, startedAt: new Date(now).toISOString() };
  try {
    writeFileSync(file, `${JSON.stringify(mine)}\n`);
  } catch {
    return () => {}; // a read-only folder: `tidings post` then says it may have to wait
  }
  return () => {
    // Only our own mark goes: another app may have started on the folder since.
    if (runningApp(dataDir)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/** The app running on this data folder now, or null when none does. */
export function runningApp(dataDir: string): Presence | null {
  let presence: Presence;
  try {
    presence = JSON.parse(readFileSync(join(dataDir, PRESENCE_FILE), 'utf8')) as Presence;
  } catch {
    return null;
  }
  return Number.isInteger(presence?.pid) && presence.pid > 0 && pidAlive(presence.pid) ? presence : null;
}
