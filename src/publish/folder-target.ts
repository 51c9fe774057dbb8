/**
 * Save target: a folder on disk (a static site, a synced folder). Each file is written to a
 * temporary name in the same folder and renamed over the old one, so a reader (or a sync client)
 * never sees half a feed. A folder that is read-only, full or missing is a readable error; the
 * outbox retries it.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SiteDocument } from './documents.ts';

export type SaveOutcome = { ok: true; message: string } | { ok: false; message: string };

export async function writeAtomically(path: string, body: Uint8Array): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, body, { flush: true });
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

export async function saveToFolder(
  folder: string,
  docs: readonly SiteDocument[],
  media: { dir: string; files: string[] },
): Promise<SaveOutcome> {
  try {
    const info = await stat(folder).catch(() => null);
    if (!info) return { ok: false, message: `The folder ${folder} does not exist.` };
    if (!info.isDirectory()) return { ok: false, message: `${folder} is not a folder.` };
    if (media.files.length > 0) {
      await mkdir(join(folder, 'media'), { recursive: true });
      for (const f of media.files) {
        const to = join(folder, 'media', f);
        // Hosted files are named by content hash: one already there is the same file.
        if (
          await stat(to).then(
            () => true,
            () => false,
          )
        )
          continue;
        const tmp = `${to}.${randomBytes(6).toString('hex')}.tmp`;
        await copyFile(join(media.dir, f), tmp);
        await rename(tmp, to);
      }
    }
    // The feeds last, so a reader who sees the new feed finds its media already there.
    for (const d of [...docs].sort((a, b) =>
      a.path === '/feed.xml' ? 1 : b.path === '/feed.xml' ? -1 : 0,
    )) {
      await writeAtomically(join(folder, d.path.slice(1)), d.body);
    }
    return { ok: true, message: `Written to ${folder}.` };
  } catch (e) {
    return { ok: false, message: fsMessage(folder, e) };
  }
}

export function fsMessage(folder: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `Tidings may not write in ${folder} (permission denied).`;
    case 'EROFS':
      return `The folder ${folder} is on a read-only disk.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `The disk holding ${folder} is full.`;
    case 'ENOENT':
      return `The folder ${folder} does not exist.`;
    default:
      return `Could not write in ${folder}: ${(e as Error)?.message ?? String(e)}`;
  }
}
