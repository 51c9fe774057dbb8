/**
 * Subscriptions: add, read, list, update, remove. Credentials live in the same row (a desktop
 * database, local to the user) but no row mapper returns them: only getCredentials does.
 */
import type { Credentials } from '../net/types.ts';
import { num, type StoreContext, str } from './context.ts';
import { ensureFolderPath, type FolderNames, folderNames, folderNamesOf } from './folders.ts';
import { transaction } from './sqlite.ts';
import {
  type AddFeedInput,
  EMPTY_FEED_META,
  type FeedMeta,
  type FeedMetaPatch,
  type FeedRow,
  type FeedStatus,
  type FetchStatePatch,
} from './types.ts';

const FEED_COLUMNS = `id, url, title, site_url, description, folder_id, credentials IS NOT NULL AS has_credentials,
  interval_min, status, last_error, last_error_code, etag, last_modified, body_hash, last_fetched_at,
  next_due_at, due_reason, consecutive_errors, meta, created_at, unread, parse_notes, custom_title, notify, load_images, full_text`;

type Raw = Record<string, unknown>;

function parseMeta(text: unknown): FeedMeta {
  if (typeof text !== 'string') return { ...EMPTY_FEED_META };
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object'
      ? { ...EMPTY_FEED_META, ...(v as Partial<FeedMeta>) }
      : { ...EMPTY_FEED_META };
  } catch {
    return { ...EMPTY_FEED_META };
  }
}

/** `folderOf`: a folder's names by id (from a list of all for many rows, looked up for one). */
function toFeedRow(r: Raw, folderOf: (id: number) => FolderNames | null | undefined): FeedRow {
  const folderId = num(r.folder_id);
  const folder = folderId === null ? undefined : (folderOf(folderId) ?? undefined);
  return {
    id: r.id as number,
    url: r.url as string,
    title: str(r.title),
    siteUrl: str(r.site_url),
    description: str(r.description),
    folderId,
    folder: folder?.path ?? null,
    folderTitle: folder?.title ?? null,
    credentials: null,
    hasCredentials: r.has_credentials === 1,
    intervalMin: num(r.interval_min),
    status: r.status as FeedStatus,
    lastError: str(r.last_error),
    lastErrorCode: str(r.last_error_code),
    etag: str(r.etag),
    lastModified: str(r.last_modified),
    bodyHash: str(r.body_hash),
    lastFetchedAt: num(r.last_fetched_at),
    nextDueAt: num(r.next_due_at),
    dueReason: str(r.due_reason),
    consecutiveErrors: r.consecutive_errors as number,
    meta: parseMeta(r.meta),
    createdAt: r.created_at as number,
    unread: r.unread as number,
    parseNotes: parseNotes(r.parse_notes),
    customTitle: str(r.custom_title),
    notify: r.notify === 1,
    loadImages: r.load_images === 1,
    fullText: r.full_text === 1,
  };
}

/** The stored notes' sentences (stored as `{code, message}` objects). */
function parseNotes(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v)) return [];
    return v
      .map((x) => (typeof x === 'string' ? x : (x as { message?: unknown } | null)?.message))
      .filter((x): x is string => typeof x === 'string');
  } catch {
    return [];
  }
}

export interface StoredNote {
  code: string;
  message: string;
}

/** What the last good parse noted; an empty list clears it. */
export function setParseNotes(ctx: StoreContext, id: number, notes: readonly StoredNote[]): void {
  const value = notes.length ? JSON.stringify(notes.map(({ code, message }) => ({ code, message }))) : null;
  ctx.stmt('UPDATE feeds SET parse_notes = ? WHERE id = ?').run(value, id);
}

/** Feeds whose last good parse noted `code` (e.g. feed.itemsCapped). */
export function feedsWithNote(ctx: StoreContext, code: string): number[] {
  const rows = ctx
    .stmt(
      `SELECT id FROM feeds WHERE parse_notes IS NOT NULL
       AND EXISTS (SELECT 1 FROM json_each(parse_notes) WHERE json_extract(value, '$.code') = ?)`,
    )
    .all(code) as { id: number }[];
  return rows.map((r) => r.id);
}

