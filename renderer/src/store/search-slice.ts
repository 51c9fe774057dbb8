import type { RiverItem, SearchHit, SearchScope, TidingsApi } from '../../../src/app/api';
import { reportError } from './report-error';
import type { SliceCreator } from './types';

export interface SearchSlice {
  searchQuery: string;
  /**
   * null while not searching: the river pane shows the river. The items of the hits, kept apart
   * from `searchHits` so item changes (read, star) patch them like the river's items.
   */
  searchResults: RiverItem[] | null;
  /** Where each hit matched (title ranges, snippet), by item id. */
  searchHits: Record<number, Omit<SearchHit, 'item'>>;
  /** The positive terms, for highlighting. */
  searchTerms: string[];
  /** Where the search looks: the river's current feed or folder unless the person widens it. */
  searchScope: SearchScope;
  searching: boolean;
  /** Runs `query`; without `scope`, the scope is the river's current feed or folder (else all). */
  search(query: string, scope?: SearchScope): Promise<void>;
  setSearchScope(scope: SearchScope): void;
  clearSearch(): void;
}

export const SEARCH_LIMIT = 100;

export const createSearchSlice =
  (api: TidingsApi): SliceCreator<SearchSlice> =>
  (set, get) => {
    let generation = 0;

    function scopeOfRiver(): SearchScope {
      const { feedId, folderId } = get().filter;
      if (feedId !== null) return { kind: 'feed', feedId };
      if (folderId !== null) return { kind: 'folder', folderId };
      return { kind: 'all' };
    }

    async function run(query: string, scope: SearchScope): Promise<void> {
      const mine = ++generation;
      set({ searchQuery: query, searchScope: scope, searching: true });
      try {
        const found = await api.searchItems({ query, scope, limit: SEARCH_LIMIT });
        if (mine !== generation) return;
        const searchHits: SearchSlice['searchHits'] = {};
        for (const { item, ...where } of found.hits) searchHits[item.id] = where;
        set({
          searchResults: found.hits.map((h) => h.item),
          searchHits,
          searchTerms: found.terms,
          searching: false,
        });
      } catch (err) {
        if (mine !== generation) return;
        set({ searching: false, searchResults: [], searchHits: {}, searchTerms: [] });
        reportError(get, err, 'Search failed');
      }
    }

    return {
      searchQuery: '',
      searchResults: null,
      searchHits: {},
      searchTerms: [],
      searchScope: { kind: 'all' },
      searching: false,

      async search(query, scope) {
        const text = query.trim();
        if (!text) {
          get().clearSearch();
          return;
        }
        // A search already showing keeps the scope the person chose for it.
        const keep = get().searchResults !== null || get().searching;
        await run(text, scope ?? (keep ? get().searchScope : scopeOfRiver()));
      },

      setSearchScope(scope) {
        const query = get().searchQuery;
        if (query) void run(query, scope);
        else set({ searchScope: scope });
      },

      clearSearch() {
        generation++;
        set({ searchQuery: '', searchResults: null, searchHits: {}, searchTerms: [], searching: false });
      },
    };
  };
