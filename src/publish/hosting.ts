/**
 * Built-in hosting: the feeds, the home page, hosted media and RSS Ping payloads at stable paths
 * under /site on the receiver's server (the one port the tunnel reaches). Polite to readers, as
 * the RSS Feed State text asks: ETag, Last-Modified, 304s, gzip/br, Cache-Control. A private feed
 * asks for Basic or WSSE and answers 401 without it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { Handler } from '../net/serve.ts';
import { type AuthVerdict, challengeHeader, checkAuth, type Login, NonceMemory } from './auth-check.ts';
import type { PublishStore } from './publish-store.ts';

export const SITE_PREFIX = '/site';

export interface HostingDeps {
  store: PublishStore;
  mediaDir: string;
  now(): number;
  /** The login private feeds ask for (null: public). Read per request: settings change live. */
  login(): Login | null;
}

const MEDIA = /^\/media\/([A-Za-z0-9_-]{8,128}(?:\.[A-Za-z0-9]{1,10})?)$/;
const COMPRESSIBLE = /^(text\/|application\/(rss\+xml|atom\+xml|feed\+json|json|xml|xml-rpc))/;

export function createHostingHandler(deps: HostingDeps): Handler {
  const nonces = new NonceMemory();
  const compressed = new Map<string, Uint8Array>();

  return async (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const login = deps.login();
    if (login) {
      const verdict: AuthVerdict = checkAuth(req.headers, login, deps.now(), nonces);
      if (!verdict.ok) {
        return new Response(`${verdict.reason}\n`, {
          status: 401,
          headers: {
            'www-authenticate': challengeHeader(login),
            'content-type': 'text/plain; charset=utf-8',
            'cache-control': 'no-store',
          },
        });
      }
    }
    const path = new URL(req.url).pathname;
    const cacheControl = login ? 'private, no-cache' : 'public, max-age=60';

    let doc = deps.store.getDocument(path === '/' ? '/index.html' : path);
    if (!doc) {
      const media = MEDIA.exec(path);
      if (!media) return notFound();
      let body: Buffer;
      try {
        body = await readFile(join(deps.mediaDir, media[1]!));
      } catch {
        return notFound();
      }
      // Media files are named by their content hash: the name is the ETag, and they never change.
      doc = { path, body, contentType: mediaType(media[1]!), etag: `"${media[1]}"`, modifiedAt: 0 };
    }
    const headers = new Headers({
      'content-type': doc.contentType,
      etag: doc.etag,
      'cache-control': doc.modifiedAt === 0 && !login ? 'public, max-age=31536000, immutable' : cacheControl,
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
    });
    // The home page needs no script at all: say so, in case an escaping slip ever lets one in.
    if (doc.contentType.startsWith('text/html')) {
      headers.set(
        'content-security-policy',
        "default-src 'none'; img-src * data:; media-src *; style-src 'unsafe-inline'",
      );
    }
    // Hosted files are the user's, not ours to run: an SVG or HTML file gets no script here.
    if (doc.modifiedAt === 0)
      headers.set(
        'content-security-policy',
        "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
      );
    if (doc.modifiedAt > 0) headers.set('last-modified', new Date(doc.modifiedAt).toUTCString());
    if (notModified(req.headers, doc.etag, doc.modifiedAt))
      return new Response(null, { status: 304, headers });

    let body: Uint8Array = doc.body;
    const encoding = COMPRESSIBLE.test(doc.contentType)
      ? pickEncoding(req.headers.get('accept-encoding'))
      : null;
    if (encoding) {
      const key = `${encoding}:${doc.path}:${doc.etag}`;
      let packed = compressed.get(key);
      if (!packed) {
        packed =
          encoding === 'br'
            ? brotliCompressSync(doc.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
            : gzipSync(doc.body);
        if (compressed.size > 64) compressed.clear();
        compressed.set(key, packed);
      }
      body = packed;
      headers.set('content-encoding', encoding);
    }
    headers.set('content-length', String(body.byteLength));
    return new Response(req.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), {
      status: 200,
      headers,
    });
  };
}

function notModified(h: Headers, etag: string, modifiedAt: number): boolean {
  const inm = h.get('if-none-match');
  if (inm !== null)
    return inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*');
  const ims = Date.parse(h.get('if-modified-since') ?? '');
  return modifiedAt > 0 && Number.isFinite(ims) && Math.floor(modifiedAt / 1000) * 1000 <= ims;
}

/** br before gzip when both are accepted; q=0 refuses. */
export function pickEncoding(accept: string | null): 'br' | 'gzip' | null {
  if (!accept) return null;
  const ok = new Set<string>();
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) ok.add(name.trim());
  }
  if (ok.has('br')) return 'br';
  if (ok.has('gzip') || ok.has('*')) return 'gzip';
  return null;
}

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
};

export function mediaType(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}
