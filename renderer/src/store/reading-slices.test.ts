/**
 * The sidebar's and search's store behaviour against a hand-driven stand-in for the transport:
 * search scope follows the river's selection, a scope change re-runs the query, an add selects
 * its feed (new or already followed), and folder/feed commands refresh what they change.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult, FeedView, SearchRequest, SearchResults } from '../../../src/app/api';
import { apiWith, feedView } from '../testing/fixtures';
import { createAppStore } from './store';

const feed = (id: number): FeedView => feedView(id);

const empty: SearchResults = { hits: [], terms: [] };
const recordInto = (asked: SearchRequest[]) => async (request: SearchRequest) => {
  asked.push(request);
  return empty;
};
const riverPage = async () => ({ groups: [], nextCursor: null });

describe('search scope', () => {
  it('is the selected feed, then the selected folder, else everything', async () => {
    const asked: SearchRequest[] = [];
    const store = createAppStore(apiWith({ searchItems: recordInto(asked), river: riverPage }));
    store.getState().setFilter({ feedId: 7, folderId: null });
    await store.getState().search('harbour');
    store.getState().clearSearch();
    store.getState().setFilter({ feedId: null, folderId: 3 });
    await store.getState().search('harbour');
    store.getState().clearSearch();
    store.getState().setFilter({ feedId: null, folderId: null });
    await store.getState().search('harbour');
    expect(asked.map((r) => r.scope)).toEqual([
      { kind: 'feed', feedId: 7 },
      { kind: 'folder', folderId: 3 },
      { kind: 'all' },
    ]);
  });

  it('re-runs the query when the scope changes, and keeps the chosen scope while typing on', async () => {
    const asked: SearchRequest[] = [];
    const store = createAppStore(apiWith({ searchItems: recordInto(asked), river: riverPage }));
    store.getState().setFilter({ feedId: 7 });
    await store.getState().search('ferry');
    store.getState().setSearchScope({ kind: 'all' });
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    await store.getState().search('ferry OR port');
    expect(asked.map((r) => [r.query, r.scope?.kind])).toEqual([
      ['ferry', 'feed'],
      ['ferry', 'all'],
      ['ferry OR port', 'all'],
    ]);
  });

  it('keeps where each hit matched beside the hit items', async () => {
    const item = { id: 5, feedId: 1, title: 'Ferry news' } as SearchResults['hits'][number]['item'];
    const store = createAppStore(
      apiWith({
        searchItems: async () => ({
          hits: [
            { item, feedTitle: 'F', titleRanges: [[0, 5]], snippet: 'a ferry', snippetRanges: [[2, 7]] },
          ],
          terms: ['ferry'],
        }),
        river: riverPage,
      }),
    );
    await store.getState().search('ferry');
    expect(store.getState().searchResults).toEqual([item]);
    expect(store.getState().searchHits[5]?.titleRanges).toEqual([[0, 5]]);
    expect(store.getState().searchTerms).toEqual(['ferry']);
  });
});

describe('adding a feed selects it', () => {
  it('selects a new feed, and the feed already followed', async () => {
    let answer: ApiResult<FeedView> = { ok: true, value: feed(4) };
    const store = createAppStore(apiWith({ subscribe: async () => answer, river: riverPage }));
    await store.getState().addFeed('http://127.0.0.1/4.xml');
    expect(store.getState().filter.feedId).toBe(4);
    store.getState().setFilter({ feedId: null });
    answer = {
      ok: false,
      error: { code: 'already_subscribed', message: 'You already follow it.', feedId: 4 },
    };
    await store.getState().addFeed('http://127.0.0.1/4.xml');
    expect(store.getState().filter.feedId).toBe(4);
    store.getState().setFilter({ feedId: null });
    answer = { ok: false, error: { code: 'feed.broken', message: 'broken' } };
    await store.getState().addFeed('http://127.0.0.1/x.xml');
    expect(store.getState().filter.feedId).toBeNull();
  });
});

describe('folders', () => {
  it('a deleted folder that was the river falls back to All, and its feeds are reloaded', async () => {
    const listFeeds = vi.fn(async () => [feed(1)]);
    const store = createAppStore(
      apiWith({
        deleteFolder: async () => ({ ok: true, value: { undoId: 1, message: 'Deleted the folder “News”' } }),
        listFeeds,
        listFolders: async () => [],
        river: riverPage,
      }),
    );
    store.getState().setFilter({ feedId: null, folderId: 9 });
    const result = await store.getState().deleteFolder(9);
    expect(result.ok).toBe(true);
    expect(store.getState().filter.folderId).toBeNull();
    expect(listFeeds).toHaveBeenCalled();
  });

  it('a failed command comes back as a readable result, not a throw', async () => {
    const store = createAppStore(
      apiWith({
        createFolder: async () => {
          throw new Error('connection lost');
        },
      }),
    );
    const result = await store.getState().createFolder('Tech');
    expect(result).toEqual({ ok: false, error: { code: 'client', message: 'connection lost' } });
  });
});
