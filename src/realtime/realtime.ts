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
import type { FeedRow, Store } from '../store/store.ts';
import { NotifyGate } from './notify-gate.ts';
import { createReceiver, DEFAULT_NOTIFY_PROCEDURE, type Receiver } from './receiver.ts';
import { type Mount, startReceiverServer, TUNNEL_SIDE_LIMITS } from './receiver-server.ts';
import type { Callback } from './subscriber.ts';
import { listSubscriptions, type RealtimeSubscription } from './subscription-list.ts';
import { type RealtimeStatus, SubscriptionManager, type SubscriptionManagerDeps } from './subscriptions.ts';
import { createTunnel, subdomainFor, type Tunnel, type TunnelOptions, type TunnelState } from './tunnel.ts';
import { WEBSUB_PREFIX } from './websub/callback.ts';
import type { DeliveryQueue } from './websub/delivery-queue.ts';
import { createWebSubReading, type WebSubReadingDeps, type WebSubTuning } from './websub/reading.ts';
import type { WebSubManager } from './websub/websub-subscriptions.ts';

export type { RealtimeSubscription } from './subscription-list.ts';
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
  /**
   * A WebSub hub delivered the feed's new body: parse it into the store by the poll's own path
   * (no second fetch). 'notFeed' makes us fetch instead.
   */
  deliver?: WebSubReadingDeps['deliver'];
  /** WebSub knobs (tests): retries, how long a hub may take to verify, caps. */
  websub?: WebSubTuning;
}

