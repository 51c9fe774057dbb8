/**
 * The one moment a restore changes the data folder: what is there is moved aside into
 * replaced/<time>/ (kept, never deleted), and the restored files, prepared in a staging folder on
 * the same disk, are moved in. Every step is a rename; if one fails, the steps already taken are
 * undone in reverse, so the folder ends as it was or as restored, never between.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import { replacedEntries } from './layout.ts';

export const REPLACED_DIR = 'replaced';

/** replaced/2026-11-30T09-41-07Z (a second restore in the same second gets -2). */
export function replacedCopyPath(dataDir: string, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  let path = join(dataDir, REPLACED_DIR, stamp);
  for (let n = 2; existsSync(path); n++) path = join(dataDir, REPLACED_DIR, `${stamp}-${n}`);
  return path;
}

/** What a restore would move aside from this folder (nothing: no copy is made). */
export function entriesToReplace(dataDir: string): string[] {
  return replacedEntries().filter((e) => existsSync(join(dataDir, e)));
}

export async function swapIn(
  dataDir: string,
  staging: string,
  now: number,
): Promise<Result<{ replacedCopy: string | null }>> {
  const current = entriesToReplace(dataDir);
  const replacedCopy = current.length > 0 ? replacedCopyPath(dataDir, now) : null;
  const done: [from: string, to: string][] = [];
  const move = async (from: string, to: string) => {
    await rename(from, to);
    done.push([from, to]);
  };
  try {
    if (replacedCopy) await mkdir(replacedCopy, { recursive: true });
    for (const entry of current) await move(join(dataDir, entry), join(replacedCopy!, entry));
    for (const entry of await readdir(staging)) await move(join(staging, entry), join(dataDir, entry));
  } catch (e) {
    for (const [from, to] of done.reverse()) await rename(to, from).catch(() => {});
    if (replacedCopy) await rmdir(replacedCopy).catch(() => {});
    return fail(
      tidingsError(
        'backup.swapFailed',
        `The restored data could not be put in place (${fsErrorReason(e)}); your data is as it was.`,
        undefined,
        e,
      ),
    );
  }
  await rm(staging, { recursive: true, force: true });
  return ok({ replacedCopy });
}
