/**
 * The tunnel: makes the receiver reachable from the internet through a localtunnel server (the
 * public one by default, a loopback one in tests). It asks for a stable subdomain derived from the
 * install and accepts whatever URL it gets; when the tunnel drops or errs it reconnects with capped
 * back-off and reports every change of public URL (null while down), so the app can re-register
 * with every cloud at once.
 *
 * Built on the `localtunnel` client 2.0.2 (pinned), with one piece replaced: its registration step
 * (`Tunnel._init`, axios) retries every second forever while the server is unreachable and cannot
 * be cancelled, so it would outlive stop(). We register through the one HttpClient ourselves, with
 * a deadline, and hand the server's answer to the library's `_getInfo`/`_establish`, which own the
 * socket pool (reopening sockets that die, piping them to 127.0.0.1:port).
 */
import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../common/clock.ts';
import type { HttpClient } from '../net/http-client-types.ts';

export const DEFAULT_TUNNEL_HOST = 'https://localtunnel.me';

/** What the localtunnel server answers to GET /<subdomain>. */
interface TunnelGrant {
  id: string;
  port: number;
  url: string;
  max_conn_count?: number;
  ip?: string;
}

interface LocaltunnelClient extends EventEmitter {
  tunnelCluster?: EventEmitter;
  _getInfo(body: TunnelGrant): unknown;
  _establish(info: unknown): void;
  close(): void;
}

const require = createRequire(import.meta.url);
const LocaltunnelTunnel = require('localtunnel/lib/Tunnel') as new (
  opts: Record<string, unknown>,
) => LocaltunnelClient;

export type TunnelStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'stopped';

export interface TunnelState {
  status: TunnelStatus;
  /** The public URL while open. */
  url: string | null;
  lastError: string | null;
  /** Failed attempts in a row. */
  failures: number;
  /** When the next attempt starts (status 'waiting'). */
  nextAttemptAt: number | null;
}

export interface TunnelEvent {
  ok: boolean;
  message: string;
}

export interface TunnelOptions {
  /** The local receiver's port (on 127.0.0.1). */
  port: number;
  /** The tunnel server, e.g. https://localtunnel.me or http://127.0.0.1:P. */
  host: string;
  /** Asked for; the server may give another. */
  subdomain: string;
  clock: Clock;
  http: HttpClient;
  /** The public URL, on every change; null while the tunnel is down. */
  onUrl(url: string | null): void;
  /** Opened, dropped, refused... for the activity log. */
  log?(event: TunnelEvent): void;
  /** Reconnect back-off: starts at initialMs, doubles, capped at maxMs (defaults 1 s and 60 s). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** How often to check the tunnel still has live sockets (default 30 s). */
  watchdogMs?: number;
  /** Deadline for registering and for the first socket to open (default 15 s). */
  connectTimeoutMs?: number;
}

export interface Tunnel {
  start(): void;
  stop(): void;
  state(): TunnelState;
}

/** A stable, valid localtunnel subdomain for this install (lowercase, 4-63 characters). */
export function subdomainFor(installId: string): string {
  return `tidings-${createHash('sha256').update(installId).digest('hex').slice(0, 16)}`;
}

