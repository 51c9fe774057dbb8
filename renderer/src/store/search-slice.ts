import type { RiverItem, TidingsApi } from '../../../src/app/api';
import { reportError } from './report-error';
import type { SliceCreator } from './types';

export interface SearchSlice {
  searchQuery: string;
  /** null while not searching: the river pane shows the river. */
  searchResults: RiverItem[] | null;
  searching: boolean;
  search(query: string): Promise<void>;
  clearSearch(): void;
}

export const SEARCH_LIMIT = 100;

export const createSearchSlice =
  (api: TidingsApi): SliceCreator<SearchSlice> =>
  (set, get) => {
    let generation = 0;
    return {
      searchQuery: '',
      searchResults: null,
      searching: false,

      async search(query) {
        const text = query.trim();
        if (!text) {
          get().clearSearch();
          return;
        }
        const mine = ++generation;
        set({ searchQuery: text, searching: true });
        try {
          const results = await api.search(text, SEARCH_LIMIT);
          if (mine === generation) set({ searchResults: results, searching: false });
        } catch (err) {
          if (mine !== generation) return;
          set({ searching: false, searchResults: [] });
          reportError(get, err, 'Search failed');
        }
      },

      clearSearch() {
        generation++;
        set({ searchQuery: '', searchResults: null, searching: false });
      },
    };
  };
