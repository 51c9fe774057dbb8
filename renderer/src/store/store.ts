/**
 * One store from slices (zustand's slices pattern). It mirrors the core: every value here came
 * from a command's answer or an event, and local changes are only echoes of commands we sent.
 */
import { createStore } from 'zustand/vanilla';
import type { TidingsApi } from '../../../src/app/api';
import { createFeedsSlice } from './feeds-slice';
import { createFiltersSlice } from './filters-slice';
import { createFoldersSlice } from './folders-slice';
import { createPlayerSlice } from './player-slice';
import { createPostsSlice } from './posts-slice';
import { createReaderSlice } from './reader-slice';
import { createRiverSlice } from './river-slice';
import { createSearchSlice } from './search-slice';
import type { AppState } from './types';
import { createUiSlice } from './ui-slice';

export function createAppStore(api: TidingsApi) {
  return createStore<AppState>()((...a) => ({
    ...createFeedsSlice(api)(...a),
    ...createFoldersSlice(api)(...a),
    ...createFiltersSlice(api)(...a),
    ...createRiverSlice(api)(...a),
    ...createSearchSlice(api)(...a),
    ...createUiSlice()(...a),
    ...createPostsSlice(api)(...a),
    ...createPlayerSlice(api)(...a),
    ...createReaderSlice(api)(...a),
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;
