/**
 * The reader's store: one SQLite file (node:sqlite) behind one object. Each concern lives in
 * its own module (feeds, folders, items, river, search, settings, retention); this file only
 * opens the database and delegates. Every multi-row write is one transaction, and WAL (set by
 * openDatabase) means a kill at any moment leaves the last committed state.
 */
import type { DatabaseSync } from 'node:sqlite';
import { type Clock, systemClock } from '../common/clock.ts';
import type { Result } from '../common/errors.ts';
import type { Item } from '../feed/model.ts';
import type { Credentials } from '../net/types.ts';
import { createContext, type StoreContext } from './context.ts';
import { moveFeedUrl } from './feed-move.ts';
import * as feeds from './feeds.ts';
import * as folders from './folders.ts';
import { listFolders } from './folders.ts';
import * as fulltext from './fulltext.ts';
import * as state from './item-state.ts';
import { type SeenAt, upsertItems, upsertItemsInSlices } from './items.ts';
import * as mute from './mute.ts';
import * as playback from './playback.ts';
import { prune } from './retention.ts';
import { getItems, riverItems } from './river.ts';
import * as saved from './saved-searches.ts';
import { STORE_MIGRATIONS } from './schema.ts';
import { type ScopedSearch, search, searchScoped } from './search.ts';
import { getSetting, setSetting } from './settings.ts';
import { openDatabase, transaction } from './sqlite.ts';
import { createSyncStore, type SyncStore } from './sync.ts';
import type {
  AddFeedInput,
  FeedMetaPatch,
  FeedRow,
  FetchStatePatch,
  FolderRow,
  ItemRow,
  MoveResult,
  PlaybackRow,
  RiverPage,
  RiverQuery,
  UpsertResult,
} from './types.ts';
import * as undo from './undo.ts';

export type { FeedSettingsRow } from './feeds.ts';
export type { FolderTotals } from './folders.ts';
export type { FullTextRow } from './fulltext.ts';
export type { OlderScope } from './item-state.ts';
export type { SeenAt } from './items.ts';
export type { MuteFilterFields, MuteFilterRow } from './mute.ts';
export type { PlaybackInput } from './playback.ts';
export type { SavedScope, SavedSearchRow } from './saved-searches.ts';
export type { SyncStore } from './sync.ts';
export type {
  AddFeedInput,
  FeedMeta,
  FeedMetaPatch,
  FeedRow,
  FeedStatus,
  FetchStatePatch,
  FolderRow,
  ItemRow,
  MoveResult,
  PlaybackRow,
  RiverPage,
  RiverQuery,
  UpsertResult,
} from './types.ts';
export { EMPTY_FEED_META } from './types.ts';

export interface StoreOptions {
  /** Stamps createdAt on new feeds; tests pass a ManualClock. */
  clock?: Clock;
}

export class Store {
  private readonly ctx: StoreContext;
  /** What the sync APIs read and keep (issue 32: src/store/sync.ts). */
  readonly sync: SyncStore;

  constructor(db: DatabaseSync, clock: Clock) {
    this.ctx = createContext(db, clock);
    this.sync = createSyncStore(this.ctx);
  }

  // Feeds
  addFeed(input: AddFeedInput): { feed: FeedRow; created: boolean } {
    return feeds.addFeed(this.ctx, input);
  }
  getFeed(id: number): FeedRow | null {
    return feeds.getFeed(this.ctx, id);
  }
  getFeedByUrl(url: string): FeedRow | null {
    return feeds.getFeedByUrl(this.ctx, url);
  }
  /** When the subscription with this id was made; null when there is none. */
  feedCreatedAt(id: number): number | null {
    return feeds.feedCreatedAt(this.ctx, id);
  }
  /** The only way credentials leave the store (for the fetcher; never for display). */
  getCredentials(id: number): Credentials | null {
    return feeds.getCredentials(this.ctx, id);
  }
  setCredentials(id: number, credentials: Credentials | null): void {
    feeds.setCredentials(this.ctx, id, credentials);
  }
  /** With unread counts; no folder first, then by folder path, then title. credentials is always null. */
  listFeeds(): FeedRow[] {
    return feeds.listFeeds(this.ctx);
  }
  /** Removes the feed and its items. Returns whether it existed. */
  removeFeed(id: number): boolean {
    return feeds.removeFeed(this.ctx, id);
  }
  /** Permanent move; merges into this feed when another already has newUrl. null if id is unknown. */
  moveFeedUrl(id: number, newUrl: string): MoveResult | null {
    return moveFeedUrl(this.ctx, id, newUrl);
  }
  updateFeedMeta(id: number, patch: FeedMetaPatch): void {
    feeds.updateFeedMeta(this.ctx, id, patch);
  }
  updateFetchState(id: number, patch: FetchStatePatch): void {
    feeds.updateFetchState(this.ctx, id, patch);
  }
  setParseNotes(id: number, notes: readonly feeds.StoredNote[]): void {
    feeds.setParseNotes(this.ctx, id, notes);
  }
  feedsWithNote(code: string): number[] {
    return feeds.feedsWithNote(this.ctx, code);
  }
  setFeedInterval(id: number, minutes: number | null): void {
    feeds.setFeedInterval(this.ctx, id, minutes);
  }
  setFeedFolder(id: number, folder: string | null): void {
    feeds.setFeedFolder(this.ctx, id, folder);
  }

