/**
 * An enclosure from the composer: a URL whose type and length a HEAD request finds (a ranged GET
 * where HEAD is refused or says nothing), or a local file copied into the data folder under its
 * content hash (the same file twice is stored once) and hosted at /site/media/<hash>.<ext>.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { PostInput } from '../app/api.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { mediaType } from './hosting.ts';
import { httpUrl, type StoredEnclosure } from './post.ts';

export const MAX_MEDIA_BYTES = 200 * 1024 * 1024;

export async function resolveEnclosure(
  input: PostInput['enclosure'],
  deps: { http: HttpClient; mediaDir: string; ownMediaBases?: readonly string[] },
): Promise<Result<StoredEnclosure | null>> {
  if (!input) return ok(null);
  if (input.url && input.url.trim() !== '') {
    const url = input.url.trim();
    // One of our own hosted files (an edit sends back the URL it was shown): it stays a hosted
    // file, so its address follows the public address instead of freezing today's.
    const base = deps.ownMediaBases?.find((b) => url.startsWith(b));
    const name = base ? decodeURIComponent(url.slice(base.length)) : null;
    if (name && /^[A-Za-z0-9_-]{8,128}(\.[A-Za-z0-9]{1,10})?$/.test(name)) {
      const info = await stat(join(deps.mediaDir, name)).catch(() => null);
      if (info?.isFile()) {
        return ok({ url: null, file: name, type: mediaType(name).replace(/;.*$/, ''), length: info.size });
      }
    }
    return lookUpUrl(url, deps.http);
  }
  if (input.filePath) {
    let bytes: Buffer;
    try {
      const info = await stat(input.filePath);
      if (!info.isFile()) return fail(tidingsError('enclosure.notFile', `${input.filePath} is not a file.`));
      if (info.size > MAX_MEDIA_BYTES) return fail(tooBig(info.size));
      bytes = await readFile(input.filePath);
    } catch (e) {
      return fail(
        tidingsError('enclosure.unreadable', `Could not read ${input.filePath}: ${fsErrorReason(e)}.`),
      );
    }
    return ok(await keep(bytes, input.fileName ?? basename(input.filePath), deps.mediaDir));
  }
  if (input.dataBase64) {
    const bytes = Buffer.from(input.dataBase64, 'base64');
    if (bytes.length === 0) return fail(tidingsError('enclosure.empty', 'The attached file is empty.'));
    if (bytes.length > MAX_MEDIA_BYTES) return fail(tooBig(bytes.length));
    return ok(await keep(bytes, input.fileName ?? 'file', deps.mediaDir));
  }
  return ok(null);
}

const tooBig = (n: number) =>
  tidingsError(
    'enclosure.tooLarge',
    `The file is ${Math.round(n / 1e6)} MB; Tidings hosts files up to ${MAX_MEDIA_BYTES / 1e6} MB.`,
  );

async function keep(bytes: Buffer, fileName: string, mediaDir: string): Promise<StoredEnclosure> {
  const ext = extname(fileName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 11);
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}${ext}`;
  await mkdir(mediaDir, { recursive: true });
  const path = join(mediaDir, name);
  const exists = await stat(path).then(
    (s) => s.size === bytes.length,
    () => false,
  );
  if (!exists) {
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }
  return { url: null, file: name, type: mediaType(name).replace(/;.*$/, ''), length: bytes.length };
}

async function lookUpUrl(text: string, http: HttpClient): Promise<Result<StoredEnclosure>> {
  const url = httpUrl(text);
  if (!url)
    return fail(
      tidingsError(
        'enclosure.badUrl',
        `The enclosure must be an http(s) address, not "${text.slice(0, 60)}".`,
      ),
    );
  const head = await http.request({ method: 'HEAD', url, maxRedirects: 5, timeoutMs: 10_000 });
  let type: string | null = null;
  let length: number | null = null;
  if (head.ok && head.value.status < 400) {
    type = head.value.headers['content-type'] ?? null;
    const n = Number(head.value.headers['content-length']);
    length = Number.isFinite(n) && n > 0 ? n : null;
  }
  if (type === null || length === null) {
    // Some hosts refuse HEAD or leave out the length: one byte of a ranged GET tells both.
    const get = await http.request({
      method: 'GET',
      url,
      maxRedirects: 5,
      timeoutMs: 10_000,
      headers: { range: 'bytes=0-0' },
      maxBodyBytes: 64 * 1024,
    });
    if (get.ok && get.value.status < 400) {
      type ??= get.value.headers['content-type'] ?? null;
      const total = /\/(\d+)\s*$/.exec(get.value.headers['content-range'] ?? '')?.[1];
      if (total) length = Number(total);
      else if (get.value.status === 200) {
        const n = Number(get.value.headers['content-length']);
        if (Number.isFinite(n) && n > 0) length = n;
      }
    } else if (!head.ok && !get.ok) {
      return fail(
        tidingsError('enclosure.unreachable', `Could not reach the enclosure: ${get.error.message}`),
      );
    } else if (!get.ok || get.value.status >= 400) {
      const status = get.ok ? get.value.status : head.ok ? head.value.status : 0;
      return fail(tidingsError('enclosure.unreachable', `The enclosure's address answered HTTP ${status}.`));
    }
  }
  return ok({
    url,
    file: null,
    type: (type ?? mediaType(new URL(url).pathname)).split(';')[0]!.trim() || 'application/octet-stream',
    length: length ?? 0,
  });
}
