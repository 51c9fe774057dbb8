/**
 * Real-time reading inside the app (src/realtime/realtime.ts does the work): its settings (saved,
 * with this run's options such as CLI flags on top until the user changes them), the instance
 * wired to the scheduler, the event bus and the polling plan, and the API's views of it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { cloudElementFor, createCloud } from '../cloud/cloud.ts';
import { describeError } from '../common/errors.ts';
import { createHttpClient } from '../net/http-client.ts';
import { type CatchUp, startCatchUp } from '../poll/catch-up.ts';
import { isSafetyNet } from '../poll/due.ts';
import { readOwnSiteLocally } from '../publish/own-site-http.ts';
import { createRealtime, type RealtimeDeps, type RealtimeSettings } from '../realtime/realtime.ts';
import type { Mount } from '../realtime/receiver-server.ts';
import { DEFAULT_TUNNEL_HOST } from '../realtime/tunnel.ts';
import type { ActivityRow } from '../store/realtime.ts';
import { openDatabase } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import type { ActivityEntry, RealtimeInfo, RealtimeOff, RealtimeSubscriptionView, Settings } from './api.ts';
import type { AppContext } from './context.ts';
import { emitStatus, replanPolling, storeDocument } from './refresh.ts';
import { APP_VERSION, PROJECT_URL } from './version.ts';

export interface RealtimeOptions {
  /**
   * This run's tunnel, whatever the settings say: false turns it off; true opens it through the
   * saved server; a URL opens it through that server. Absent: the settings (and the first-run
   * question) decide.
   */
  tunnelHost?: string | boolean;
  /** Reach the receiver here instead of through a tunnel. */
  publicBaseUrl?: string | null;
  /** The receiver's port on 127.0.0.1 (default 0: any free one). */
  receiverPort?: number;
  /** Stable per install (default: made once and kept in the store). */
  installId?: string;
  /**
   * Who the app's own cloud (mounted at /cloud on the receiver's server) may call and read.
   * Default: public addresses only; tests on loopback allow loopback.
   */
  ownCloudAllow?: { loopback?: boolean; private?: boolean };
  /** Test knobs: renewal period, retries, tunnel back-off, WebSub verification timeout. */
  tuning?: Pick<RealtimeDeps, 'subscriptions' | 'tunnel' | 'websub'>;
}

type RealtimeFields = Pick<Settings, 'tunnelEnabled' | 'tunnelHost' | 'publicBaseUrl'>;

export interface RealtimeSettingsAccess {
  /** The fields as this run uses them: the saved ones, with this run's options on top. */
  read(): Required<RealtimeFields>;
  /**
   * The first-run question is open: a tunnel is what would reach this computer (no public address,
   * no option for this run), and the person has not yet said whether it may open. Until they
   * answer (answer(), or the tunnel box in Settings) no tunnel opens.
   */
  questionOpen(): boolean;
  /** The question's answer, remembered; true when the public address changed (reconfigure). */
  answer(open: boolean): boolean;
  /** This run's options turned the tunnel off (--no-tunnel). */
  offForThisRun(): boolean;
  /** Validates and saves the real-time fields of a patch; true when the public address changed. */
  update(patch: Partial<Settings>): boolean;
  /** What the Realtime instance needs from them. */
  target(): Pick<RealtimeSettings, 'tunnelHost' | 'publicBaseUrl'>;
}

export function realtimeSettings(store: Store, options: RealtimeOptions | null): RealtimeSettingsAccess {
  const overrides: Partial<RealtimeFields> = {
    ...(typeof options?.tunnelHost === 'boolean' ? { tunnelEnabled: options.tunnelHost } : {}),
    ...(typeof options?.tunnelHost === 'string'
      ? { tunnelEnabled: true, tunnelHost: options.tunnelHost }
      : {}),
    ...(options?.publicBaseUrl !== undefined ? { publicBaseUrl: options.publicBaseUrl } : {}),
  };
  // The saved answer; null while the first-run question has not been answered (issue 35: a
  // public tunnel opens only once the person said it may).
  const answered = () => {
    const saved = store.getSetting<unknown>('tunnelEnabled', null);
    return typeof saved === 'boolean' ? saved : null;
  };
  const read = (): Required<RealtimeFields> => ({
    tunnelEnabled: overrides.tunnelEnabled ?? answered() ?? false,
    tunnelHost: overrides.tunnelHost ?? store.getSetting('tunnelHost', DEFAULT_TUNNEL_HOST),
    publicBaseUrl:
      overrides.publicBaseUrl !== undefined
        ? overrides.publicBaseUrl
        : store.getSetting<string | null>('publicBaseUrl', null),
  });
  const target = () => {
    const s = read();
    return { tunnelHost: s.tunnelEnabled ? s.tunnelHost : null, publicBaseUrl: s.publicBaseUrl };
  };
  const saveEnabled = (open: boolean) => {
    store.setSetting('tunnelEnabled', open);
    // The person's choice replaces this run's option from now on.
    delete overrides.tunnelEnabled;
  };
  return {
    read,
    target,
    questionOpen: () =>
      overrides.tunnelEnabled === undefined && answered() === null && read().publicBaseUrl === null,
    offForThisRun: () => overrides.tunnelEnabled === false,
    answer(open) {
      const before = JSON.stringify(target());
      saveEnabled(open);
      return JSON.stringify(target()) !== before;
    },
    update(patch) {
      const before = JSON.stringify(target());
      if (patch.tunnelEnabled !== undefined) saveEnabled(patch.tunnelEnabled === true);
      if (patch.tunnelHost !== undefined) {
        const host = httpUrl(patch.tunnelHost);
        if (!host)
          throw new Error(`The tunnel server must be an http(s) address, not "${patch.tunnelHost}".`);
        store.setSetting('tunnelHost', host);
        delete overrides.tunnelHost;
      }
      if (patch.publicBaseUrl !== undefined) {
        const text = patch.publicBaseUrl?.trim() ?? '';
        const base = text === '' ? null : httpUrl(text);
        if (base === undefined) throw new Error(`The public address must be an http(s) URL, not "${text}".`);
        store.setSetting('publicBaseUrl', base);
        delete overrides.publicBaseUrl;
      }
      return JSON.stringify(target()) !== before;
    },
  };
}