  /** Title of the user's own, folder, notifications, images allow list. */
  setFeedSettings(id: number, patch: feeds.FeedSettingsRow): void {
    feeds.setFeedSettings(this.ctx, id, patch);
  }

  // Folders
  listFolders(): FolderRow[] {
    return listFolders(this.ctx);
  }
  getFolder(id: number): FolderRow | null {
    return folders.getFolder(this.ctx, id);
  }
  /** Creates the folders of a path ('A/B') that are missing; the id of the last (null for none). */
  ensureFolderPath(path: string | null): number | null {
    return folders.ensureFolderPath(this.ctx, path);
  }
  createFolder(title: string, parentId: number | null): Result<FolderRow> {
    return folders.createFolder(this.ctx, title, parentId);
  }
  renameFolder(id: number, title: string): Result<FolderRow> {
    return folders.renameFolder(this.ctx, id, title);
  }
  moveFolder(id: number, parentId: number | null): Result<FolderRow> {
    return folders.moveFolder(this.ctx, id, parentId);
  }
  /** Its feeds and subfolders move up to its parent. */
  deleteFolder(id: number): Result<true> {
    return folders.deleteFolder(this.ctx, id);
  }
  /** The feed with everything that goes when it is removed, for an undo (src/store/undo.ts). */
  snapshotFeed(id: number): undo.FeedSnapshot | null {
    return undo.snapshotFeed(this.ctx, id);
  }
  restoreFeed(snap: undo.FeedSnapshot): Result<true> {
    return undo.restoreFeed(this.ctx, snap);
  }
  /** The folder's subtree and its feeds' places, for an undo of deleteFolder. */
  snapshotFolder(id: number): undo.FolderSnapshot | null {
    return undo.snapshotFolder(this.ctx, id);
  }
  restoreFolder(snap: undo.FolderSnapshot): Result<true> {
    return undo.restoreFolder(this.ctx, snap);
  }
  /** Undo of a mute filter: every item it muted shows again, unread as it came; their ids. */
  unmuteByFilter(filterId: number): number[] {
    const ids = undo.mutedByFilter(this.ctx, filterId);
    for (const id of ids) mute.unmuteItem(this.ctx, id);
    return ids;
  }
  /** The folder and every folder under it. */
  folderSubtree(id: number): number[] {
    return folders.subtreeIds(this.ctx, id);
  }
  /** Feeds in the folder or any folder under it. */
  feedIdsInFolder(id: number): number[] {
    const ids = folders.subtreeIds(this.ctx, id);
    return (
      this.ctx
        .stmt('SELECT id FROM feeds WHERE folder_id IN (SELECT value FROM json_each(?)) ORDER BY id')
        .all(JSON.stringify(ids)) as { id: number }[]
    ).map((r) => r.id);
  }
  folderTotals(): Map<number, folders.FolderTotals> {
    return folders.folderTotals(this.ctx);
  }