// One row reads its own folder (and its parents), not every folder: a fetch reads its feed's row
// a few times (bench:poll).
export function getFeed(ctx: StoreContext, id: number): FeedRow | null {
  const r = ctx.stmt(`SELECT ${FEED_COLUMNS} FROM feeds WHERE id = ?`).get(id) as Raw | undefined;
  return r ? toFeedRow(r, (folderId) => folderNamesOf(ctx, folderId)) : null;
}

export function getFeedByUrl(ctx: StoreContext, url: string): FeedRow | null {
  const r = ctx.stmt(`SELECT ${FEED_COLUMNS} FROM feeds WHERE url = ?`).get(url) as Raw | undefined;
  return r ? toFeedRow(r, (folderId) => folderNamesOf(ctx, folderId)) : null;
}

/**
 * When the subscription with this id was made (null: there is none): whether a row is still the
 * one a fetch started for, without reading the whole row.
 */
export function feedCreatedAt(ctx: StoreContext, id: number): number | null {
  const r = ctx.stmt('SELECT created_at FROM feeds WHERE id = ?').get(id) as
    | { created_at: number }
    | undefined;
  return r ? r.created_at : null;
}

/** Feeds without a folder first, then by folder path, then by title (case-insensitive). */
export function listFeeds(ctx: StoreContext): FeedRow[] {
  const folders = folderNames(ctx);
  const rows = (ctx.stmt(`SELECT ${FEED_COLUMNS} FROM feeds`).all() as Raw[]).map((r) =>
    toFeedRow(r, (folderId) => folders.get(folderId)),
  );
  const key = (f: FeedRow) => (f.customTitle ?? f.title ?? f.url).toLowerCase();
  return rows.sort((a, b) => {
    if (a.folder !== b.folder) {
      if (a.folder === null) return -1;
      if (b.folder === null) return 1;
      const fa = a.folder.toLowerCase();
      const fb = b.folder.toLowerCase();
      if (fa !== fb) return fa < fb ? -1 : 1;
    }
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
  });
}