/**
 * Creates the Realtime instance (ctx.realtime) and returns its start/stop for the app's own.
 * Its tables live in a file of their own beside the store (see src/store/realtime.ts).
 */
export function attachRealtime(
  ctx: AppContext,
  opts: {
    dataDir: string;
    options: RealtimeOptions;
    settings: RealtimeSettingsAccess;
    /** More routes on the receiver's port (the writer's hosted site). */
    extra?: readonly Mount[];
  },
): { start(): void; started(): Promise<unknown>; stop(opts?: { forGood?: boolean }): Promise<void> } {
  const { store, events } = ctx;
  const db: DatabaseSync = openDatabase(join(opts.dataDir, 'realtime.db'), []);
  let installId = opts.options.installId ?? store.getSetting<string | null>('installId', null);
  if (!installId) {
    installId = randomUUID();
    store.setSetting('installId', installId);
  }
  // The user's own cloud rides on the receiver's server (one tunnel serves both): readers of the
  // feeds this install publishes ask it for notifications at <public URL>/cloud/pleaseNotify.
  const allow = opts.options.ownCloudAllow ?? {};
  const cloudHttp = createHttpClient({
    version: APP_VERSION,
    projectUrl: PROJECT_URL,
    hostPolicy: { allowLoopback: allow.loopback ?? false, allowPrivate: allow.private ?? false },
    maxSocketsPerHost: 64,
  });
  // Reading our own hosted feed to verify a ping goes to the receiver on loopback, not round the
  // tunnel service (src/publish/own-site-http.ts); everything else keeps the policy above.
  const ownSiteHttp = createHttpClient({
    version: APP_VERSION,
    projectUrl: PROJECT_URL,
    hostPolicy: { allowLoopback: true },
  });
  const ownCloud = createCloud({
    dbPath: join(opts.dataDir, 'cloud.db'),
    http: readOwnSiteLocally(cloudHttp, ownSiteHttp, () => {
      const info = ctx.realtime?.info();
      return info ? { publicUrl: info.publicUrl, localUrl: info.receiverUrl } : null;
    }),
    clock: ctx.clock,
    basePath: OWN_CLOUD_PATH,
    allow,
  });
  const realtime = createRealtime({
    extra: [
      { prefix: OWN_CLOUD_PATH, handle: (req, info) => ownCloud.handle(req, info), strip: false },
      ...(opts.extra ?? []),
    ],
    store,
    db,
    http: ctx.http,
    clock: ctx.clock,
    scheduler: ctx.scheduler,
    events: (row) => events.emit('activity', toActivityEntry(row)),
    onStatusChange: (feedId) => {
      // Live or lapsed: polling relaxes to the safety net or tightens back (src/poll/due.ts).
      // Compared with the plan itself, so it holds across restarts.
      const live = realtime.statusFor(feedId).live;
      const planned = isSafetyNet(store.getFeed(feedId)?.dueReason ?? null);
      if (planned !== live) replanPolling(ctx, feedId);
      emitStatus(ctx, feedId);
    },
    // A hub's delivery: the body it sent goes down the poll's own path into the store.
    deliver: async (feedId, body, contentType, link) => {
      const feed = store.getFeed(feedId);
      if (!feed || feed.status === 'gone') return 'skipped';
      const out = await storeDocument(
        ctx,
        feed,
        {
          body,
          finalUrl: feed.url,
          contentType,
          // The validators stay those of our last fetch: they still describe what we fetched.
          etag: feed.etag,
          lastModified: feed.lastModified,
          bodyHash: createHash('sha256').update(body).digest('hex'),
          cache: null,
          link,
        },
        true,
      );
      return out.kind === 'parseError' ? 'notFeed' : out.kind === 'skipped' ? 'skipped' : 'stored';
    },
    settings: { ...opts.settings.target(), receiverPort: opts.options.receiverPort ?? 0 },
    installId,
    ...opts.options.tuning,
  });
  ctx.realtime = realtime;
  ctx.ownCloud = ownCloud;
  let starting: Promise<unknown> | null = null;
  let catchUp: CatchUp | null = null;
  return {
    start() {
      // Pushes sent while we were down are lost: fetch each feed read in real time once
      // (conditionally, spread out) through the scheduler's one "fetch now" (src/poll/catch-up.ts).
      const startedAt = ctx.clock.now();
      catchUp = startCatchUp({
        clock: ctx.clock,
        feeds: store.listFeeds(),
        fetchNow: (feedId) => ctx.scheduler.fetchNow(feedId),
        stillBehind: (feedId) => {
          const feed = store.getFeed(feedId);
          return feed !== null && feed.status !== 'gone' && (feed.lastFetchedAt ?? 0) < startedAt;
        },
      });
      starting = realtime.start().then(
        () => null,
        (e: unknown) => {
          events.emit('notice', {
            level: 'error',
            message: `Real-time reading could not start: ${describeError(e)}`,
          });
          return e;
        },
      );
    },
    // null once listening; else why not (`tidings serve` exits on a taken --receiver-port).
    started: async () => (starting ? await starting : null),
    async stop(o) {
      catchUp?.stop();
      await starting;
      await (o?.forGood ? realtime.stopForGood() : realtime.stop());
      await ownCloud.close();
      cloudHttp.close();
      ownSiteHttp.close();
      ctx.ownCloud = null;
      db.close();
    },
  };
}

