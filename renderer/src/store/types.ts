import type { StateCreator } from 'zustand/vanilla';
import type { FeedsSlice } from './feeds-slice';
import type { FiltersSlice } from './filters-slice';
import type { FoldersSlice } from './folders-slice';
import type { PlayerSlice } from './player-slice';
import type { PostsSlice } from './posts-slice';
import type { ReaderSlice } from './reader-slice';
import type { RiverSlice } from './river-slice';
import type { SearchSlice } from './search-slice';
import type { UiSlice } from './ui-slice';

/** The whole renderer state: a mirror of what the core says, plus purely visual state. */
export type AppState = FeedsSlice &
  FoldersSlice &
  FiltersSlice &
  RiverSlice &
  SearchSlice &
  UiSlice &
  PostsSlice &
  PlayerSlice &
  ReaderSlice;

export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
