/**
 * The shape of every API command's arguments, checked where calls come in from another process
 * (browser mode's HTTP; Electron's IPC can use the same): a wrong shape is refused with a
 * readable reason instead of failing deep inside ("Cannot read properties of undefined").
 * The table is typed from TidingsApi itself (ArgShapes<Parameters<...>>, shapes invariant): a
 * command whose types change does not compile until its shapes say the same.
 */
import { MAX_MEDIA_BYTES } from '../publish/enclosure.ts';
import type {
  ApiMethod,
  BackupRequest,
  FeedSettingsPatch,
  FetchLogQuery,
  GReaderImportInput,
  MarkOlderInput,
  MuteFilterInput,
  PlaybackInput,
  PostInput,
  PublishSettings,
  RestoreRequest,
  RiverQuery,
  SavedSearchInput,
  SearchRequest,
  SearchScope,
  Settings,
  SubscribeInput,
  TidingsApi,
} from './api.ts';
import { TRANSFER_PIECE_BYTES } from './api.ts';
import {
  bool,
  checkedByCore,
  lazy,
  list,
  literal,
  nullable,
  num,
  object,
  oneOf,
  optional,
  type Shape,
  type SomeShape,
  text,
  textUpTo,
} from './shape.ts';

/** An OPML file as the app opens one (main/opml-file.ts reads at most 10 MiB). */
const MAX_OPML_CHARS = 10 * 1024 * 1024;
/** A file sent with a post, base64 (the writer hosts files up to MAX_MEDIA_BYTES). */
const MAX_MEDIA_BASE64_CHARS = Math.ceil((MAX_MEDIA_BYTES * 4) / 3) + 4;

/** A piece of a backup being uploaded, base64 (pieces of TRANSFER_PIECE_BYTES at most). */
const MAX_PIECE_BASE64_CHARS = Math.ceil((TRANSFER_PIECE_BYTES * 4) / 3) + 4;

type ArgShapes<P extends unknown[]> = { [K in keyof P]-?: Shape<P[K]> };

const id = num;
const maybe = <T>(s: Shape<T>) => optional(nullable(s));

const credentials = object<NonNullable<SubscribeInput['credentials']>>({
  scheme: literal('basic', 'wsse'),
  username: text,
  password: text,
});

const subscribeInput = object<SubscribeInput>({
  url: text,
  folder: maybe(text),
  folderId: maybe(id),
  requestId: maybe(text),
  credentials: maybe(credentials),
});

const riverQuery = object<RiverQuery>({
  cursor: maybe(text),
  limit: optional(num),
  feedId: maybe(id),
  unreadOnly: optional(bool),
  starredOnly: optional(bool),
  folderId: maybe(id),
  sort: optional(literal('newest', 'oldest')),
  groupCap: maybe(num),
  batch: maybe(object<NonNullable<RiverQuery['batch']>>({ feedId: id, updatedAt: text })),
  includeMuted: optional(bool),
});

const settingsPatch = object<Partial<Settings>>({
  pollIntervalMin: optional(num),
  retentionDays: optional(num),
  tunnelEnabled: optional(bool),
  tunnelHost: optional(text),
  publicBaseUrl: maybe(text),
  maxItemsPerDocument: optional(num),
  images: optional(literal('load', 'blockTrackers', 'clickToLoad')),
  allowLocalNetworkFeeds: optional(bool),
  markReadOnScroll: optional(bool),
});

const postInput: Shape<PostInput> = object<PostInput>({
  text: text,
  link: maybe(text),
  enclosure: maybe(
    object<NonNullable<PostInput['enclosure']>>({
      url: optional(text),
      filePath: optional(text),
      fileName: optional(text),
      dataBase64: optional(textUpTo(MAX_MEDIA_BASE64_CHARS)),
    }),
  ),
  tags: optional(list(text)),
  children: optional(list(lazy(() => postInput))),
});

const feedPatch = object<FeedSettingsPatch>({
  title: maybe(text),
  folderId: maybe(id),
  intervalMin: maybe(num),
  notify: optional(bool),
  loadImages: optional(bool),
  fullText: optional(bool),
});

const markOlderInput = object<MarkOlderInput>({
  olderThanHours: num,
  feedId: maybe(id),
  folderId: maybe(id),
  starredOnly: optional(bool),
});

const playbackInput = object<PlaybackInput>({
  itemId: id,
  url: text,
  positionSec: num,
  durationSec: maybe(num),
  played: optional(bool),
});

const searchScope: Shape<SearchScope> = oneOf(
  object<Extract<SearchScope, { kind: 'all' }>>({ kind: literal('all') }),
  object<Extract<SearchScope, { kind: 'feed' }>>({ kind: literal('feed'), feedId: id }),
  object<Extract<SearchScope, { kind: 'folder' }>>({ kind: literal('folder'), folderId: id }),
);

