/** Serves the built renderer (out/renderer) for browser mode: index.html and hashed assets. */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * The renderer's Content-Security-Policy as a header: the same as renderer/index.html's meta tag,
 * plus frame-ancestors, which only a header can set.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: http: data:",
    'media-src https: http:',
    "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function serveStatic(rootDir: string, pathname: string): Promise<Response | null> {
  const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  const full = normalize(join(rootDir, relative));
  if (!full.startsWith(normalize(rootDir) + sep)) return null;
  let body: Buffer;
  try {
    body = await readFile(full);
  } catch {
    return null;
  }
  const type = TYPES[extname(full)] ?? 'application/octet-stream';
  const headers: Record<string, string> = {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (type.startsWith('text/html')) {
    headers['content-security-policy'] = contentSecurityPolicy();
    headers['x-frame-options'] = 'DENY';
    headers['referrer-policy'] = 'no-referrer';
  }
  return new Response(new Uint8Array(body), { status: 200, headers });
}
