/**
 * Real-time reading, tied together: the receiver on 127.0.0.1, the public address clouds call
 * (a tunnel, or the user's own public base URL), the subscription manager, and the activity log.
 * The app creates one, starts it, tells it when feeds change or go, and asks it for each feed's
 * status; notifications come back through the scheduler's one "fetch now".
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Clock } from '../common/clock.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import type { RunningServer } from '../net/serve.ts';
import { type ActivityInput, type ActivityRow, RealtimeStore } from '../store/realtime.ts';
import type { Store } from '../store/store.ts';
import { NotifyGate } from './notify-gate.ts';
import { createReceiver, DEFAULT_NOTIFY_PROCEDURE, type Receiver } from './receiver.ts';
import { type Mount, startReceiverServer } from './receiver-server.ts';
import type { Callback } from './subscriber.ts';
import { type RealtimeStatus, SubscriptionManager, type SubscriptionManagerDeps } from './subscriptions.ts';
import { createTunnel, subdomainFor, type Tunnel, type TunnelOptions, type TunnelState } from './tunnel.ts';

export type { RealtimeStatus } from './subscriptions.ts';

export interface RealtimeSettings {
  /** The localtunnel server (default https://localtunnel.me); null turns the tunnel off. */
  tunnelHost: string | null;
  /** The user's own public address for the receiver (port forward, a server): used instead of a tunnel. */
  publicBaseUrl: string | null;
  /** The receiver's local port (0: a free one). */
  receiverPort: number;
  /** Where the receiver listens (default 127.0.0.1). */
  receiverHost?: string;
}

export interface RealtimeDeps {
  /** The reader's store: feeds and their <cloud> elements; keeps the receiver token in its settings. */
  store: Store;
  /** Where the realtime tables live (the reader's database or a file of their own). */
  db: DatabaseSync;
  http: HttpClient;
  clock: Clock;
  scheduler: { fetchNow(feedId: number): void };
  /** Each activity log entry as it is recorded (the app pushes them as events). */
  events(entry: ActivityRow): void;
  /** A feed's real-time status changed: re-emit its row, re-plan its polling. */
  onStatusChange?(feedId: number): void;
  settings: RealtimeSettings;
  /** Stable per install: the tunnel subdomain is derived from it. */
  installId: string;
  /** More routes on the receiver's port (the user's own cloud, the hosted feed). */
  extra?: readonly Mount[];
  notifyProcedure?: string;
  tunnel?: Pick<TunnelOptions, 'backoff' | 'watchdogMs' | 'connectTimeoutMs'>;
  subscriptions?: Pick<
    SubscriptionManagerDeps,
    'renewEveryMs' | 'expiresAfterMs' | 'retry' | 'concurrency' | 'timeoutMs'
  >;
  /** Reconnecting after this long down renews every subscription even at the same URL (default 60 s). */
  renewAfterDownMs?: number;
}

export interface RealtimeInfo {
  mode: 'tunnel' | 'public' | 'off';
  /** http://127.0.0.1:port while running. */
  receiverUrl: string | null;
  /** The address clouds call (tunnel URL or public base URL), without our secret path. */
  publicUrl: string | null;
  tunnel: TunnelState | null;
}

export interface Realtime {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** After each refresh: subscribe new or changed <cloud> elements, forget removed ones. */
  onFeedChanged(feedId: number): void;
  onFeedRemoved(feedId: number): void;
  statusFor(feedId: number): RealtimeStatus;
  /** Newest first. */
  activity(limit?: number): ActivityRow[];
  info(): RealtimeInfo;
  /** New tunnel host / public base URL, applied at once (the receiver keeps its port). */
  reconfigure(settings: Partial<Pick<RealtimeSettings, 'tunnelHost' | 'publicBaseUrl'>>): void;
  renewAll(): void;
  /** The receiver (its path carries the secret: never show it). */
  readonly receiver: Receiver | null;
}

const TOKEN_SETTING = 'realtime.receiverToken';

