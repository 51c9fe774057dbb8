/**
 * Reading an .opml file the system handed us (double-click, "Open with", argv): a person's file,
 * so every failure is a sentence, and the text goes to the window for confirmation, not to the
 * core directly.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';

/** Far beyond any real subscription list (10,000 feeds is about 2 MB). */
export const MAX_OPML_BYTES = 10 * 1024 * 1024;

export type OpmlFileResult = { ok: true; fileName: string; text: string } | { ok: false; message: string };

export async function readOpmlFile(path: string): Promise<OpmlFileResult> {
  const fileName = basename(path);
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, message: `${fileName} is not a file.` };
    if (info.size > MAX_OPML_BYTES) {
      return { ok: false, message: `${fileName} is too large for a subscription list (over 10 MB).` };
    }
    const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    if (!/<opml[\s>]/i.test(text.slice(0, 4096))) {
      return { ok: false, message: `${fileName} is not an OPML subscription list.` };
    }
    return { ok: true, fileName, text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : (err as Error).message;
    return { ok: false, message: `Could not open ${fileName}: ${why}.` };
  }
}
