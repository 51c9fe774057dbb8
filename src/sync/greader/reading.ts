/**
 * Google Reader's reading calls: who am I, the subscriptions and labels, unread counts, and the
 * streams (item ids with continuation, and contents). Every stream is read from the store in the
 * river's order, with the river's mute filters; `c` is an opaque keyset cursor, so paging through
 * a stream that grows meanwhile neither repeats nor loses an item.
 */
import type { StreamFilter } from '../../store/sync.ts';
import type { SyncBackend } from '../backend.ts';
import { type Library, labelFeeds, readLibrary } from '../library.ts';
import { json, type Params } from '../request.ts';
import { parseItemId } from './item-ids.ts';
import { greaderItem } from './item-json.ts';
import { feedStreamId, labelStreamId, parseStreamId, READING_LIST, STARRED } from './streams.ts';

export interface GReaderContext {
  backend: SyncBackend;
  userName: string;
}

/** At most this many ids in one answer (NetNewsWire asks for 10,000 at once). */
export const MAX_IDS = 10_000;
/** At most this many items with their contents in one answer. */
export const MAX_CONTENTS = 10_000;
const MAX_STREAM_CONTENTS = 1_000;
const DEFAULT_N = 20;

export type Refusal = { refused: string };
const refused = (message: string): Refusal => ({ refused: message });
export const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && 'refused' in x;

/** The items a call names by `i` (repeated, any id form), at most MAX_CONTENTS. */
export function itemIdsParam(params: Params): number[] | Refusal {
  const given = params.all('i');
  if (given.length > MAX_CONTENTS) return refused(`At most ${MAX_CONTENTS} items at once (i).`);
  const ids: number[] = [];
  for (const raw of given) {
    const id = parseItemId(raw);
    if (id === null) return refused(`"${raw.slice(0, 80)}" is not an item id.`);
    ids.push(id);
  }
  return ids;
}

export function userInfo(g: GReaderContext): Response {
  const name = g.userName;
  return json({ userId: name, userName: name, userProfileId: name, userEmail: name });
}

export async function subscriptionList(g: GReaderContext): Promise<Response> {
  const lib = await readLibrary(g.backend);
  return json({
    subscriptions: lib.feeds.map((f) => ({
      id: feedStreamId(f.id),
      title: f.title,
      categories: f.folderPath
        ? [{ id: labelStreamId(f.folderPath), label: f.folderPath, type: 'folder' }]
        : [],
      url: f.url,
      htmlUrl: f.siteUrl ?? '',
      iconUrl: f.favicon ?? '',
    })),
  });
}

export async function tagList(g: GReaderContext): Promise<Response> {
  const lib = await readLibrary(g.backend);
  return json({
    tags: [
      { id: STARRED },
      ...lib.folders.map((f) => ({ id: labelStreamId(f.path), label: f.path, type: 'folder' })),
    ],
  });
}

export async function unreadCount(g: GReaderContext): Promise<Response> {
  const lib = await readLibrary(g.backend);
  const newest = g.backend.store.newestArrivalByFeed();
  const usec = (ms: number) => (ms > 0 ? `${ms}000` : '0');
  const counts: { id: string; count: number; newestItemTimestampUsec: string }[] = [];
  let total = 0;
  let newestAll = 0;
  for (const f of lib.feeds) {
    const at = newest.get(f.id) ?? 0;
    counts.push({ id: feedStreamId(f.id), count: f.unread, newestItemTimestampUsec: usec(at) });
    total += f.unread;
    newestAll = Math.max(newestAll, at);
  }
  const byId = new Map(lib.feeds.map((f) => [f.id, f]));
  for (const folder of lib.folders) {
    const ids = lib.feedsByLabel.get(folder.path) ?? [];
    const count = ids.reduce((n, id) => n + (byId.get(id)?.unread ?? 0), 0);
    const at = ids.reduce((m, id) => Math.max(m, newest.get(id) ?? 0), 0);
    counts.push({ id: labelStreamId(folder.path), count, newestItemTimestampUsec: usec(at) });
  }
  counts.push({ id: READING_LIST, count: total, newestItemTimestampUsec: usec(newestAll) });
  return json({ max: total, unreadcounts: counts });
}

const secondsParam = (v: string | null): number | null => {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n * 1000) : null;
};

/** Reads the library once, and only for the streams that need it (labels). */
export function lazyLibrary(backend: SyncBackend): () => Promise<Library> {
  let lib: Promise<Library> | null = null;
  return () => {
    lib ??= readLibrary(backend);
    return lib;
  };
}

