/** Where things live on disk: the package root, the built renderer, the user's data folder. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
