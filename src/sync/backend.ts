/**
 * What the sync doors stand on (ARCHITECTURE, "Sync"): the app's own commands, the ones the
 * renderer calls, so a read or a star from a phone fires the same events and the desktop river
 * moves at once; and the reader's store, read directly for streams (never a copy). src/app/
 * sync-wiring.ts builds it from the running app.
 */
import type { TidingsApi } from '../app/api.ts';
import type { Clock } from '../common/clock.ts';
import type { SyncStore } from '../store/sync.ts';

export type SyncCommands = Pick<
  TidingsApi,
  | 'listFeeds'
  | 'listFolders'
  | 'markRead'
  | 'setStarred'
  | 'subscribe'
  | 'unsubscribe'
  | 'updateFeed'
  | 'createFolder'
  | 'renameFolder'
  | 'moveFolder'
  | 'deleteFolder'
  | 'exportOpml'
>;

export interface SyncBackend {
  store: SyncStore;
  app: SyncCommands;
  clock: Pick<Clock, 'now'>;
  /** A subscription's id by its exact URL; null when there is none. */
  feedIdByUrl(url: string): number | null;
  /** Another device changed these items' read or starred state: open rivers re-read them. */
  itemsChanged(itemIds: readonly number[]): void;
  /** A feed's icon as bytes (Fever sends icons inline); null when it cannot be had. */
  fetchIcon(url: string): Promise<{ type: string; body: Uint8Array } | null>;
}