/** The filter for stream `s` with its xt/it/ot/nt; null: the stream exists but holds nothing. */
export async function streamFilter(
  g: GReaderContext,
  library: () => Promise<Library>,
  streamId: string,
  params: Params,
): Promise<StreamFilter | null | Refusal> {
  const ref = parseStreamId(streamId);
  if (!ref) return refused(`"${streamId.slice(0, 200)}" is not a stream this server knows.`);
  let f: StreamFilter;
  switch (ref.kind) {
    case 'reading-list':
      f = { feedIds: null };
      break;
    case 'starred':
      f = { feedIds: null, starred: true };
      break;
    case 'read':
      f = { feedIds: null, read: true };
      break;
    case 'kept-unread':
      f = { feedIds: null, read: false };
      break;
    case 'label':
      f = { feedIds: labelFeeds(await library(), ref.name) };
      break;
    case 'feed':
      f = { feedIds: [ref.id] };
      break;
    case 'feedUrl': {
      const id = g.backend.feedIdByUrl(ref.url);
      f = { feedIds: id === null ? [] : [id] };
      break;
    }
    case 'none':
      return null;
  }
  // xt excludes a state, it keeps only one; a contradiction (the read items, excluding read) is empty.
  const want = (key: 'read' | 'starred', value: boolean): boolean => {
    if (f[key] === !value) return false;
    f[key] = value;
    return true;
  };
  for (const x of params.all('xt')) {
    const state = stateOf(x);
    if (state && !want(state.key, !state.value)) return null;
  }
  for (const x of params.all('it')) {
    const state = stateOf(x);
    if (state && !want(state.key, state.value)) return null;
  }
  f.arrivedFrom = secondsParam(params.get('ot'));
  f.arrivedBefore = secondsParam(params.get('nt'));
  return f;
}

/** What a state stream in xt/it says about an item (unread is not a real stream, but clients send it). */
function stateOf(streamId: string): { key: 'read' | 'starred'; value: boolean } | null {
  if (/^user\/[^/]*\/state\/com\.google\/unread$/.test(streamId.trim())) return { key: 'read', value: false };
  const ref = parseStreamId(streamId);
  if (ref?.kind === 'read') return { key: 'read', value: true };
  if (ref?.kind === 'kept-unread') return { key: 'read', value: false };
  if (ref?.kind === 'starred') return { key: 'starred', value: true };
  return null;
}

const countParam = (v: string | null, max: number): number => {
  const n = Number(v);
  return v !== null && Number.isFinite(n) && n >= 1 ? Math.min(max, Math.floor(n)) : Math.min(max, DEFAULT_N);
};

interface PageOf {
  ids: number[];
  next: string | null;
}

async function page(
  g: GReaderContext,
  library: () => Promise<Library>,
  streamId: string,
  params: Params,
  max: number,
): Promise<PageOf | Refusal> {
  const f = await streamFilter(g, library, streamId, params);
  if (isRefusal(f)) return f;
  if (f === null || (f.feedIds && f.feedIds.length === 0)) return { ids: [], next: null };
  const c = params.get('c')?.trim() || null;
  try {
    return g.backend.store.streamIds(f, {
      oldestFirst: params.get('r') === 'o',
      cursor: c,
      limit: countParam(params.get('n'), max),
    });
  } catch {
    return refused('The continuation (c) is not one this server gave.');
  }
}

export async function streamItemIds(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const s = params.get('s');
  if (!s) return refused('Which stream? Give s, e.g. s=user/-/state/com.google/reading-list.');
  const p = await page(g, lazyLibrary(g.backend), s, params, MAX_IDS);
  if (isRefusal(p)) return p;
  return json({
    itemRefs: p.ids.map((id) => ({ id: String(id) })),
    ...(p.next ? { continuation: p.next } : {}),
  });
}

function contentsAnswer(
  g: GReaderContext,
  lib: Library,
  streamId: string,
  ids: readonly number[],
  oldestFirst: boolean,
  next: string | null,
  self: string,
): Response {
  const rows = g.backend.store.itemsByIds(ids, oldestFirst);
  const feeds = new Map(lib.feeds.map((f) => [f.id, f]));
  return json({
    direction: 'ltr',
    id: streamId,
    title: titleOf(lib, streamId),
    self: [{ href: self }],
    updated: Math.floor(g.backend.clock.now() / 1000),
    author: g.userName,
    items: rows.map((row) => greaderItem(row, feeds.get(row.feedId))),
    ...(next ? { continuation: next } : {}),
  });
}

function titleOf(lib: Library, streamId: string): string {
  const ref = parseStreamId(streamId);
  if (ref?.kind === 'feed') return lib.feeds.find((f) => f.id === ref.id)?.title ?? '';
  if (ref?.kind === 'label') return ref.name;
  if (ref?.kind === 'starred') return 'Starred';
  return 'Reading list';
}

/** stream/items/contents: the items named by `i` (repeated; any id form). */
export async function streamItemContents(
  g: GReaderContext,
  params: Params,
  self: string,
): Promise<Response | Refusal> {
  const ids = itemIdsParam(params);
  if (isRefusal(ids)) return ids;
  const lib = await readLibrary(g.backend);
  return contentsAnswer(g, lib, READING_LIST, ids, params.get('r') === 'o', null, self);
}

/** stream/contents/<stream>: a page of a stream with its items' contents. */
export async function streamContents(
  g: GReaderContext,
  streamId: string,
  params: Params,
  self: string,
): Promise<Response | Refusal> {
  const library = lazyLibrary(g.backend);
  const p = await page(g, library, streamId, params, MAX_STREAM_CONTENTS);
  if (isRefusal(p)) return p;
  return contentsAnswer(g, await library(), streamId, p.ids, params.get('r') === 'o', p.next, self);
}