export function createTunnel(opts: TunnelOptions): Tunnel {
  const host = opts.host.replace(/\/+$/, '');
  const initialMs = opts.backoff?.initialMs ?? 1_000;
  const maxMs = opts.backoff?.maxMs ?? 60_000;
  const watchdogMs = opts.watchdogMs ?? 30_000;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 15_000;

  const state: TunnelState = { status: 'idle', url: null, lastError: null, failures: 0, nextAttemptAt: null };
  // Every attempt gets a generation: events from an abandoned attempt are ignored.
  let generation = 0;
  let client: LocaltunnelClient | null = null;
  let openSockets = 0;
  let retryTimer: TimerHandle | null = null;
  let watchdog: TimerHandle | null = null;
  let connectTimer: TimerHandle | null = null;
  let emitted: string | null = null;

  const emitUrl = (url: string | null) => {
    if (url === emitted) return;
    emitted = url;
    opts.onUrl(url);
  };

  async function connect(): Promise<void> {
    const gen = ++generation;
    state.status = 'connecting';
    state.nextAttemptAt = null;
    connectTimer = opts.clock.setTimer(connectTimeoutMs, () => {
      if (gen === generation && state.status === 'connecting')
        drop(gen, 'The tunnel server did not open a tunnel in time.');
    });
    const grant = await register();
    if (gen !== generation) return;
    if (!grant.ok) return drop(gen, grant.message);

    const lt = new LocaltunnelTunnel({
      host,
      port: opts.port,
      local_host: '127.0.0.1',
      subdomain: opts.subdomain,
    });
    client = lt;
    openSockets = 0;
    // Without an 'error' listener an EventEmitter throws: every failure becomes a drop instead.
    lt.on('error', (err: Error) => drop(gen, `The tunnel failed: ${err.message}`));
    lt.on('close', () => drop(gen, 'The tunnel closed.'));
    lt.once('url', () => opened(gen, grant.value.url));
    try {
      lt._establish(lt._getInfo(grant.value));
    } catch (e) {
      return drop(gen, `The tunnel could not start: ${(e as Error).message}`);
    }
    lt.tunnelCluster?.on('open', (remote: Socket) => {
      if (gen !== generation) return;
      openSockets++;
      remote.once('close', () => {
        if (gen === generation) openSockets--;
      });
    });
  }

  async function register(): Promise<{ ok: true; value: TunnelGrant } | { ok: false; message: string }> {
    const ask = (path: string) =>
      opts.http.request({
        method: 'GET',
        url: `${host}/${path}`,
        headers: { accept: 'application/json' },
        timeoutMs: connectTimeoutMs,
        maxRedirects: 5,
        maxBodyBytes: 64 * 1024,
      });
    let res = await ask(encodeURIComponent(opts.subdomain));
    // A server that refuses the name (403 "Invalid subdomain") still gives a random one.
    if (res.ok && res.value.status === 403) res = await ask('?new');
    if (!res.ok)
      return { ok: false, message: `The tunnel server ${host} could not be reached: ${res.error.message}` };
    const text = new TextDecoder().decode(res.value.body);
    let body: Partial<TunnelGrant> & { message?: string } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // handled below
    }
    if (res.value.status !== 200) {
      return {
        ok: false,
        message: `The tunnel server answered ${res.value.status}${body.message ? `: ${body.message}` : '.'}`,
      };
    }
    const port = Number(body.port);
    if (
      typeof body.url !== 'string' ||
      !/^https?:\/\//.test(body.url) ||
      !Number.isInteger(port) ||
      port <= 0
    ) {
      return { ok: false, message: 'The tunnel server gave an answer without a tunnel in it.' };
    }
    return { ok: true, value: { ...(body as TunnelGrant), port, id: String(body.id ?? '') } };
  }

  function opened(gen: number, url: string): void {
    if (gen !== generation) return;
    connectTimer?.cancel();
    connectTimer = null;
    state.status = 'open';
    state.url = url;
    state.failures = 0;
    state.lastError = null;
    opts.log?.({ ok: true, message: `tunnel open: ${url}` });
    emitUrl(url);
    armWatchdog(gen);
  }

  function armWatchdog(gen: number): void {
    watchdog?.cancel();
    watchdog = opts.clock.setTimer(watchdogMs, () => {
      if (gen !== generation || state.status !== 'open') return;
      // The library reopens dead sockets itself; none left means the server forgot us.
      if (openSockets <= 0) drop(gen, 'The tunnel lost all its connections.');
      else armWatchdog(gen);
    });
  }

  function teardown(): void {
    connectTimer?.cancel();
    connectTimer = null;
    watchdog?.cancel();
    watchdog = null;
    const lt = client;
    client = null;
    // Our own listeners ignore what follows (the generation moved on); the library's close
    // handlers destroy its sockets.
    if (lt) lt.close();
  }

  function drop(gen: number, message: string): void {
    if (gen !== generation || state.status === 'stopped' || state.status === 'waiting') return;
    generation++; // abandon this attempt: its late events are ignored
    teardown();
    state.failures++;
    state.lastError = message;
    state.url = null;
    state.status = 'waiting';
    const delay = Math.min(maxMs, initialMs * 2 ** Math.min(state.failures - 1, 20));
    state.nextAttemptAt = opts.clock.now() + delay;
    opts.log?.({ ok: false, message: `${message} Reconnecting in ${Math.round(delay / 1000)} s.` });
    emitUrl(null);
    retryTimer = opts.clock.setTimer(delay, () => {
      retryTimer = null;
      if (state.status === 'waiting') void connect();
    });
  }

  return {
    start() {
      if (state.status !== 'idle' && state.status !== 'stopped') return;
      void connect();
    },
    stop() {
      generation++;
      retryTimer?.cancel();
      retryTimer = null;
      teardown();
      state.status = 'stopped';
      state.url = null;
      state.nextAttemptAt = null;
      emitted = null;
    },
    state: () => ({ ...state }),
  };
}
