import type {
  ApiResult,
  MuteFilter,
  MuteFilterAdded,
  MuteFilterInput,
  SavedSearch,
  SavedSearchInput,
  TidingsApi,
} from '../../../src/app/api';
import { errorMessage } from '../api/api-error';
import { offerCoreUndo } from './core-undo';
import { reportError } from './report-error';
import type { SliceCreator } from './types';

/** Saved searches (listed in the sidebar) and mute filters, as the core keeps them. */
export interface FiltersSlice {
  savedSearches: SavedSearch[];
  muteFilters: MuteFilter[];
  loadFilters(): Promise<void>;
  saveSearch(input: SavedSearchInput): Promise<ApiResult<SavedSearch>>;
  deleteSavedSearch(id: number): Promise<void>;
  addMuteFilter(input: MuteFilterInput): Promise<ApiResult<MuteFilterAdded>>;
  updateMuteFilter(id: number, input: MuteFilterInput): Promise<ApiResult<MuteFilter>>;
  deleteMuteFilter(id: number): Promise<void>;
  /** "Undo" on a muted item: it shows again (and is unread again if the filter had read it). */
  unmuteItem(itemId: number): Promise<void>;
}

function failed<T>(err: unknown): ApiResult<T> {
  return { ok: false, error: { code: 'client', message: errorMessage(err) } };
}

export const createFiltersSlice =
  (api: TidingsApi): SliceCreator<FiltersSlice> =>
  (set, get) => {
    async function change<T>(run: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
      try {
        const result = await run();
        if (result.ok) void get().loadFilters();
        return result;
      } catch (err) {
        reportError(get, err);
        return failed(err);
      }
    }

    return {
      savedSearches: [],
      muteFilters: [],

      async loadFilters() {
        try {
          const [savedSearches, muteFilters] = await Promise.all([
            api.listSavedSearches(),
            api.listMuteFilters(),
          ]);
          set({ savedSearches, muteFilters });
        } catch (err) {
          reportError(get, err, 'Could not load saved searches and filters');
        }
      },

      saveSearch: (input) => change(() => api.saveSearch(input)),

      async deleteSavedSearch(id) {
        try {
          await api.deleteSavedSearch(id);
          set((state) => ({ savedSearches: state.savedSearches.filter((s) => s.id !== id) }));
        } catch (err) {
          reportError(get, err, 'Could not delete the saved search');
        }
      },

      async addMuteFilter(input) {
        const result = await change(() => api.addMuteFilter(input));
        // Reload so whatever the core muted with the new rule shows as muted at once.
        if (result.ok) {
          void get().loadRiver();
          offerCoreUndo(get, api, result.value.undo);
        }
        return result;
      },

      updateMuteFilter: (id, input) => change(() => api.updateMuteFilter(id, input)),

      async deleteMuteFilter(id) {
        try {
          await api.deleteMuteFilter(id);
          set((state) => ({ muteFilters: state.muteFilters.filter((f) => f.id !== id) }));
        } catch (err) {
          reportError(get, err, 'Could not delete the filter');
        }
      },

      async unmuteItem(itemId) {
        try {
          await api.unmuteItem(itemId);
          void get().refreshHead();
          void get().loadFeeds();
        } catch (err) {
          reportError(get, err, 'Could not undo the mute');
        }
      },
    };
  };
