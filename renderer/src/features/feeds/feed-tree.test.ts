import { describe, expect, it } from 'vitest';
import type { FeedView, FolderView } from '../../../../src/app/api';
import { feedView } from '../../testing/fixtures';
import { buildTree, feedRanks, folderChoices, orderKey, subtreeIds, visibleRows } from './feed-tree';

const folder = (id: number, title: string, parentId: number | null = null): FolderView => ({
  id,
  parentId,
  title,
  path: title,
  unread: 999, // the tree sums feed rows instead: this stale total must not show
  feedCount: 0,
});

const feed = (id: number, title: string, folderId: number | null, unread = 0): FeedView =>
  feedView(id, { title, folderId, unread });

const folders = [folder(1, 'Tech'), folder(2, 'Blogs', 1), folder(3, 'Art')];
const feeds = [
  feed(10, 'zeta unfiled', null, 1),
  feed(11, 'Alpha unfiled', null, 0),
  feed(12, 'In Tech', 1, 2),
  feed(13, 'In Blogs', 2, 5),
  feed(14, 'Stale folder', 99, 1),
];

describe('buildTree', () => {
  it('puts folders (A-Z, nested) before unfiled feeds and sums unread over subfolders', () => {
    const tree = buildTree(folders, feeds);
    expect(tree.map((n) => n.key)).toEqual(['folder:3', 'folder:1', 'feed:11', 'feed:14', 'feed:10']);
    const tech = tree[1];
    expect(tech?.kind === 'folder' && tech.unread).toBe(7);
    expect(tech?.kind === 'folder' && tech.children.map((n) => n.key)).toEqual(['folder:2', 'feed:12']);
    expect(tree[0]?.kind === 'folder' && tree[0].unread).toBe(0);
  });

  it('hides read feeds on request but keeps the selected one', () => {
    const keys = buildTree(folders, feeds, { hideRead: true, keepFeedId: 11 }).map((n) => n.key);
    expect(keys).toContain('feed:11');
    const none = buildTree(folders, feeds, { hideRead: true }).map((n) => n.key);
    expect(none).not.toContain('feed:11');
  });

  it('survives a folder cycle in bad data', () => {
    const tree = buildTree([folder(1, 'A', 2), folder(2, 'B', 1)], []);
    expect(tree).toEqual([]);
  });
});

describe('visibleRows', () => {
  it('walks All, then the open tree with levels and positions; collapsed folders hide their rows', () => {
    const tree = buildTree(folders, feeds);
    const open = visibleRows(tree, new Set());
    expect(open.map((r) => `${r.key}@${r.level}`)).toEqual([
      'all@1',
      'folder:3@1',
      'folder:1@1',
      'folder:2@2',
      'feed:13@3',
      'feed:12@2',
      'feed:11@1',
      'feed:14@1',
      'feed:10@1',
    ]);
    expect(open.find((r) => r.key === 'feed:13')?.parentKey).toBe('folder:2');
    expect(open[0]).toMatchObject({ posInSet: 1, setSize: 6 });
    expect(open.find((r) => r.key === 'feed:10')).toMatchObject({ posInSet: 6, setSize: 6 });
    const closed = visibleRows(tree, new Set([1]));
    expect(closed.map((r) => r.key)).not.toContain('folder:2');
    expect(closed.map((r) => r.key)).not.toContain('feed:12');
  });
});

describe('folder helpers', () => {
  it('lists choices parents first with depth, and knows a subtree', () => {
    const tree = buildTree(folders, feeds);
    expect(folderChoices(tree).map((c) => `${c.folder.title}:${c.depth}`)).toEqual([
      'Art:0',
      'Tech:0',
      'Blogs:1',
    ]);
    expect([...subtreeIds(folders, 1)].sort()).toEqual([1, 2]);
  });
});

describe('feed order', () => {
  it('ranks labels A-Z with numbers in order, and its key ignores counts but not titles', () => {
    const list = [feed(1, 'Feed 10', null), feed(2, 'feed 9', null), feed(3, 'Alpha', null)];
    expect([...feedRanks(list).entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id)).toEqual([3, 2, 1]);
    const counted = list.map((f) => ({ ...f, unread: f.unread + 5 }));
    expect(orderKey(counted)).toBe(orderKey(list));
    const renamed = list.map((f) => (f.id === 3 ? { ...f, title: 'Zulu' } : f));
    expect(orderKey(renamed)).not.toBe(orderKey(list));
  });
});
