/**
 * The application: wires store, HTTP client, parser and scheduler into the one TidingsApi.
 * Electron main and browser mode both hold one of these and carry it over their transport.
 */
import { join } from 'node:path';
import { type Clock, systemClock, type TimerHandle } from '../common/clock.ts';
import { DEFAULT_MAX_ITEMS } from '../feed/parse.ts';
import { createParsePool, type ParsePoolOptions } from '../feed/parse-pool.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import type { HostPolicy } from '../net/types.ts';
import { Scheduler } from '../poll/scheduler.ts';
import { FetchLog } from '../store/fetch-log.ts';
import { openStore } from '../store/store.ts';
import type { LoginLimits } from '../sync/login-guard.ts';
import type {
  ImagePolicy,
  Progress,
  RiverPage,
  RiverQuery,
  Settings,
  TidingsClient,
  TidingsEvents,
} from './api.ts';
import { apiResult } from './api-result.ts';
import { type AppContext, DEFAULT_SETTINGS } from './context.ts';
import type { Emitter } from './emitter.ts';
import { feedViewOf } from './feed-view.ts';
import { fetchLogEntries } from './fetch-log-view.ts';
import { habitsApi } from './habits.ts';
import { moveFeed } from './move-feed.ts';
import { attachPublish } from './publish-wiring.ts';
import { readingApi } from './reading.ts';
import {
  activityEntries,
  attachRealtime,
  type RealtimeOptions,
  realtimeInfoOf,
  realtimeSettings,
} from './realtime-wiring.ts';
import { emitStatus, refreshFeed, replanPolling } from './refresh.ts';
import { type AppOnFolder, replaceable } from './replaceable.ts';
import { river, toRiverItem } from './river.ts';
import { cancelSubscribe, exportOpml, importOpml, restoreFeed, subscribe, unsubscribe } from './subscribe.ts';
import { attachSync, type SyncWiring } from './sync-wiring.ts';
import { UndoLog } from './undo.ts';
import { APP_VERSION, PROJECT_URL } from './version.ts';

export interface TidingsOptions {
  /** Where the database lives (':memory:' is not supported here: give a folder). */
  dataDir: string;
  clock?: Clock;
  http?: HttpClient;
  /** Which hosts feeds may live on. Loopback is allowed by default on a desktop (local feeds). */
  hostPolicy?: Partial<HostPolicy>;
  globalConcurrency?: number;
  perHostConcurrency?: number;
  random?: () => number;
  maxParseMs?: number;
  /** When feed documents are parsed off the main thread (parse-pool.ts defaults). */
  parsePool?: ParsePoolOptions;
  /**
   * Real-time reading (rssCloud receiver, tunnel, subscriptions: src/app/realtime-wiring.ts).
   * Absent or null: off, nothing listens. Values here win over saved settings for this run.
   */
  realtime?: RealtimeOptions | null;
  /** The writer's retry back-off (tests shorten it). */
  publishRetry?: { baseMs?: number; capMs?: number };
  /** How often the writer's outbox looks for work nobody announced (default 5 s; tests lengthen it). */
  publishPollMs?: number;
  /** Password checks the sync APIs allow per minute (src/sync/login-guard.ts defaults; tests lower them). */
  syncLoginLimits?: Partial<LoginLimits>;
}

export type { RealtimeOptions } from './realtime-wiring.ts';