export function createRealtime(deps: RealtimeDeps): Realtime {
  const rt = new RealtimeStore(deps.db);
  const gate = new NotifyGate({ clock: deps.clock, fetchNow: (feedId) => deps.scheduler.fetchNow(feedId) });
  const settings: RealtimeSettings = { ...deps.settings };
  const renewAfterDownMs = deps.renewAfterDownMs ?? 60_000;
  let receiver: Receiver | null = null;
  let server: RunningServer | null = null;
  let tunnel: Tunnel | null = null;
  let publicUrl: string | null = null;
  let downSince: number | null = null;
  let running = false;

  const record = (entry: ActivityInput) => {
    if (!running) return;
    const row = rt.addActivity(entry);
    deps.events(row);
  };

  const manager = new SubscriptionManager({
    rt,
    http: deps.http,
    clock: deps.clock,
    feeds: {
      get: (id) => {
        const f = deps.store.getFeed(id);
        return f ? { id: f.id, url: f.url, cloud: f.status === 'gone' ? null : f.meta.cloud } : null;
      },
      list: () =>
        deps.store
          .listFeeds()
          .map((f) => ({ id: f.id, url: f.url, cloud: f.status === 'gone' ? null : f.meta.cloud })),
    },
    notifyProcedure: deps.notifyProcedure ?? DEFAULT_NOTIFY_PROCEDURE,
    log: record,
    onChange: (feedId) => deps.onStatusChange?.(feedId),
    ...deps.subscriptions,
  });

  function mode(): RealtimeInfo['mode'] {
    if (settings.publicBaseUrl) return 'public';
    return settings.tunnelHost ? 'tunnel' : 'off';
  }

  /** Points the manager at the address the current settings give. */
  function applyAddress(): void {
    tunnel?.stop();
    tunnel = null;
    publicUrl = null;
    downSince = null;
    if (!receiver || !server) return;
    const m = mode();
    if (m === 'public') {
      const cb = callbackFromBase(settings.publicBaseUrl!, receiver.path);
      if (!cb) {
        manager.setCallback(null, {
          problem: `the public address "${settings.publicBaseUrl}" is not an http(s) URL`,
        });
        return;
      }
      publicUrl = settings.publicBaseUrl!.replace(/\/+$/, '');
      manager.setCallback(cb);
      return;
    }
    if (m === 'off') {
      manager.setCallback(null, { problem: 'real-time is off (no tunnel and no public address)' });
      return;
    }
    const host = settings.tunnelHost!;
    const path = receiver.path;
    manager.setCallback(null, { problem: 'connecting the tunnel' });
    tunnel = createTunnel({
      port: server.port,
      host,
      subdomain: subdomainFor(deps.installId),
      clock: deps.clock,
      http: deps.http,
      ...deps.tunnel,
      onUrl(url) {
        if (url === null) {
          downSince = deps.clock.now();
          publicUrl = null;
          manager.setCallback(null, { problem: 'the tunnel is down: reconnecting' });
          return;
        }
        const cb = callbackFromBase(url, path);
        const force = downSince !== null && deps.clock.now() - downSince >= renewAfterDownMs;
        downSince = null;
        publicUrl = url;
        manager.setCallback(cb, { force });
      },
      log(event) {
        record({
          at: deps.clock.now(),
          direction: 'out',
          peer: safeHost(host),
          procedure: 'tunnel',
          feedUrl: null,
          result: event.message,
          ok: event.ok,
          latencyMs: null,
        });
      },
    });
    tunnel.start();
  }

  // The receiver asks isSubscribed and then onNotify about the same URL within one synchronous
  // call: one subscription lookup serves both (it read SQLite twice per notification).
  let looked: { url: string; hit: ReturnType<SubscriptionManager['feedFor']> } | null = null;
  function lookup(url: string): ReturnType<SubscriptionManager['feedFor']> {
    if (looked?.url === url) return looked.hit;
    looked = { url, hit: manager.feedFor(url) };
    queueMicrotask(() => {
      looked = null; // never stale past this call
    });
    return looked.hit;
  }

  async function startAll(): Promise<void> {
    let token = deps.store.getSetting<string | null>(TOKEN_SETTING, null);
    if (!token || !/^[A-Za-z0-9_-]{16,}$/.test(token)) {
      token = randomBytes(18).toString('base64url');
      deps.store.setSetting(TOKEN_SETTING, token);
    }
    receiver = createReceiver({
      token,
      clock: deps.clock,
      notifyProcedure: deps.notifyProcedure ?? DEFAULT_NOTIFY_PROCEDURE,
      isSubscribed: (url) => lookup(url) !== null,
      onNotify: (url) => {
        const hit = lookup(url);
        looked = null;
        if (!hit) return '404: not subscribed; nothing fetched';
        manager.notified(hit.feedId);
        // The cloud's test call while we first ask is not news: nothing to fetch.
        if (hit.verifying) return 'verification call answered; nothing fetched';
        return gate.notified(hit.feedId);
      },
      log: record,
    });
    const started = await startReceiverServer({
      receiver,
      extra: deps.extra,
      port: settings.receiverPort,
      host: settings.receiverHost ?? '127.0.0.1',
    });
    if (!running) {
      await started.close(); // stopped while the socket was opening
      return;
    }
    server = started;
    manager.start();
    applyAddress();
  }

  return {
    get receiver() {
      return receiver;
    },
    async start() {
      if (running) return;
      running = true;
      try {
        await startAll();
      } catch (e) {
        running = false;
        throw e;
      }
    },
    async stop() {
      if (!running) return;
      running = false;
      tunnel?.stop();
      tunnel = null;
      gate.stop();
      await manager.stop();
      await server?.close();
      server = null;
      rt.flushActivity(); // the last calls' log entries, before the owner closes the database
    },
    onFeedChanged: (feedId) => {
      gate.changed(feedId);
      if (running) manager.sync(feedId);
    },
    onFeedRemoved: (feedId) => {
      gate.forget(feedId);
      manager.remove(feedId);
    },
    statusFor: (feedId) => manager.statusFor(feedId),
    activity: (limit = 100) => rt.listActivity(limit),
    info: () => ({
      mode: mode(),
      receiverUrl: server?.url ?? null,
      publicUrl,
      tunnel: tunnel?.state() ?? null,
    }),
    reconfigure(next) {
      if (next.tunnelHost !== undefined) settings.tunnelHost = next.tunnelHost;
      if (next.publicBaseUrl !== undefined) settings.publicBaseUrl = next.publicBaseUrl;
      if (running && server) applyAddress();
    },
    renewAll: () => manager.renewAll(),
  };
}

/** The callback a base URL (tunnel or public) and our path make; null when it is not http(s). */
export function callbackFromBase(base: string, receiverPath: string): Callback | null {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    scheme,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : scheme === 'https' ? 443 : 80,
    path: `${prefix}${receiverPath}`,
  };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