export function addFeed(ctx: StoreContext, input: AddFeedInput): { feed: FeedRow; created: boolean } {
  const url = input.url.trim();
  return transaction(ctx.db, () => {
    const existing = getFeedByUrl(ctx, url);
    if (existing) return { feed: existing, created: false };
    const folderId = ensureFolderPath(ctx, input.folder);
    const { id } = ctx
      .stmt(
        `INSERT INTO feeds (url, title, site_url, folder_id, credentials, meta, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        url,
        input.title ?? null,
        input.siteUrl ?? null,
        folderId,
        input.credentials ? JSON.stringify(input.credentials) : null,
        JSON.stringify(EMPTY_FEED_META),
        ctx.clock.now(),
      ) as { id: number };
    return { feed: getFeed(ctx, id)!, created: true };
  });
}

export function getCredentials(ctx: StoreContext, id: number): Credentials | null {
  const r = ctx.stmt('SELECT credentials FROM feeds WHERE id = ?').get(id) as
    | { credentials: unknown }
    | undefined;
  if (!r || typeof r.credentials !== 'string') return null;
  try {
    return JSON.parse(r.credentials) as Credentials;
  } catch {
    return null;
  }
}

export function setCredentials(ctx: StoreContext, id: number, credentials: Credentials | null): void {
  ctx
    .stmt('UPDATE feeds SET credentials = ? WHERE id = ?')
    .run(credentials ? JSON.stringify(credentials) : null, id);
}

/** Removes the feed; its items, tombstones (and their search entries) go with it. */
export function removeFeed(ctx: StoreContext, id: number): boolean {
  return transaction(ctx.db, () => Number(ctx.stmt('DELETE FROM feeds WHERE id = ?').run(id).changes) > 0);
}

export function updateFeedMeta(ctx: StoreContext, id: number, patch: FeedMetaPatch): void {
  transaction(ctx.db, () => {
    const sets: string[] = [];
    const args: (string | null)[] = [];
    const set = (column: string, value: string | null) => {
      sets.push(`${column} = ?`);
      args.push(value);
    };
    if (patch.title !== undefined) set('title', patch.title);
    if (patch.siteUrl !== undefined) set('site_url', patch.siteUrl);
    if (patch.description !== undefined) set('description', patch.description);
    if (patch.meta !== undefined) {
      const r = ctx.stmt('SELECT meta FROM feeds WHERE id = ?').get(id) as { meta: unknown } | undefined;
      if (!r) return;
      set('meta', JSON.stringify({ ...parseMeta(r.meta), ...patch.meta }));
    }
    if (sets.length === 0) return;
    ctx.stmt(`UPDATE feeds SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
  });
}

/** camelCase patch key -> column; only these may be written by updateFetchState. */
const FETCH_STATE_COLUMNS: Record<keyof FetchStatePatch, string> = {
  status: 'status',
  lastError: 'last_error',
  lastErrorCode: 'last_error_code',
  etag: 'etag',
  lastModified: 'last_modified',
  bodyHash: 'body_hash',
  lastFetchedAt: 'last_fetched_at',
  nextDueAt: 'next_due_at',
  dueReason: 'due_reason',
  consecutiveErrors: 'consecutive_errors',
};

export function updateFetchState(ctx: StoreContext, id: number, patch: FetchStatePatch): void {
  const sets: string[] = [];
  const args: (string | number | null)[] = [];
  for (const [key, column] of Object.entries(FETCH_STATE_COLUMNS) as [keyof FetchStatePatch, string][]) {
    const value = patch[key];
    if (value === undefined) continue;
    sets.push(`${column} = ?`);
    args.push(value);
  }
  if (sets.length === 0) return;
  // Keys are sorted by the fixed table above, so each combination is one cached statement.
  ctx.stmt(`UPDATE feeds SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
}

export function setFeedInterval(ctx: StoreContext, id: number, minutes: number | null): void {
  const value = minutes === null ? null : Math.max(1, Math.round(minutes));
  ctx.stmt('UPDATE feeds SET interval_min = ? WHERE id = ?').run(value, id);
}

/** Files the feed under a folder path ('A/B'), or at the top level with null. */
export function setFeedFolder(ctx: StoreContext, id: number, folder: string | null): void {
  transaction(ctx.db, () => {
    const folderId = ensureFolderPath(ctx, folder);
    ctx.stmt('UPDATE feeds SET folder_id = ? WHERE id = ?').run(folderId, id);
  });
}

export interface FeedSettingsRow {
  /** null clears the user's title (the feed's own shows again). */
  customTitle?: string | null;
  folderId?: number | null;
  notify?: boolean;
  loadImages?: boolean;
  fullText?: boolean;
}

/** The per-feed settings a person chooses (interval has setFeedInterval). */
export function setFeedSettings(ctx: StoreContext, id: number, patch: FeedSettingsRow): void {
  const sets: string[] = [];
  const args: (string | number | null)[] = [];
  if (patch.customTitle !== undefined) {
    sets.push('custom_title = ?');
    args.push(patch.customTitle);
  }
  if (patch.folderId !== undefined) {
    sets.push('folder_id = ?');
    args.push(patch.folderId);
  }
  if (patch.notify !== undefined) {
    sets.push('notify = ?');
    args.push(patch.notify ? 1 : 0);
  }
  if (patch.loadImages !== undefined) {
    sets.push('load_images = ?');
    args.push(patch.loadImages ? 1 : 0);
  }
  if (patch.fullText !== undefined) {
    sets.push('full_text = ?');
    args.push(patch.fullText ? 1 : 0);
  }
  if (sets.length === 0) return;
  ctx.stmt(`UPDATE feeds SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
}