  // Items
  upsertItems(feedId: number, items: readonly Item[], seenAt: SeenAt): UpsertResult {
    return upsertItems(this.ctx, feedId, items, seenAt);
  }
  /** The same, in transactions of a few hundred items with the event loop free between them. */
  upsertItemsInSlices(feedId: number, items: readonly Item[], seenAt: SeenAt): Promise<UpsertResult> {
    return upsertItemsInSlices(this.ctx, feedId, items, seenAt);
  }
  riverItems(q: RiverQuery = {}): RiverPage {
    return riverItems(this.ctx, q);
  }
  /** Items by id, in the order asked (gone ones skipped): a river re-reading changed items. */
  getItems(ids: readonly number[]): ItemRow[] {
    return getItems(this.ctx, ids);
  }
  markRead(ids: readonly number[], read: boolean): number {
    return state.markRead(this.ctx, ids, read);
  }
  markFeedRead(feedId: number): number {
    return state.markFeedRead(this.ctx, feedId);
  }
  /** Every item of these feeds (null: of all feeds). */
  markFeedsRead(feedIds: readonly number[] | null): number {
    return state.markFeedsRead(this.ctx, feedIds);
  }
  setStarred(id: number, starred: boolean): boolean {
    return state.setStarred(this.ctx, id, starred);
  }
  /** Unread items older than a time, read now (their ids, for an undo). */
  markOlderRead(scope: state.OlderScope): number[] {
    return state.markOlderRead(this.ctx, scope);
  }
  savePlayback(input: playback.PlaybackInput): boolean {
    return playback.savePlayback(this.ctx, input);
  }
  setPlayed(itemId: number, played: boolean, url: string | null): boolean {
    return playback.setPlayed(this.ctx, itemId, played, url);
  }
  getPlayback(itemId: number): PlaybackRow | null {
    return playback.getPlayback(this.ctx, itemId);
  }
  /** The reader view's cached article for an item (marks it recently used). */
  getFullText(itemId: number): fulltext.FullTextRow | null {
    return fulltext.getFullText(this.ctx, itemId);
  }
  putFullText(row: fulltext.FullTextRow, maxBytes?: number): void {
    fulltext.putFullText(this.ctx, row, maxBytes);
  }
  fullTextCacheBytes(): number {
    return fulltext.fullTextCacheBytes(this.ctx);
  }
  getItemFeedId(itemId: number): number | null {
    return state.getItemFeedId(this.ctx, itemId);
  }
  itemsByFeed(itemIds: readonly number[]): Map<number, number[]> {
    return state.itemsByFeed(this.ctx, itemIds);
  }
  unreadCount(feedId?: number | null): number {
    return state.unreadCount(this.ctx, feedId);
  }
  search(query: string, limit?: number): ItemRow[] {
    return search(this.ctx, query, limit);
  }
  searchScoped(q: ScopedSearch): ItemRow[] {
    return searchScoped(this.ctx, q);
  }

  // Saved searches and mute filters
  listSavedSearches(): saved.SavedSearchRow[] {
    return saved.listSavedSearches(this.ctx);
  }
  saveSearch(input: { id?: number; name: string; query: string; scope?: saved.SavedScope | null }) {
    return saved.saveSearch(this.ctx, input);
  }
  deleteSavedSearch(id: number): boolean {
    return saved.deleteSavedSearch(this.ctx, id);
  }
  listMuteFilters(): mute.MuteFilterRow[] {
    return mute.listMuteFilters(this.ctx);
  }
  addMuteFilter(input: mute.MuteFilterFields): Result<mute.MuteFilterRow> {
    return mute.addMuteFilter(this.ctx, input);
  }
  updateMuteFilter(id: number, input: mute.MuteFilterFields): Result<mute.MuteFilterRow> {
    return mute.updateMuteFilter(this.ctx, id, input);
  }
  deleteMuteFilter(id: number): boolean {
    return mute.deleteMuteFilter(this.ctx, id);
  }
  unmuteItem(itemId: number): boolean {
    return mute.unmuteItem(this.ctx, itemId);
  }

  // Settings
  getSetting<T>(key: string, fallback: T): T {
    return getSetting(this.ctx, key, fallback);
  }
  setSetting(key: string, value: unknown): void {
    setSetting(this.ctx, key, value);
  }

  // Retention
  prune(now: number, retentionDays: number): number {
    return prune(this.ctx, now, retentionDays);
  }

  /**
   * The connection, for sibling schemas that share this file (realtime.ts keeps its own
   * version table). Not for reading or writing the store's own tables: use the methods.
   */
  get db(): DatabaseSync {
    return this.ctx.db;
  }

  /** Runs `fn` as one transaction: several small writes, one commit (nested calls join it). */
  atomically<T>(fn: () => T): T {
    return transaction(this.ctx.db, fn);
  }

  close(): void {
    if (this.ctx.db.isOpen) {
      // Folds the WAL back into the main file so a closed store is one file.
      this.ctx.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      this.ctx.db.close();
    }
  }
}

/** The page cache's ceiling, in KiB. */
const PAGE_CACHE_KIB = 64 * 1024;

/** WAL pages between automatic checkpoints (SQLite's default is 1000, i.e. 4 MB). */
const WAL_CHECKPOINT_PAGES = 4000;

export function openStore(path: string, opts: StoreOptions = {}): Store {
  const db = openDatabase(path, STORE_MIGRATIONS);
  // Each checkpoint syncs and rewrites the pages it moves; the FTS index and the river indexes
  // rewrite the same pages many times between checkpoints, so checkpointing less often writes
  // far less (measured: bulk inserts ~30% faster). The WAL stays under ~16 MB.
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // SQLite's default page cache is 2 MB: past a few hundred thousand items every upsert and
  // search re-reads index pages from the OS (bench:poll's all-changed cycle at 10,000 feeds ran
  // 5x slower than its first fetch). 64 MB is a ceiling, filled only as the database grows.
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  return new Store(db, opts.clock ?? systemClock);
}
