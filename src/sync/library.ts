/**
 * What both sync APIs do the same way: the subscriptions and folders as the app shows them, the
 * feeds behind a label, and marking items through the app's commands.
 */
import type { FeedView, FolderView } from '../app/api.ts';
import type { SyncBackend } from './backend.ts';

export interface Library {
  feeds: FeedView[];
  folders: FolderView[];
  /** A folder's path ('Tech/Blogs', case as kept) -> its own feeds (not its subfolders'). */
  feedsByLabel: Map<string, number[]>;
}

export async function readLibrary(backend: SyncBackend): Promise<Library> {
  const [feeds, folders] = await Promise.all([backend.app.listFeeds(), backend.app.listFolders()]);
  const feedsByLabel = new Map<string, number[]>(folders.map((f) => [f.path, []]));
  for (const feed of feeds) if (feed.folderPath) feedsByLabel.get(feed.folderPath)?.push(feed.id);
  return { feeds, folders, feedsByLabel };
}

/** The folder with this path, matched as folders are (case-insensitively). */
export function folderByPath(lib: Pick<Library, 'folders'>, path: string): FolderView | undefined {
  const want = path.trim().toLowerCase();
  return lib.folders.find((f) => f.path.toLowerCase() === want);
}

export function labelFeeds(lib: Library, path: string): number[] {
  const folder = folderByPath(lib, path);
  return folder ? (lib.feedsByLabel.get(folder.path) ?? []) : [];
}

export interface Marks {
  read?: boolean;
  starred?: boolean;
}

/** Marks items through the app's commands, then tells open rivers (one event per feed). */
export async function markItems(backend: SyncBackend, ids: readonly number[], marks: Marks): Promise<void> {
  if (ids.length === 0) return;
  if (marks.read !== undefined) await backend.app.markRead([...ids], marks.read);
  if (marks.starred !== undefined) for (const id of ids) await backend.app.setStarred(id, marks.starred);
  backend.itemsChanged(ids);
}

/** Marks read every unread item of these feeds (null: all) that arrived before `before` (ms). */
export async function markReadArrivedBefore(
  backend: SyncBackend,
  feedIds: readonly number[] | null,
  before: number,
): Promise<number> {
  const ids = backend.store.allStreamIds({ feedIds, read: false, arrivedBefore: before });
  await markItems(backend, ids, { read: true });
  return ids.length;
}