export interface Tidings extends TidingsClient {
  /** Schedules every feed and starts polling. */
  start(): void;
  /**
   * Stops polling, waits for running fetches, closes the database. `forGood` (the user is leaving
   * for good, not just closing): WebSub hubs are told to stop delivering first.
   */
  stop(opts?: { forGood?: boolean }): Promise<void>;
  /** After start(): null once real-time reading listens (or when it is off), else why it could not. */
  realtimeStarted(): Promise<unknown>;
  /**
   * The Google Reader and Fever doors (issue 32), for servers other than the receiver's to mount
   * (browser mode), and where they tell the app they serve them (for Settings' addresses).
   */
  readonly sync: Pick<SyncWiring, 'doors' | 'servedAt'>;
  /** Every event, for transports that forward them all. */
  onAny(listener: <E extends keyof TidingsEvents>(event: E, payload: TidingsEvents[E]) => void): () => void;
  readonly context: AppContext;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const DEFAULT_IMAGES: ImagePolicy = 'blockTrackers';
const imagePolicy = (v: unknown): ImagePolicy =>
  v === 'load' || v === 'blockTrackers' || v === 'clickToLoad' ? v : DEFAULT_IMAGES;

/**
 * The app on a data folder, as transports hold it: one object for the whole run, behind which a
 * restore can close the folder's data and open the restored data (src/app/replaceable.ts).
 */
export function createTidings(options: TidingsOptions): Tidings {
  return replaceable(options, openTidings);
}

/** The app on the folder's data as it is now; `events` outlives it (replaceable.ts). */
function openTidings(options: TidingsOptions, events: Emitter<TidingsEvents>): AppOnFolder {
  const clock = options.clock ?? systemClock;
  const store = openStore(join(options.dataDir, 'tidings.db'), { clock });
  // Private networks only when the person allowed them (issue 9: "allow local network feeds");
  // loopback stays open on a desktop (local feeds, tests). Read live: the setting applies at once.
  let allowLocal = store.getSetting<unknown>('allowLocalNetworkFeeds', false) === true;
  const hostPolicy: HostPolicy = {
    allowLoopback: options.hostPolicy?.allowLoopback ?? true,
    get allowPrivate() {
      return options.hostPolicy?.allowPrivate ?? allowLocal;
    },
  };
  const http =
    options.http ??
    createHttpClient({
      version: APP_VERSION,
      projectUrl: PROJECT_URL,
      hostPolicy,
      clock,
    });
  const hosts = new Map<number, string>();
  const undoLog = new UndoLog();
  const rtSettings = realtimeSettings(store, options.realtime ?? null);
  const settings = (): Settings => ({
    pollIntervalMin: store.getSetting('pollIntervalMin', DEFAULT_SETTINGS.pollIntervalMin),
    retentionDays: store.getSetting('retentionDays', DEFAULT_SETTINGS.retentionDays),
    maxItemsPerDocument: store.getSetting('maxItemsPerDocument', DEFAULT_MAX_ITEMS),
    ...rtSettings.read(),
    images: imagePolicy(store.getSetting('images', DEFAULT_IMAGES)),
    allowLocalNetworkFeeds: allowLocal,
    markReadOnScroll: store.getSetting<unknown>('markReadOnScroll', true) !== false,
  });

  const ctx: AppContext = {
    store,
    http,
    clock,
    events,
    settings,
    random: options.random ?? Math.random,
    maxParseMs: options.maxParseMs ?? 5_000,
    parser: createParsePool(options.parsePool),
    realtime: null,
    ownCloud: null,
    ownFeedId: () => null,
    fetchLog: new FetchLog(store.db),
    scheduler: new Scheduler({
      clock,
      run: async (feedId, why) => {
        await refreshFeed(ctx, feedId, why);
      },
      hostOf: (feedId) => {
        let host = hosts.get(feedId);
        if (host === undefined) {
          const url = store.getFeed(feedId)?.url;
          host = url ? safeHost(url) : '';
          hosts.set(feedId, host);
        }
        return host;
      },
      globalConcurrency: options.globalConcurrency ?? 8,
      perHostConcurrency: options.perHostConcurrency ?? 2,
      onProgress: (p) => events.emit('progress', p),
    }),
  };

  // The writer (src/publish via publish-wiring.ts): its hosted site rides on the receiver's server.
  const publish = attachPublish(ctx, {
    dataDir: options.dataDir,
    ...(options.publishRetry ? { retry: options.publishRetry } : {}),
    ...(options.publishPollMs !== undefined ? { pollMs: options.publishPollMs } : {}),
  });
  // Reading on other devices: its doors ride on the receiver's server too (loopback and the tunnel).
  // The app object is built below; the doors call its commands once it exists.
  let self: AppOnFolder | null = null;
  const sync = attachSync(ctx, () => self!, {
    ...(options.syncLoginLimits ? { loginLimits: options.syncLoginLimits } : {}),
  });
  const realtime = options.realtime
    ? attachRealtime(ctx, {
        dataDir: options.dataDir,
        options: options.realtime,
        settings: rtSettings,
        extra: [publish.mount, ...sync.doors.mounts],
      })
    : null;

  const habits = habitsApi(ctx, undoLog);

  let pruneTimer: TimerHandle | null = null;
  const prune = () => {
    store.prune(clock.now(), settings().retentionDays);
    pruneTimer = clock.setTimer(DAY_MS, prune);
  };

  const api: AppOnFolder = {
    context: ctx,
    sync: { doors: sync.doors, servedAt: sync.servedAt },
    start() {
      prune();
      const now = clock.now();
      for (const feed of store.listFeeds()) {
        if (feed.status !== 'gone') ctx.scheduler.schedule(feed.id, feed.nextDueAt ?? now);
      }
      ctx.scheduler.start();
      realtime?.start();
      publish.start();
    },
    realtimeStarted: async () => (realtime ? await realtime.started() : null),
    async stop(opts) {
      pruneTimer?.cancel();
      // The receiver's server (which serves the hosted site) closes before publish.db does.
      await realtime?.stop(opts);
      await publish.stop();
      // A huge document being read is not waited for (its feed is read again next start).
      const parsing = Promise.all([ctx.parser.close(), habits.close()]);
      await ctx.scheduler.stop();
      await parsing;
      http.close();
      ctx.fetchLog.flush();
      store.close();
    },
    on: (event, listener) => events.on(event, listener),
    onAny: (listener) => events.onAny(listener),

    subscribe: async (input) => apiResult(await subscribe(ctx, input)),
    unsubscribe: async (feedId) => {
      const snap = store.snapshotFeed(feedId);
      hosts.delete(feedId);
      ctx.realtime?.onFeedRemoved(feedId);
      unsubscribe(ctx, feedId);
      // Its fetch log goes with it, kept aside so an Undo brings the feed back with its history.
      const log = ctx.fetchLog.take(feedId);
      if (!snap) return null;
      const name = String(snap.feed.custom_title ?? snap.feed.title ?? snap.feed.url);
      return undoLog.record(`Unsubscribed from ${name}`, {
        restore: () => {
          const back = restoreFeed(ctx, snap);
          if (back.ok) ctx.fetchLog.putBack(log);
          return back;
        },
      });
    },
    undo: async (undoId) => apiResult(undoLog.undo(undoId)),
    listFeeds: async () => {
      const current = settings();
      return store.listFeeds().map((f) => feedViewOf(ctx, f, current));
    },
    importOpml: async (text) => apiResult(await importOpml(ctx, text)),
    exportOpml: async () => exportOpml(ctx),
    refresh: async (feedId) => {
      // Refresh all reads the list once (a read of each row again cost 10,000 reads).
      const feeds = feedId == null ? store.listFeeds() : [store.getFeed(feedId)];
      for (const feed of feeds) {
        if (!feed) continue;
        // The user asked: a gone feed gets one more try, and a failure does not add to the back-off.
        if (feed.status === 'gone') store.updateFetchState(feed.id, { status: 'pending' });
        ctx.scheduler.fetchNow(feed.id, { asked: true });
      }
    },
    river: async (query: RiverQuery): Promise<RiverPage> => river(ctx, query),
    markRead: async (itemIds, read) => {
      const touched = store.itemsByFeed(itemIds).keys();
      store.markRead(itemIds, read);
      for (const feedId of touched) emitStatus(ctx, feedId);
    },
    markFeedRead: async (feedId) => {
      store.markFeedRead(feedId);
      emitStatus(ctx, feedId);
    },
    setStarred: async (itemId, starred) => {
      store.setStarred(itemId, starred);
    },
    search: async (query, limit) => {
      const feeds = new Map(store.listFeeds().map((f) => [f.id, f]));
      return store
        .search(query, clamp(limit ?? 50, 1, 200))
        .map((row) => toRiverItem(row, feeds.get(row.feedId)));
    },
    riverItemsById: async (itemIds) => {
      const rows = store.getItems(itemIds.filter((id) => Number.isInteger(id)));
      const feeds = new Map(rows.map((r) => [r.feedId, store.getFeed(r.feedId) ?? undefined]));
      return rows.map((row) => toRiverItem(row, feeds.get(row.feedId)));
    },
    getSettings: async () => settings(),
    updateSettings: async (patch) => {
      if (patch.pollIntervalMin !== undefined) {
        store.setSetting('pollIntervalMin', clamp(Math.round(patch.pollIntervalMin), 5, 24 * 60));
      }
      if (patch.retentionDays !== undefined) {
        store.setSetting('retentionDays', clamp(Math.round(patch.retentionDays), 1, 3650));
      }
      if (patch.maxItemsPerDocument !== undefined) {
        const before = settings().maxItemsPerDocument ?? DEFAULT_MAX_ITEMS;
        const after = clamp(Math.round(patch.maxItemsPerDocument), 10, 1_000_000);
        store.setSetting('maxItemsPerDocument', after);
        // Feeds that had items left out are read again in full now (an unchanged document would
        // otherwise be skipped by its validators until it changes).
        if (after > before) {
          for (const id of store.feedsWithNote('feed.itemsCapped')) {
            store.updateFetchState(id, { etag: null, lastModified: null, bodyHash: null });
            ctx.scheduler.fetchNow(id);
          }
        }
      }
      if (patch.images !== undefined) store.setSetting('images', imagePolicy(patch.images));
      if (typeof patch.markReadOnScroll === 'boolean')
        store.setSetting('markReadOnScroll', patch.markReadOnScroll);
      if (typeof patch.allowLocalNetworkFeeds === 'boolean') {
        allowLocal = patch.allowLocalNetworkFeeds;
        store.setSetting('allowLocalNetworkFeeds', allowLocal);
      }
      if (rtSettings.update(patch)) ctx.realtime?.reconfigure(rtSettings.target());
      // A new default interval applies now, not after each feed's next fetch; a shorter
      // retention prunes now. Rows are refetched for their new delivery lines.
      if (patch.pollIntervalMin !== undefined) {
        for (const feed of store.listFeeds()) replanPolling(ctx, feed.id);
      }
      if (patch.retentionDays !== undefined) store.prune(clock.now(), settings().retentionDays);
      events.emit('feeds.changed', { count: store.listFeeds().length });
      return settings();
    },
    progress: async (): Promise<Progress> => ctx.scheduler.stats(),
    activity: async (limit) => activityEntries(ctx, clamp(limit ?? 100, 1, 2000)),
    fetchLog: async (query) => fetchLogEntries(ctx, query),
    realtimeInfo: async () => realtimeInfoOf(ctx, rtSettings),
    answerTunnelQuestion: async (open) => {
      if (rtSettings.answer(open === true)) ctx.realtime?.reconfigure(rtSettings.target());
      return realtimeInfoOf(ctx, rtSettings);
    },
    ...publish.api,
    cancelSubscribe: async (requestId) => cancelSubscribe(ctx, requestId),
    moveFeed: async (feedId, url) => {
      const moved = apiResult(await moveFeed(ctx, feedId, url));
      hosts.delete(feedId); // the scheduler's per-host limit follows the new address
      return moved;
    },
    ...readingApi(ctx, undoLog),
    ...sync.api,
    markOlderRead: habits.markOlderRead,
    fullText: habits.fullText,
    savePlayback: habits.savePlayback,
    setPlayed: habits.setPlayed,
    nowPlaying: habits.nowPlaying,
    setNowPlaying: habits.setNowPlaying,
  };
  self = api;
  return api;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(n) ? n : lo));

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