export interface RealtimeInfo {
  mode: 'tunnel' | 'public' | 'off';
  /** http://127.0.0.1:port while running. */
  receiverUrl: string | null;
  /** The address clouds call (tunnel URL or public base URL), without our secret path. */
  publicUrl: string | null;
  /** The tunnel server in use (mode 'tunnel'); null otherwise. */
  tunnelHost: string | null;
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
  /** Every rssCloud and WebSub subscription, for the settings. */
  subscriptions(): RealtimeSubscription[];
  /** Quitting for good: tells every hub we are gone (bounded), then stops. */
  stopForGood(waitMs?: number): Promise<void>;
  /** WebSub pieces (tests and the bench drive them). */
  readonly websub: { manager: WebSubManager; queue: DeliveryQueue };
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
  /** The same receiver on a loopback port of the tunnel's own (receiver-server.ts says why). */
  let tunnelSide: RunningServer | null = null;
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
        return f ? { id: f.id, url: f.url, cloud: cloudOf(f) } : null;
      },
      list: () => deps.store.listFeeds().map((f) => ({ id: f.id, url: f.url, cloud: cloudOf(f) })),
    },
    notifyProcedure: deps.notifyProcedure ?? DEFAULT_NOTIFY_PROCEDURE,
    log: record,
    onChange: (feedId) => deps.onStatusChange?.(feedId),
    ...deps.subscriptions,
  });

  // ---- WebSub: a feed naming a hub is read through it (src/realtime/websub/reading.ts)
  const {
    store: wsStore,
    manager: websub,
    queue,
    callback: websubCallback,
    fallback,
    hubOf,
    hubRefused,
  } = createWebSubReading({
    db: deps.db,
    http: deps.http,
    clock: deps.clock,
    feeds: deps.store,
    fetchNow: (feedId) => deps.scheduler.fetchNow(feedId),
    log: record,
    onChange: (feedId) => {
      // A hub that refused: the feed's next hub is asked, or its rssCloud (if any) takes over;
      // a hub that serves again: the cloud steps back. (A no-op when nothing changed.)
      if (running) {
        if (hubRefused(wsStore.get(feedId))) websub.sync(feedId); // never re-adds a removed row
        manager.sync(feedId);
      }
      deps.onStatusChange?.(feedId);
    },
    deliver: deps.deliver,
    tuning: deps.websub,
  });

  /**
   * A feed offering both a hub and a <cloud> uses the hub: the hub delivers the new feed itself
   * (no second fetch), the cloud only says "changed". The cloud takes over when the hub denied
   * us or failed three times in a row, and steps back when the hub works again.
   */
  function cloudOf(f: FeedRow) {
    if (f.status === 'gone' || !f.meta.cloud) return null;
    if (hubOf(f) && !hubRefused(wsStore.get(f.id))) return null;
    return f.meta.cloud;
  }

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
    if (!receiver || !server || !tunnelSide) return;
    const m = mode();
    if (m === 'public') {
      const cb = callbackFromBase(settings.publicBaseUrl!, receiver.path);
      if (!cb) {
        const problem = `the public address "${settings.publicBaseUrl}" is not an http(s) URL`;
        manager.setCallback(null, { problem });
        websub.setBase(null, { problem });
        return;
      }
      publicUrl = settings.publicBaseUrl!.replace(/\/+$/, '');
      manager.setCallback(cb);
      websub.setBase(`${publicUrl}${WEBSUB_PREFIX}`);
      return;
    }
    if (m === 'off') {
      const problem = 'real-time is off (no tunnel and no public address)';
      manager.setCallback(null, { problem });
      websub.setBase(null, { problem });
      return;
    }
    const host = settings.tunnelHost!;
    const path = receiver.path;
    manager.setCallback(null, { problem: 'connecting the tunnel' });
    websub.setBase(null, { problem: 'connecting the tunnel' });
    tunnel = createTunnel({
      port: tunnelSide.port,
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
          websub.setBase(null, { problem: 'the tunnel is down: reconnecting' });
          return;
        }
        const cb = callbackFromBase(url, path);
        const force = downSince !== null && deps.clock.now() - downSince >= renewAfterDownMs;
        downSince = null;
        publicUrl = url;
        manager.setCallback(cb, { force });
        websub.setBase(`${url.replace(/\/+$/, '')}${WEBSUB_PREFIX}`, { force });
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
    const served = { receiver, extra: deps.extra, websub: websubCallback };
    const started = await startReceiverServer({
      ...served,
      port: settings.receiverPort,
      host: settings.receiverHost ?? '127.0.0.1',
    });
    const forTunnel = await startReceiverServer({ ...served, limits: TUNNEL_SIDE_LIMITS }).catch(
      async (e: unknown) => {
        await started.close();
        throw e;
      },
    );
    if (!running) {
      // stopped while the sockets were opening
      await Promise.all([started.close(), forTunnel.close()]);
      return;
    }
    server = started;
    tunnelSide = forTunnel;
    websub.start(); // first: the rssCloud manager asks which feeds the hubs already serve
    manager.start();
    applyAddress();
  }

  const api: Realtime = {
    get receiver() {
      return receiver;
    },
    websub: { manager: websub, queue },
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
      fallback.stop();
      await queue.stop();
      await websub.stop();
      await manager.stop();
      await Promise.all([server?.close(), tunnelSide?.close()]);
      server = null;
      tunnelSide = null;
      rt.flushActivity(); // the last calls' log entries, before the owner closes the database
    },
    onFeedChanged: (feedId) => {
      gate.changed(feedId);
      if (!running) return;
      websub.sync(feedId); // first: whether the hub serves decides whether the cloud is asked
      manager.sync(feedId);
    },
    onFeedRemoved: (feedId) => {
      gate.forget(feedId);
      fallback.forget(feedId);
      websub.remove(feedId);
      manager.remove(feedId);
    },
    statusFor,
    subscriptions: () =>
      listSubscriptions(
        rt.listSubscriptions().map((row) => ({ row, status: manager.statusFor(row.feedId) })),
        wsStore.list().map((row) => ({ row, status: websub.statusFor(row.feedId) })),
      ),
    async stopForGood(waitMs = 5_000) {
      if (running) {
        await websub.unsubscribeAll();
        // The hubs verify each unsubscribe on our callback: give them a moment while it is open.
        const until = Date.now() + waitMs;
        while (websub.leavingCount() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      }
      await api.stop();
    },
    activity: (limit = 100) => rt.listActivity(limit),
    info: () => ({
      mode: mode(),
      receiverUrl: server?.url ?? null,
      publicUrl,
      tunnelHost: mode() === 'tunnel' ? settings.tunnelHost : null,
      tunnel: tunnel?.state() ?? null,
    }),
    reconfigure(next) {
      if (next.tunnelHost !== undefined) settings.tunnelHost = next.tunnelHost;
      if (next.publicBaseUrl !== undefined) settings.publicBaseUrl = next.publicBaseUrl;
      if (running && server) applyAddress();
    },
    renewAll: () => {
      manager.renewAll();
      websub.renewAll();
    },
  };
  return api;

  function statusFor(feedId: number): RealtimeStatus {
    // Most feeds have no hub: no store read for them (the feed list asks for every row).
    const row = wsStore.get(feedId);
    if (!row) return manager.statusFor(feedId);
    const feed = deps.store.getFeed(feedId);
    const ws = feed && hubOf(feed) ? websub.statusFor(feedId) : null;
    if (ws && !hubRefused(row)) {
      if (!feed?.meta.cloud || !ws.live || !ws.line) return ws;
      return { ...ws, line: `${ws.line}; chosen over its rssCloud: the hub sends the new feed itself` };
    }
    const rc = manager.statusFor(feedId);
    if (!ws) return rc;
    // The hub refused: the cloud serves (when there is one); say why.
    const why = `its WebSub hub refused: ${row?.message ?? 'no answer'}`;
    if (rc.live && rc.line) return { ...rc, line: `${rc.line}; ${why}` };
    return { live: false, line: null, reason: rc.reason ? `${rc.reason}; ${why}` : why };
  }
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
