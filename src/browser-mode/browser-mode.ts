/**
 * Browser mode: the core's API and the built renderer on one loopback port. Every API call and
 * the event WebSocket need the token; the Host header must name this machine (DNS rebinding);
 * and a request that carries an Origin must come from the app's own page (issue 9): another
 * site's page never gets to call the API, even with a token it somehow learnt.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Tidings } from '../app/tidings.ts';
import { serve } from '../net/serve.ts';
import { refuseSocket } from '../net/serve-limits.ts';
import { syncBodyCapFor } from '../sync/doors.ts';
import { API_BODY_BYTES, apiBodyCapFor, apiError, handleApiCall, tokenMatches } from './api-http.ts';
import { serveStatic } from './static-files.ts';

export interface BrowserModeOptions {
  app: Tidings;
  /** Built renderer folder (out/renderer). */
  rendererDir: string;
  port?: number;
  host?: string;
  /** Fixed token; default: kept in dataDir/browser-token so a bookmark survives restarts. */
  token?: string;
  dataDir: string;
}

export interface BrowserModeServer {
  url: string;
  /** The URL to open: carries the token. */
  openUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startBrowserMode(opts: BrowserModeOptions): Promise<BrowserModeServer> {
  const token = opts.token ?? loadOrCreateToken(opts.dataDir);
  const host = opts.host ?? '127.0.0.1';
  let port = 0;

  const server = await serve(
    async (req, info) => {
      const url = new URL(req.url);
      if (!hostAllowed(req.headers.get('host'), host, port)) {
        return apiError(421, 'api.host', 'This server only answers requests addressed to this machine.');
      }
      // The sync APIs (issue 32) log in with their own app password, not this page's token.
      const synced = opts.app.sync.doors.handle(req, info);
      if (synced) return synced;
      if (url.pathname.startsWith('/api/')) {
        if (!originAllowed(req.headers.get('origin'), req.headers.get('host'))) {
          return apiError(403, 'api.origin', 'This API only answers the Tidings page it serves.');
        }
        return handleApiCall(opts.app, token, req, url.pathname.slice('/api/'.length));
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return new Response('Not found', { status: 404 });
      return (
        (await serveStatic(opts.rendererDir, url.pathname)) ??
        (await serveStatic(opts.rendererDir, '/')) ??
        new Response('The renderer is not built: run `npm run build`.', { status: 503 })
      );
    },
    {
      port: opts.port ?? 0,
      host,
      // Per command (api-http.ts): documents for the few that take one, a small cap for the rest;
      // the sync doors take what they take on the receiver's server.
      maxBodyBytes: API_BODY_BYTES,
      maxBodyBytesFor: (target) =>
        syncBodyCapFor(target) ?? (target.startsWith('/api/') ? apiBodyCapFor(target) : API_BODY_BYTES),
    },
  );
  port = server.port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const unannounce = opts.app.sync.servedAt(base);

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const unsubscribe = opts.app.onAny((event, payload) => {
    const message = JSON.stringify({ event, payload });
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(message);
  });
  server.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const allowed =
      url.pathname === '/api/events' &&
      hostAllowed(req.headers.host ?? null, host, port) &&
      tokenMatches(url.searchParams.get('token'), token);
    if (!allowed) {
      refuseSocket(socket, '401 Unauthorized'); // destroyed, not just ended
      return;
    }
    // Browsers always send Origin on a WebSocket handshake: another site's page is refused here.
    if (!originAllowed(req.headers.origin ?? null, req.headers.host ?? null)) {
      refuseSocket(socket, '403 Forbidden');
      return;
    }
    server.keep(socket); // a live event stream is never evicted by the connection cap
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  return {
    url: base,
    openUrl: `${base}/?token=${token}`,
    port,
    token,
    async close() {
      unannounce();
      unsubscribe();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await server.close();
    },
  };
}

/** Only names of this machine reach the API (a web page can't point its own DNS name at us). */
function hostAllowed(hostHeader: string | null, bindHost: string, port: number): boolean {
  if (bindHost !== '127.0.0.1' && bindHost !== 'localhost' && bindHost !== '::1') return true;
  if (!hostHeader) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(hostHeader.toLowerCase());
}

/**
 * The app's own origin is the one its page was loaded from: http:// + the Host it asked
 * (already checked to name this machine). No Origin at all is a non-browser client (the CLI,
 * tests, a same-origin GET); "null" (sandboxed frames, file: pages) is refused.
 */
export function originAllowed(origin: string | null, hostHeader: string | null): boolean {
  if (origin === null) return true;
  if (!hostHeader) return false;
  return origin.trim().toLowerCase() === `http://${hostHeader.trim().toLowerCase()}`;
}

function loadOrCreateToken(dataDir: string): string {
  const file = join(dataDir, 'browser-token');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
  } catch {
    // First run: make one below.
  }
  const token = randomBytes(24).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}
