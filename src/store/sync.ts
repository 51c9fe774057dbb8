/** The store's side of the sync APIs (issue 32), as one object the sync doors are handed. */
import type { StoreContext } from './context.ts';
import * as account from './sync-account.ts';
import * as streams from './sync-streams.ts';

export type { SyncAccountRow, SyncApiName } from './sync-account.ts';
export type {
  FeverItemsQuery,
  StreamFilter,
  StreamPage,
  StreamPageQuery,
  SyncItemRow,
} from './sync-streams.ts';

export interface SyncStore {
  account(): account.SyncAccountRow;
  setEnabled(enabled: boolean): void;
  setCredentials(creds: Parameters<typeof account.setSyncCredentials>[1]): void;
  addSession(tokenHash: string, api: account.SyncApiName, at: number): void;
  hasSession(tokenHash: string): boolean;
  touchSession(tokenHash: string, at: number): void;
  sessionStats(): { count: number; lastUsedAt: number | null };
  trimSessions(keep: number): void;
  streamIds(f: streams.StreamFilter, q: streams.StreamPageQuery): streams.StreamPage;
  allStreamIds(f: streams.StreamFilter): number[];
  itemsByIds(ids: readonly number[], oldestFirst: boolean): streams.SyncItemRow[];
  newestArrivalByFeed(): Map<number, number>;
  feverItems(q: streams.FeverItemsQuery, limit: number): streams.SyncItemRow[];
  visibleItemCount(): number;
  idsWhere(which: 'unread' | 'starred'): number[];
  itemIdsByGuids(feedId: number, guids: readonly string[]): Map<string, number>;
}

export function createSyncStore(ctx: StoreContext): SyncStore {
  return {
    account: () => account.getSyncAccount(ctx),
    setEnabled: (enabled) => account.setSyncEnabled(ctx, enabled),
    setCredentials: (creds) => account.setSyncCredentials(ctx, creds),
    addSession: (hash, api, at) => account.addSyncSession(ctx, hash, api, at),
    hasSession: (hash) => account.hasSyncSession(ctx, hash),
    touchSession: (hash, at) => account.touchSyncSession(ctx, hash, at),
    sessionStats: () => account.syncSessionStats(ctx),
    trimSessions: (keep) => account.trimSyncSessions(ctx, keep),
    streamIds: (f, q) => streams.streamIds(ctx, f, q),
    allStreamIds: (f) => streams.allStreamIds(ctx, f),
    itemsByIds: (ids, oldestFirst) => streams.syncItemsByIds(ctx, ids, oldestFirst),
    newestArrivalByFeed: () => streams.newestArrivalByFeed(ctx),
    feverItems: (q, limit) => streams.feverItems(ctx, q, limit),
    visibleItemCount: () => streams.visibleItemCount(ctx),
    idsWhere: (which) => streams.idsWhere(ctx, which),
    itemIdsByGuids: (feedId, guids) => streams.itemIdsByGuids(ctx, feedId, guids),
  };
}
