/**
 * Serving a feed saved through rssCloud.saveRss, politely: ETag and Last-Modified with 304s for
 * conditional requests, gzip when asked, HEAD. The gzip of the current version is kept in memory
 * per feed, so a crowd of readers arriving after a notification costs one compression.
 */
import { gzipSync } from 'node:zlib';
import type { SavedFeedRow } from '../store/store.ts';

const gzipCache = new Map<string, Buffer>();

export function serveSavedFeed(req: Request, row: SavedFeedRow): Response {
  const etag = `"${row.hash.slice(0, 32)}"`;
  const lastModified = new Date(Math.floor(row.whenSaved / 1000) * 1000).toUTCString();
  const headers: Record<string, string> = {
    'content-type': row.contentType,
    etag,
    'last-modified': lastModified,
    'cache-control': 'public, max-age=60',
    vary: 'accept-encoding',
  };
  if (notModified(req, etag, row.whenSaved)) return new Response(null, { status: 304, headers });

  let body: Uint8Array = Buffer.from(row.body, 'utf8');
  if (acceptsGzip(req.headers.get('accept-encoding'))) {
    const key = `${row.name}\n${row.hash}`;
    let gz = gzipCache.get(key);
    if (!gz) {
      gz = gzipSync(body);
      for (const k of gzipCache.keys()) if (k.startsWith(`${row.name}\n`)) gzipCache.delete(k);
      gzipCache.set(key, gz);
    }
    body = gz;
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(body.byteLength);
  return new Response(req.method === 'HEAD' ? null : body, { status: 200, headers });
}

function notModified(req: Request, etag: string, whenSaved: number): boolean {
  const inm = req.headers.get('if-none-match');
  if (inm !== null) {
    // If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2); weak comparison.
    return inm
      .split(',')
      .map((t) => t.trim().replace(/^W\//, ''))
      .some((t) => t === '*' || t === etag);
  }
  const ims = req.headers.get('if-modified-since');
  if (ims === null) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(whenSaved / 1000) * 1000 <= since;
}

function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== 'x-gzip' && coding.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
