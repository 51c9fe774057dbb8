/** Where things live on disk: the package root, the built renderer, the user's data folder. */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './usage-error.ts';

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built window; $TIDINGS_RENDERER_DIR points elsewhere (tests of the CLI use a stand-in page). */
export const RENDERER_DIR = process.env.TIDINGS_RENDERER_DIR
  ? resolve(process.env.TIDINGS_RENDERER_DIR)
  : join(PACKAGE_ROOT, 'out', 'renderer');

export function rendererBuilt(dir = RENDERER_DIR): boolean {
  return existsSync(join(dir, 'index.html'));
}

/** --data wins, then $TIDINGS_DATA, then the platform's usual place. */
export function defaultDataDir(): string {
  if (process.env.TIDINGS_DATA) return resolve(process.env.TIDINGS_DATA);
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Tidings');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? homedir(), 'Tidings');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'tidings');
}

/**
 * The data folder a command names (--data, else the default), checked before anything opens it:
 * a file there is a wrong command line (exit 2), not an EEXIST from deep inside mkdir.
 */
export function dataDirOption(given: string | undefined): string {
  const dir = resolve(given ?? defaultDataDir());
  let isFolder: boolean | null = null;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch {
    // Absent: writing commands create it; read-only ones say there is nothing there.
  }
  if (isFolder === false) throw new UsageError(`--data ${given ?? dir} is a file, not a folder`);
  return dir;
}

/** Whether the data folder holds this database yet (read-only commands never create it). */
export function hasData(dataDir: string, file: 'publish.db' | 'tidings.db'): boolean {
  return existsSync(join(dataDir, file));
}
