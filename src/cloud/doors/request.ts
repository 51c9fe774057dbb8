/**
 * Small pieces of reading a request that every door of the cloud shares: where the cloud is
 * mounted, the form fields (body first, then the query), and the body within a size cap.
 */

/** The mount path with one leading slash and none trailing ('' for the root). */
export function normaliseBase(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The path below the mount point, or null when the request is not for the cloud. */
export function relativePath(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  const lower = pathname.toLowerCase();
  const b = base.toLowerCase();
  if (lower === b) return '/';
  return lower.startsWith(`${b}/`) ? pathname.slice(base.length) : null;
}

/** REST fields from the body, with query parameters filling in what the body lacks (some clients use either). */
export function formOf(req: Request, body: Buffer): URLSearchParams {
  const form = new URLSearchParams(body.toString('utf8'));
  for (const [k, v] of new URL(req.url).searchParams) if (!form.has(k)) form.append(k, v);
  return form;
}

/** The body, or null when it is larger than `max` bytes. */
export async function readBody(req: Request, max: number): Promise<Buffer | null> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) return null;
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
