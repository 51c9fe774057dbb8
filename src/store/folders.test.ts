import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store.ts';
import { makeItem } from './test-support.ts';

let store: Store;
beforeEach(() => {
  store = openStore(':memory:');
});
afterEach(() => store.close());

const paths = () => {
  const rows = store.listFolders();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const pathOf = (id: number): string => {
    const r = byId.get(id)!;
    return r.parentId === null ? r.title : `${pathOf(r.parentId)}/${r.title}`;
  };
  return rows.map((r) => pathOf(r.id)).sort();
};

describe('folders', () => {
  it('files "Tech/Blogs" as two nested folders, whatever the case of a later path', () => {
    const a = store.ensureFolderPath('Tech/Blogs');
    const b = store.ensureFolderPath(' tech / BLOGS ');
    expect(a).toBe(b);
    expect(paths()).toEqual(['Tech', 'Tech/Blogs']);
  });

  it('deleting a folder merges its subfolders into same-named ones above, keeping every feed', () => {
    const top = store.ensureFolderPath('Top')!;
    const dupe = store.ensureFolderPath('Top/News')!;
    const mid = store.ensureFolderPath('Top/Mid')!;
    const inner = store.ensureFolderPath('Top/Mid/News')!;
    const deep = store.ensureFolderPath('Top/Mid/News/Deep')!;
    const f1 = store.addFeed({ url: 'https://1/' }).feed.id;
    const f2 = store.addFeed({ url: 'https://2/' }).feed.id;
    const f3 = store.addFeed({ url: 'https://3/' }).feed.id;
    store.setFeedSettings(f1, { folderId: mid });
    store.setFeedSettings(f2, { folderId: inner });
    store.setFeedSettings(f3, { folderId: deep });
    expect(store.deleteFolder(mid)).toEqual({ ok: true, value: true });
    expect(paths()).toEqual(['Top', 'Top/News', 'Top/News/Deep']);
    expect(store.getFeed(f1)!.folderId).toBe(top);
    expect(store.getFeed(f2)!.folderId).toBe(dupe);
    expect(store.getFeed(f3)!.folder).toBe('Top/News/Deep');
  });

  it('totals unread through every level and lists a folder subtree', () => {
    const a = store.ensureFolderPath('A')!;
    const ab = store.ensureFolderPath('A/B')!;
    const abc = store.ensureFolderPath('A/B/C')!;
    const f = store.addFeed({ url: 'https://f/', folder: 'A/B/C' }).feed.id;
    const g = store.addFeed({ url: 'https://g/', folder: 'A' }).feed.id;
    store.upsertItems(f, [makeItem('1'), makeItem('2')], 1);
    store.upsertItems(g, [makeItem('3')], 1);
    const totals = store.folderTotals();
    expect([a, ab, abc].map((id) => totals.get(id)!.unread)).toEqual([3, 2, 2]);
    expect(store.feedIdsInFolder(ab)).toEqual([f]);
    expect(store.folderSubtree(a).sort()).toEqual([a, ab, abc].sort());
  });

  it('renames to a different case of its own name, and refuses a sibling’s name', () => {
    const x = store.createFolder('news', null);
    store.createFolder('World', null);
    if (!x.ok) throw new Error('setup');
    expect(store.renameFolder(x.value.id, 'News')).toMatchObject({ ok: true, value: { title: 'News' } });
    expect(store.renameFolder(x.value.id, 'world')).toMatchObject({
      ok: false,
      error: { code: 'folder.exists' },
    });
  });
});
