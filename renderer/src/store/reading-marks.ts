/**
 * Reading marks read as you go (issue 35), the river slice's part that decides when: items
 * scrolled past (readSoon) and items the keys reach (keyRead) are shown read at once and sent in
 * batches; Space to the next unread item; mark all above; mark older than a day or a week; the
 * setting itself. Built over the river slice's own helpers (markReadWith, changeItems...), so
 * every mark still goes through one path to the core and to the loaded river.
 */
import type { RiverItem, TidingsApi, UndoTicket } from '../../../src/app/api';
import { offerCoreUndo } from './core-undo';
import { reportError } from './report-error';
import { findItem } from './river-merge';
import type { RiverSlice } from './river-slice';
import type { AppState } from './types';

/** readSoon and the keys' reads wait this long for more before sending them together. */
export const READ_SOON_MS = 400;
/** ...or readSoon sends at once when this many are waiting. */
const READ_SOON_MAX = 100;
/** Space looks at most this many more pages for the next unread item. */
const UNREAD_PAGES = 5;

/** Whether an item is read as the reader sees it: the core's word, or the keys' read waiting to be sent. */
export function isRead(state: Pick<RiverSlice, 'keyReads'>, item: Pick<RiverItem, 'id' | 'read'>): boolean {
  return item.read || state.keyReads[item.id] === true;
}

/** `reads` without `ids` (the same object when none of them is in it). */
export function withoutReads(reads: Record<number, true>, ids: readonly number[]): Record<number, true> {
  if (!ids.some((id) => reads[id])) return reads;
  const out = { ...reads };
  for (const id of ids) delete out[id];
  return out;
}

type Also = (state: AppState) => Partial<AppState>;

export interface ReadingMarksDeps {
  api: TidingsApi;
  set(partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)): void;
  get(): AppState;
  markReadWith(ids: number[], read: boolean, also?: Also): Promise<void>;
  changeItems(
    matches: (item: RiverItem) => boolean,
    change: (item: RiverItem) => RiverItem,
    undo: (item: RiverItem) => RiverItem,
    command: () => Promise<void>,
  ): Promise<boolean>;
  offerMarkedUndo(ids: number[]): void;
}

type MarkActions = Pick<
  RiverSlice,
  | 'setMarkReadOnScroll'
  | 'readSoon'
  | 'flushReadSoon'
  | 'selectNextUnread'
  | 'markAboveRead'
  | 'markOlderRead'
>;

export function readingMarks(deps: ReadingMarksDeps) {
  const { api, set, get } = deps;
  const readQueue = new Set<number>();
  let readTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Reads the keys make (j held down: one every 33 ms) show through `keyReads` at once and reach
   * the river's groups and the core together, a moment later. Each change of the groups
   * re-rendered the river and its rows, and each markRead made the core answer with feed rows
   * that rebuilt the sidebar's tree of 1,000 feeds (bench:river, j_cpu_ms_per_press).
   */
  let keyBatch: { ids: Set<number>; timer: ReturnType<typeof setTimeout> } | null = null;

  /** Folds the keys' reads into the river and sends them; settles when the core has them. */
  async function sendKeyReads(): Promise<void> {
    const batch = keyBatch;
    if (!batch) return;
    keyBatch = null;
    clearTimeout(batch.timer);
    const ids = [...batch.ids];
    await deps.markReadWith(ids, true, (state) => ({ keyReads: withoutReads(state.keyReads, ids) }));
  }

  /** The keys reached an item: selected and read in one store update; sent with the batch. */
  function keyRead(item: RiverItem): void {
    const select = (state: AppState) => ({ selectedItemId: item.id, revealSeq: state.revealSeq + 1 });
    if (isRead(get(), item)) {
      set(select);
      return;
    }
    set((state) => ({ ...select(state), keyReads: { ...state.keyReads, [item.id]: true as const } }));
    keyBatch ??= { ids: new Set(), timer: setTimeout(() => void sendKeyReads(), READ_SOON_MS) };
    keyBatch.ids.add(item.id);
  }

  /** An explicit mark decides these items: the keys' waiting reads of them are dropped. */
  function dropKeyReads(ids: readonly number[]): void {
    if (keyBatch) for (const id of ids) keyBatch.ids.delete(id);
  }

  const actions: MarkActions = {
    async setMarkReadOnScroll(on) {
      set({ markReadOnScroll: on });
      try {
        const settings = await api.updateSettings({ markReadOnScroll: on });
        set({ markReadOnScroll: settings.markReadOnScroll !== false });
      } catch (err) {
        set({ markReadOnScroll: !on });
        reportError(get, err, 'Could not change the setting');
      }
    },

    readSoon(itemIds) {
      const { groups } = get();
      for (const id of itemIds) {
        const item = findItem(groups, id);
        if (item && !isRead(get(), item)) readQueue.add(id);
      }
      if (readQueue.size === 0) return;
      if (readQueue.size >= READ_SOON_MAX) {
        void get().flushReadSoon();
        return;
      }
      readTimer ??= setTimeout(() => void get().flushReadSoon(), READ_SOON_MS);
    },

    async flushReadSoon() {
      if (readTimer) clearTimeout(readTimer);
      readTimer = null;
      const ids = [...readQueue];
      readQueue.clear();
      await Promise.all([sendKeyReads(), ids.length > 0 ? deps.markReadWith(ids, true) : undefined]);
    },

    async selectNextUnread() {
      const results = get().searchResults;
      const after = (items: readonly RiverItem[]) => {
        const at = items.findIndex((i) => i.id === get().selectedItemId);
        return items.slice(at + 1).find((i) => !isRead(get(), i)) ?? null;
      };
      let next = after(results ?? get().groups.flatMap((g) => g.items));
      for (let page = 0; !results && !next && get().nextCursor && page < UNREAD_PAGES; page++) {
        await get().loadMore();
        next = after(get().groups.flatMap((g) => g.items));
      }
      if (!next) return null;
      keyRead(next);
      return next.id;
    },

    async markAboveRead(itemId) {
      await sendKeyReads();
      const items = get().groups.flatMap((g) => g.items);
      const at = items.findIndex((i) => i.id === itemId);
      if (at <= 0) return;
      const ids = items
        .slice(0, at)
        .filter((i) => !isRead(get(), i))
        .map((i) => i.id);
      if (ids.length === 0) return;
      await get().markRead(ids, true);
      deps.offerMarkedUndo(ids);
    },

    async markOlderRead(hours) {
      await sendKeyReads();
      const { feedId, folderId, show } = get().filter;
      const before = Date.now() - hours * 3_600_000;
      // What the core marks, shown at once on what is loaded: the date the card shows.
      const older = (item: RiverItem) => {
        const at = Date.parse(item.date ?? item.seenAt);
        return Number.isFinite(at) && at < before;
      };
      let ticket: UndoTicket | null = null;
      const done = await deps.changeItems(
        (item) => !item.read && older(item),
        (item) => (item.read ? item : { ...item, read: true }),
        (item) => item,
        async () => {
          ticket = await api.markOlderRead({
            olderThanHours: hours,
            feedId,
            folderId,
            starredOnly: show === 'starred',
          });
        },
      );
      if (!done) return;
      if (ticket) offerCoreUndo(get, api, ticket);
      else get().pushNotice({ level: 'info', message: 'Nothing unread is that old here.' });
    },
  };

  return { keyRead, dropKeyReads, sendKeyReads, actions };
}
