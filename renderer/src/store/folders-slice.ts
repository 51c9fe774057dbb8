import type {
  ApiResult,
  FeedSettingsPatch,
  FeedView,
  FolderView,
  TidingsApi,
  UndoTicket,
} from '../../../src/app/api';
import { errorMessage } from '../api/api-error';
import { coalesce } from '../lib/coalesce';
import { offerCoreUndo } from './core-undo';
import { reportError } from './report-error';
import type { SliceCreator } from './types';

/**
 * The folder tree as the core keeps it (nested, with unread totals that include subfolders), and
 * the sidebar's commands on folders and on a feed's own settings (rename, move, interval...).
 * Every answer is applied as the core gave it; 'folders.changed' reloads the tree.
 */
export interface FoldersSlice {
  folders: FolderView[];
  loadFolders(): Promise<void>;
  createFolder(title: string, parentId?: number | null): Promise<ApiResult<FolderView>>;
  renameFolder(folderId: number, title: string): Promise<ApiResult<FolderView>>;
  moveFolder(folderId: number, parentId: number | null): Promise<ApiResult<FolderView>>;
  deleteFolder(folderId: number): Promise<ApiResult<UndoTicket>>;
  markFolderRead(folderId: number): Promise<void>;
  /** Title, folder, interval, notifications, images: the answer replaces the feed's row. */
  updateFeed(feedId: number, patch: FeedSettingsPatch): Promise<ApiResult<FeedView>>;
}

/** A command that threw (transport down) becomes a failed result the caller can show. */
function failed<T>(err: unknown): ApiResult<T> {
  return { ok: false, error: { code: 'client', message: errorMessage(err) } };
}

export const createFoldersSlice =
  (api: TidingsApi): SliceCreator<FoldersSlice> =>
  (set, get) => {
    // Bursts of 'folders.changed' (an OPML import) collapse into one request + one after.
    const loadFolders = coalesce(async () => {
      try {
        set({ folders: await api.listFolders() });
      } catch (err) {
        reportError(get, err, 'Could not load your folders');
      }
    });

    async function afterChange<T>(run: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
      try {
        const result = await run();
        if (result.ok) void get().loadFolders();
        return result;
      } catch (err) {
        reportError(get, err);
        return failed(err);
      }
    }

    return {
      folders: [],

      loadFolders,

      createFolder: (title, parentId = null) => afterChange(() => api.createFolder(title.trim(), parentId)),
      renameFolder: (folderId, title) => afterChange(() => api.renameFolder(folderId, title.trim())),
      moveFolder: (folderId, parentId) => afterChange(() => api.moveFolder(folderId, parentId)),

      async deleteFolder(folderId) {
        const result = await afterChange(() => api.deleteFolder(folderId));
        if (result.ok) {
          // Its feeds moved up a level: their rows change, and a river of that folder is gone.
          void get().loadFeeds();
          if (get().filter.folderId === folderId) get().setFilter({ folderId: null });
          offerCoreUndo(get, api, result.value);
        }
        return result;
      },

      async markFolderRead(folderId) {
        try {
          // What is about to be marked, for the Undo toast (issue 17).
          const unread = await get().unreadIdsIn({ feedId: null, folderId });
          await api.markFolderRead(folderId);
          get().offerReadUndo(unread);
          set((state) => ({
            folders: state.folders.map((f) => (f.id === folderId ? { ...f, unread: 0 } : f)),
          }));
          void get().loadFolders();
          void get().loadFeeds();
          void get().loadRiver();
        } catch (err) {
          reportError(get, err, 'Could not mark the folder read');
        }
      },

      async updateFeed(feedId, patch) {
        try {
          const result = await api.updateFeed(feedId, patch);
          if (result.ok) {
            get().upsertFeed(result.value);
            if ('folderId' in patch) void get().loadFolders();
          }
          return result;
        } catch (err) {
          reportError(get, err);
          return failed(err);
        }
      },
    };
  };