/** Where the app's own cloud is mounted on the receiver's server. */
export const OWN_CLOUD_PATH = '/cloud';
/** The own cloud's WebSub hub (src/cloud serves it at POST /websub). */
export const OWN_HUB_PATH = `${OWN_CLOUD_PATH}/websub`;

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function activityEntries(ctx: AppContext, limit: number): ActivityEntry[] {
  return (ctx.realtime?.activity(limit) ?? []).map(toActivityEntry);
}

/** The own cloud's `<cloud>` element and hub for the feeds this install publishes (null while no public address). */
export function ownServiceOf(ctx: AppContext): Pick<RealtimeInfo, 'mode' | 'cloud' | 'hub'> {
  const info = ctx.realtime?.info();
  const base = info?.publicUrl ?? null;
  return {
    mode: info?.mode ?? 'off',
    cloud: base ? cloudElementFor(base, OWN_CLOUD_PATH) : null,
    hub: base ? `${base.replace(/\/+$/, '')}${OWN_HUB_PATH}` : null,
  };
}

export function realtimeInfoOf(ctx: AppContext, settings: RealtimeSettingsAccess): RealtimeInfo {
  const info = ctx.realtime?.info() ?? null;
  const own = ownServiceOf(ctx);
  const t = info?.tunnel ?? null;
  return {
    ...own,
    publicUrl: info?.publicUrl ?? null,
    tunnelHost: info?.tunnelHost ?? null,
    // No real-time reading at all in this app (it was made without): this run's choice.
    off: own.mode !== 'off' ? null : info ? whyOff(settings) : 'thisRun',
    tunnelQuestion: info !== null && settings.questionOpen(),
    subscriptions: (ctx.realtime?.subscriptions() ?? []).map(
      (s): RealtimeSubscriptionView => ({
        ...s,
        renewsAt: isoOrNull(s.renewsAt),
        leaseEndsAt: isoOrNull(s.leaseEndsAt),
        lastDeliveryAt: isoOrNull(s.lastDeliveryAt),
      }),
    ),
    tunnel: t
      ? {
          status: t.status,
          lastError: t.lastError,
          nextAttemptAt: t.nextAttemptAt === null ? null : new Date(t.nextAttemptAt).toISOString(),
        }
      : null,
  };
}

/** Real-time is off: the question, this run's option, the saved choice, or else a pause (the tray). */
function whyOff(settings: RealtimeSettingsAccess): RealtimeOff {
  if (settings.offForThisRun()) return 'thisRun';
  if (settings.questionOpen()) return 'unanswered';
  const s = settings.read();
  return !s.tunnelEnabled && s.publicBaseUrl === null ? 'setting' : 'paused';
}

function toActivityEntry(row: ActivityRow): ActivityEntry {
  return { ...row, at: new Date(row.at).toISOString() };
}

/** The URL without a trailing slash when it is http(s); undefined otherwise. */
function httpUrl(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}
