import type { Notice, Progress } from '../../../src/app/api';
import type { ConnectionState } from '../api/types';
import type { SliceCreator } from './types';

export interface Toast extends Notice {
  id: number;
}

export interface Undo {
  /** What was done, for the toast: "Marked 5 items read". */
  message: string;
  run(): Promise<void>;
}

export interface UiSlice {
  notices: Toast[];
  progress: Progress;
  connection: ConnectionState;
  /**
   * What the main pane shows: the river (with its filter, search results over it) or another
   * feature's page ("My posts"). Picking a feed, folder or saved search returns to 'river'.
   */
  page: 'river' | 'posts';
  setPage(page: 'river' | 'posts'): void;
  /** The composer (features/publish) is open; any feature may open it (the `c` key, the tray). */
  composerOpen: boolean;
  setComposerOpen(open: boolean): void;
  pushNotice(notice: Notice): void;
  /** The last bulk change that can be undone (the Undo toast and the `z` key); null when none. */
  undo: Undo | null;
  offerUndo(undo: Undo | null): void;
  runUndo(): Promise<void>;
  dismissNotice(id: number): void;
  setProgress(progress: Progress): void;
  setConnection(state: ConnectionState): void;
}

/** At most this many toasts at once; the oldest go first. */
const MAX_NOTICES = 4;
let nextNoticeId = 1;

export const createUiSlice = (): SliceCreator<UiSlice> => (set, get) => ({
  notices: [],
  undo: null,
  offerUndo(undo) {
    set({ undo });
  },
  async runUndo() {
    const undo = get().undo;
    if (!undo) return;
    set({ undo: null });
    await undo.run();
  },
  progress: { active: 0, queued: 0 },
  connection: 'connecting',
  page: 'river',
  setPage(page) {
    set({ page });
  },
  composerOpen: false,
  setComposerOpen(composerOpen) {
    set({ composerOpen });
  },
  pushNotice(notice) {
    set((state) => {
      // The same sentence twice in a row (a flapping feed) is one toast, not a stack.
      const last = state.notices[state.notices.length - 1];
      if (last && last.message === notice.message && last.level === notice.level) return state;
      const toast: Toast = { ...notice, id: nextNoticeId++ };
      return { notices: [...state.notices, toast].slice(-MAX_NOTICES) };
    });
  },
  dismissNotice(id) {
    set((state) => ({ notices: state.notices.filter((n) => n.id !== id) }));
  },
  setProgress(progress) {
    set({ progress });
  },
  setConnection(connection) {
    set({ connection });
  },
});
