/**
 * What the application's parts share: the store, the one HTTP client, the clock, the scheduler
 * and the event bus. Built once by createTidings and handed to each use case.
 */

import type { Cloud } from '../cloud/cloud.ts';
import type { Clock } from '../common/clock.ts';
import type { ParsePool } from '../feed/parse-pool.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import type { Scheduler } from '../poll/scheduler.ts';
import type { Realtime } from '../realtime/realtime.ts';
import type { FetchLog } from '../store/fetch-log.ts';
import type { Store } from '../store/store.ts';
import type { Settings, TidingsEvents } from './api.ts';
import type { Emitter } from './emitter.ts';

export interface AppContext {
  store: Store;
  http: HttpClient;
  clock: Clock;
  scheduler: Scheduler;
  events: Emitter<TidingsEvents>;
  settings(): Settings;
  random: () => number;
  /** Cap on the time one feed may take to parse. */
  maxParseMs: number;
  /** Parses feed documents, big ones off the main thread (parse-pool.ts). */
  parser: ParsePool;
  /** rssCloud notifications (src/realtime/realtime.ts); null when real-time reading is off. */
  realtime: Realtime | null;
  /** The app's own rssCloud server on the receiver's port (/cloud); null when real-time is off. */
  ownCloud: Cloud | null;
  /** The log of every fetch (src/store/fetch-log.ts). */
  fetchLog: FetchLog;
  /** The feed row that reads the user's own posts into their river (publish-wiring.ts); null when none. */
  ownFeedId(): number | null;
}

export const DEFAULT_SETTINGS: Settings = {
  pollIntervalMin: 60,
  retentionDays: 30,
  maxItemsPerDocument: 5_000,
};
