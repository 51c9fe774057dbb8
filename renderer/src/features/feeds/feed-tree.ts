/**
 * The sidebar's shape, as plain data (tested in Node): "All", then folders (nested, A-Z), then
 * unfiled feeds (A-Z), and the flat list of rows a keyboard walks through given which folders are
 * collapsed. Unread totals are summed here from the feed rows, so a folder's count always agrees
 * with the counts of the feeds under it, whichever event arrived last.
 */
import type { FeedView, FolderView } from '../../../../src/app/api';
import { feedLabel } from '../../lib/group-feeds';

export interface FolderNode {
  kind: 'folder';
  key: string;
  folder: FolderView;
  /** Unread in this folder's feeds and every subfolder's. */
  unread: number;
  children: TreeNode[];
}

export interface FeedNode {
  kind: 'feed';
  key: string;
  feed: FeedView;
}

export type TreeNode = FolderNode | FeedNode;

/** One visible row: where it sits, for aria-level/-posinset/-setsize and arrow keys. */
export interface TreeRow {
  key: string;
  node: TreeNode | null;
  level: number;
  parentKey: string | null;
  posInSet: number;
  setSize: number;
}

export const ALL_KEY = 'all';
export const folderKey = (id: number) => `folder:${id}`;
export const feedKey = (id: number) => `feed:${id}`;

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * Each feed's place in A-Z order by its label (numbers in order: "Feed 9" before "Feed 10"). Sorting
 * a thousand labels with Intl.Collator costs milliseconds, and most feed changes are only counts:
 * FeedList keeps these ranks until a title or a folder changes (see `orderKey`).
 */
export function feedRanks(feeds: readonly FeedView[]): Map<number, number> {
  const sorted = [...feeds].sort((a, b) => collator.compare(feedLabel(a), feedLabel(b)));
  return new Map(sorted.map((f, i) => [f.id, i]));
}

/** Changes exactly when `feedRanks` could: ids and labels. */
export function orderKey(feeds: readonly FeedView[]): string {
  return feeds.map((f) => `${f.id}\u0001${feedLabel(f)}`).join('\u0002');
}

export function buildTree(
  folders: readonly FolderView[],
  feeds: readonly FeedView[],
  options: { hideRead?: boolean; keepFeedId?: number | null; ranks?: ReadonlyMap<number, number> } = {},
): TreeNode[] {
  const ranks = options.ranks ?? feedRanks(feeds);
  const rankOf = (f: FeedView) => ranks.get(f.id) ?? Number.MAX_SAFE_INTEGER;
  const byParent = new Map<number | null, FolderView[]>();
  const known = new Set(folders.map((f) => f.id));
  for (const folder of folders) {
    // A parent the list does not hold (a race with a delete) puts the folder at the top.
    const parent = folder.parentId !== null && known.has(folder.parentId) ? folder.parentId : null;
    const list = byParent.get(parent) ?? [];
    list.push(folder);
    byParent.set(parent, list);
  }
  const feedsIn = new Map<number | null, FeedView[]>();
  for (const feed of feeds) {
    const folder = feed.folderId !== null && known.has(feed.folderId) ? feed.folderId : null;
    const list = feedsIn.get(folder) ?? [];
    list.push(feed);
    feedsIn.set(folder, list);
  }

  const visible = (feed: FeedView) => !options.hideRead || feed.unread > 0 || feed.id === options.keepFeedId;

  function level(parent: number | null, seen: Set<number>): TreeNode[] {
    const folderNodes: FolderNode[] = [];
    for (const folder of (byParent.get(parent) ?? []).sort((a, b) => collator.compare(a.title, b.title))) {
      if (seen.has(folder.id)) continue; // a cycle in bad data must not hang the sidebar
      seen.add(folder.id);
      const children = level(folder.id, seen);
      // Hidden read feeds hold 0 unread, so the sum over what shows is the folder's total.
      const unread = children.reduce(
        (n, child) => n + (child.kind === 'folder' ? child.unread : child.feed.unread),
        0,
      );
      folderNodes.push({ kind: 'folder', key: folderKey(folder.id), folder, unread, children });
    }
    const feedNodes: FeedNode[] = (feedsIn.get(parent) ?? [])
      .filter(visible)
      .sort((a, b) => rankOf(a) - rankOf(b))
      .map((feed) => ({ kind: 'feed', key: feedKey(feed.id), feed }));
    return [...folderNodes, ...feedNodes];
  }

  return level(null, new Set());
}

/** The rows a person can reach with the arrow keys: "All" first, then the open part of the tree. */
export function visibleRows(tree: readonly TreeNode[], collapsed: ReadonlySet<number>): TreeRow[] {
  const rows: TreeRow[] = [
    { key: ALL_KEY, node: null, level: 1, parentKey: null, posInSet: 1, setSize: tree.length + 1 },
  ];
  function walk(nodes: readonly TreeNode[], depth: number, parentKey: string | null, offset: number) {
    nodes.forEach((node, index) => {
      rows.push({
        key: node.key,
        node,
        level: depth,
        parentKey,
        posInSet: index + 1 + offset,
        setSize: nodes.length + offset,
      });
      if (node.kind === 'folder' && !collapsed.has(node.folder.id))
        walk(node.children, depth + 1, node.key, 0);
    });
  }
  // "All" is the first of the top level's siblings.
  walk(tree, 1, null, 1);
  return rows;
}

/** Every folder with its depth, parents before children: for "Move to" pickers. */
export function folderChoices(tree: readonly TreeNode[]): { folder: FolderView; depth: number }[] {
  const out: { folder: FolderView; depth: number }[] = [];
  const walk = (nodes: readonly TreeNode[], depth: number) => {
    for (const node of nodes) {
      if (node.kind !== 'folder') continue;
      out.push({ folder: node.folder, depth });
      walk(node.children, depth + 1);
    }
  };
  walk(tree, 0);
  return out;
}

/** The folder ids inside `folderId`'s subtree (itself included): where it may not be moved. */
export function subtreeIds(folders: readonly FolderView[], folderId: number): Set<number> {
  const ids = new Set([folderId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const f of folders) {
      if (f.parentId !== null && ids.has(f.parentId) && !ids.has(f.id)) {
        ids.add(f.id);
        grew = true;
      }
    }
  }
  return ids;
}
