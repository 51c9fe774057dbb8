/**
 * WebSub reading's parts, put together for realtime.ts: the subscriptions table and manager, the
 * delivery queue (into the store through `deliver`, the poll's own path), the callback the
 * receiver's server mounts at /websub, and which hub (and topic) a feed is read through.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Clock } from '../../common/clock.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { maskUrl } from '../../net/mask.ts';
import type { ActivityInput } from '../../store/realtime.ts';
import type { FeedRow } from '../../store/store.ts';
import { type WebSubRow, WebSubStore } from '../../store/websub.ts';
import { NotifyGate } from '../notify-gate.ts';
import { createWebSubCallback } from './callback.ts';
import { DeliveryQueue, type IngestResult } from './delivery-queue.ts';
import { type HubFeed, WebSubManager, type WebSubManagerDeps } from './websub-subscriptions.ts';

export interface WebSubTuning extends Pick<WebSubManagerDeps, 'retry' | 'verifyTimeoutMs' | 'timeoutMs'> {
  /** Cap on a delivered body (default 8 MiB). */
  maxBodyBytes?: number;
  /** Bytes of delivered bodies waiting to be parsed (default 32 MiB). */
  queueBytes?: number;
  /** Fallback fetches of one feed at most this often (default FALLBACK_FETCH_GAP_MS). */
  fallbackGapMs?: number;
}

export interface WebSubReadingDeps {
  db: DatabaseSync;
  http: HttpClient;
  clock: Clock;
  feeds: { getFeed(id: number): FeedRow | null; listFeeds(): FeedRow[] };
  fetchNow(feedId: number): void;
  log(entry: ActivityInput): void;
  onChange(feedId: number): void;
  deliver?(
    feedId: number,
    body: Uint8Array,
    contentType: string | null,
    link: string | null,
  ): Promise<IngestResult>;
  tuning?: WebSubTuning;
}

/**
 * A delivery that cannot be taken (too large, empty, not a feed) fetches the feed instead, at
 * most once per feed this often, with one more at the end of the gap when asked meanwhile: 203
 * header-only POSTs on an unsigned callback made 170 fetches of the publisher's feed in 3.5 s.
 */
export const FALLBACK_FETCH_GAP_MS = 30_000;

export function createWebSubReading(deps: WebSubReadingDeps) {
  const store = new WebSubStore(deps.db);
  const fallback = new NotifyGate({
    clock: deps.clock,
    fetchNow: deps.fetchNow,
    gapMs: deps.tuning?.fallbackGapMs ?? FALLBACK_FETCH_GAP_MS,
    spaceAll: true,
  });
  const fetchInstead = (feedId: number) => void fallback.notified(feedId);
  const manager = new WebSubManager({
    store,
    http: deps.http,
    clock: deps.clock,
    feeds: {
      get: (id) => {
        const f = deps.feeds.getFeed(id);
        return f ? hubFor(f) : null;
      },
      list: () => deps.feeds.listFeeds().flatMap((f) => hubFor(f) ?? []),
    },
    log: deps.log,
    onChange: deps.onChange,
    ...deps.tuning,
  });
  const queue = new DeliveryQueue({
    ingest: (feedId, body, type, link) =>
      deps.deliver ? deps.deliver(feedId, body, type, link) : Promise.resolve('notFeed' as const),
    fetchNow: fetchInstead,
    maxBytes: deps.tuning?.queueBytes,
    onDone: (feedId, result, note) => {
      if (result === 'stored' || result === 'skipped') return; // the delivery's own entry says it all
      deps.log({
        at: deps.clock.now(),
        direction: 'in',
        peer: 'hub',
        procedure: 'websub deliver',
        feedUrl: maskUrl(store.get(feedId)?.topic ?? ''),
        result: note,
        ok: result === 'fetched',
        latencyMs: null,
      });
    },
  });
  const callback = createWebSubCallback({
    manager,
    queue,
    clock: deps.clock,
    log: deps.log,
    fetchNow: fetchInstead,
    maxBodyBytes: deps.tuning?.maxBodyBytes,
  });
  /** The feed's hub and topic, given the subscription it has (see hubOf). */
  const hubFor = (f: FeedRow) => hubOf(f, store.get(f.id));
  return { store, manager, queue, callback, fallback, hubOf: hubFor, hubRefused };
}

/**
 * The hub a feed is read through, or null (no http(s) hub, gone, or a login the hub lacks). The
 * first the feed names, then the one it is subscribed to while that one serves; when that one
 * refuses, the next the feed names (the last that refuses stays, and the feed's cloud serves).
 */
export function hubOf(f: FeedRow, row: WebSubRow | null): HubFeed | null {
  if (f.status === 'gone' || f.hasCredentials) return null;
  const hubs = (f.meta.hubs ?? []).filter(isHttp);
  if (hubs.length === 0) return null;
  let hub = hubs[0]!;
  const at = row ? hubs.indexOf(row.hub) : -1;
  if (row && at >= 0) hub = hubRefused(row) ? (hubs[at + 1] ?? row.hub) : row.hub;
  const self = f.meta.self && isHttp(f.meta.self) ? f.meta.self : null;
  return { id: f.id, hub, topic: self ?? f.url };
}

/** The hub said no (denied, 4xx) or failed three times in a row: the feed's cloud may serve. */
export function hubRefused(row: WebSubRow | null): boolean {
  return row !== null && (row.status === 'denied' || (row.status === 'failed' && row.failures >= 3));
}

const isHttp = (u: string): boolean => /^https?:\/\//i.test(u);