const searchRequest = object<SearchRequest>({
  query: text,
  scope: optional(searchScope),
  limit: optional(num),
});

const savedSearchInput = object<SavedSearchInput>({
  id: optional(id),
  name: text,
  query: text,
  scope: optional(searchScope),
});

const muteFilterInput = object<MuteFilterInput>({
  feedId: maybe(id),
  kind: literal('keyword', 'regex'),
  pattern: text,
  action: literal('hide', 'markRead'),
});

const fetchLogQuery = object<FetchLogQuery>({
  feedId: maybe(id),
  limit: optional(num),
});

const backupRequest = object<BackupRequest>({ passphrase: nullable(text) });

const restoreRequest = object<RestoreRequest>({
  passphrase: nullable(text),
  skipSecrets: optional(bool),
  replaceExisting: optional(bool),
});

export const API_ARGS: { [M in ApiMethod]: ArgShapes<Parameters<TidingsApi[M]>> } = {
  subscribe: [subscribeInput],
  unsubscribe: [id],
  undo: [id],
  listFeeds: [],
  importOpml: [textUpTo(MAX_OPML_CHARS)],
  exportOpml: [],
  refresh: [maybe(id)],
  river: [riverQuery],
  markRead: [list(id), bool],
  markFeedRead: [id],
  setStarred: [id, bool],
  search: [text, optional(num)],
  riverItemsById: [list(id)],
  getSettings: [],
  updateSettings: [settingsPatch],
  progress: [],
  activity: [optional(num)],
  fetchLog: [optional(fetchLogQuery)],
  realtimeInfo: [],
  answerTunnelQuestion: [bool],
  post: [postInput],
  editPost: [id, postInput],
  deletePost: [id],
  listPosts: [],
  saveDraft: [nullable(postInput)],
  getDraft: [],
  getPublishSettings: [],
  // Every field, nested ones included, is checked by name in src/publish/settings.ts.
  updatePublishSettings: [checkedByCore<Partial<PublishSettings>>()],
  publishInfo: [],
  countChars: [text],
  cancelSubscribe: [text],
  updateFeed: [id, feedPatch],
  moveFeed: [id, text],
  listFolders: [],
  createFolder: [text, maybe(id)],
  renameFolder: [id, text],
  moveFolder: [id, nullable(id)],
  deleteFolder: [id],
  markFolderRead: [id],
  markAllRead: [],
  searchItems: [searchRequest],
  listSavedSearches: [],
  saveSearch: [savedSearchInput],
  deleteSavedSearch: [id],
  listMuteFilters: [],
  addMuteFilter: [muteFilterInput],
  updateMuteFilter: [id, muteFilterInput],
  deleteMuteFilter: [id],
  unmuteItem: [id],
  syncInfo: [],
  setSyncEnabled: [bool],
  newSyncPassword: [text],
  revokeSyncPassword: [],
  importFromGReader: [object<GReaderImportInput>({ url: text, user: text, password: text })],
  backupPlan: [],
  createBackup: [backupRequest],
  readTransfer: [text, num],
  startUpload: [num],
  writeUpload: [text, num, textUpTo(MAX_PIECE_BASE64_CHARS)],
  previewRestore: [text],
  restoreBackup: [text, restoreRequest],
  discardTransfer: [text],
  markOlderRead: [markOlderInput],
  fullText: [id, optional(bool)],
  savePlayback: [playbackInput],
  setPlayed: [id, bool],
  nowPlaying: [],
  setNowPlaying: [nullable(object<{ itemId: number; url: string }>({ itemId: id, url: text }))],
};

/** Why `args` do not fit `method`'s parameters (one sentence), or null when they do. */
export function argsProblem(method: ApiMethod, args: readonly unknown[]): string | null {
  const shapes: readonly SomeShape[] = API_ARGS[method];
  if (args.length > shapes.length) {
    return `${method} takes ${shapes.length === 0 ? 'no arguments' : `at most ${shapes.length} argument${shapes.length === 1 ? '' : 's'}`}, not ${args.length}.`;
  }
  for (let i = 0; i < shapes.length; i++) {
    const p = shapes[i]!.problem(args[i], `argument ${i + 1}`);
    if (p) return `${method}: ${p}.`;
  }
  return null;
}

/**
 * Arguments as JSON carries them: an argument left undefined arrives as null (JSON has no
 * undefined), so a null where the command takes "absent" but not null is taken as absent.
 */
export function fromJsonArgs(method: ApiMethod, args: readonly unknown[]): unknown[] {
  const shapes: readonly SomeShape[] = API_ARGS[method];
  return args.map((a, i) => {
    const s = shapes[i];
    return a === null && s && s.problem(null, '') !== null && s.problem(undefined, '') === null
      ? undefined
      : a;
  });
}
