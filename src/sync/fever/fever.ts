/**
 * The Fever API door, served at <base>/api/fever (clients call `?api&<what>`). Every call carries
 * `api_key` = md5("user:password") in its form body (or the query), checked by account.ts. The
 * answer is always JSON with api_version 3 and auth 1; a wrong or missing key gets `auth: 0` with
 * status 200, which is how Fever clients learn the key is wrong (FreshRSS and Miniflux answer the
 * same; a 401 reads as "server down" to several of them).
 *
 * Reading: groups (our folders, by path), feeds, feeds_groups, favicons, items (50 at a time by
 * since_id, max_id or with_ids), unread_item_ids, saved_item_ids, and links (always empty: we keep
 * no "hot links"). Writing: mark=item as read/unread/saved/unsaved; mark=feed|group as=read with
 * `before` (items that arrived before it; group 0 is everything), each through the app's commands.
 * Selectors combine in one call, as clients send them.
 */
import type { FeedView } from '../../app/api.ts';
import type { SyncItemRow } from '../../store/sync.ts';
import type { SyncAccount } from '../account.ts';
import type { SyncBackend } from '../backend.ts';
import { type Library, labelFeeds, markItems, markReadArrivedBefore, readLibrary } from '../library.ts';
import { json, type Params, peerOf, readParams, tooMany } from '../request.ts';
import { FeverFavicons } from './favicons.ts';

export interface FeverDoorDeps {
  backend: SyncBackend;
  account: SyncAccount;
}

const API_VERSION = 3;
const PAGE = 50;

const idList = (ids: readonly number[]) => ids.join(',');
const positiveInt = (v: string | null): number | null => {
  const s = v?.trim() ?? '';
  if (!/^[0-9]{1,15}$/.test(s)) return null;
  return Number(s);
};

function feverItem(row: SyncItemRow) {
  const published = Date.parse(row.published ?? row.updated ?? '');
  return {
    id: row.id,
    feed_id: row.feedId,
    title: row.title ?? '',
    author: row.authors
      .map((p) => p.name ?? p.email)
      .filter((n): n is string => !!n)
      .join(', '),
    html: row.content ?? row.summary ?? '',
    url: row.link ?? '',
    is_saved: row.starred ? 1 : 0,
    is_read: row.read ? 1 : 0,
    created_on_time: Math.floor((Number.isFinite(published) ? published : row.arrivedAt) / 1000),
  };
}

function feedsGroups(lib: Library) {
  return lib.folders
    .map((f) => ({ group_id: f.id, feed_ids: idList(lib.feedsByLabel.get(f.path) ?? []) }))
    .filter((g) => g.feed_ids !== '');
}

function feverFeed(f: FeedView, lastUpdated: number) {
  return {
    id: f.id,
    favicon_id: f.favicon ? f.id : 0,
    title: f.title,
    url: f.url,
    site_url: f.siteUrl ?? '',
    is_spark: 0,
    last_updated_on_time: lastUpdated,
  };
}

export function createFeverDoor(deps: FeverDoorDeps) {
  const { backend, account } = deps;
  const favicons = new FeverFavicons(backend);

  async function itemsAnswer(params: Params): Promise<Record<string, unknown>> {
    const withIds = params.get('with_ids');
    const since = positiveInt(params.get('since_id'));
    const max = positiveInt(params.get('max_id'));
    let rows: SyncItemRow[];
    if (since !== null) rows = backend.store.feverItems({ kind: 'since', id: since }, PAGE);
    else if (max !== null) rows = backend.store.feverItems({ kind: 'max', id: max }, PAGE);
    else if (withIds !== null) {
      const ids = withIds
        .split(',')
        .map((s) => positiveInt(s))
        .filter((n): n is number => n !== null)
        .slice(0, PAGE);
      rows = backend.store.feverItems({ kind: 'ids', ids }, PAGE);
    } else rows = backend.store.feverItems({ kind: 'first' }, PAGE);
    return { total_items: backend.store.visibleItemCount(), items: rows.map(feverItem) };
  }

  async function mark(params: Params): Promise<Record<string, unknown>> {
    const what = params.get('mark')?.toLowerCase();
    const as = params.get('as')?.toLowerCase();
    const idText = params.get('id')?.trim() ?? '';
    if (!what || !as || !/^-?[0-9]{1,15}$/.test(idText)) return {};
    const id = Number(idText);
    const beforeSec = positiveInt(params.get('before'));
    // `before` is when the client last refreshed: items that arrived later stay unread.
    const before = beforeSec ? beforeSec * 1000 : backend.clock.now() + 1;
    if (what === 'item' && id > 0) {
      if (as === 'read' || as === 'unread') await markItems(backend, [id], { read: as === 'read' });
      else if (as === 'saved' || as === 'unsaved')
        await markItems(backend, [id], { starred: as === 'saved' });
    } else if (what === 'feed' && as === 'read' && id > 0) {
      await markReadArrivedBefore(backend, [id], before);
    } else if (what === 'group' && as === 'read') {
      // 0 is Fever's "Kindling" (every feed); -1 its "Sparks", which we have none of.
      if (id === 0) await markReadArrivedBefore(backend, null, before);
      else if (id > 0) {
        const lib = await readLibrary(backend);
        const folder = lib.folders.find((f) => f.id === id);
        if (folder) await markReadArrivedBefore(backend, labelFeeds(lib, folder.path), before);
      }
    }
    // Fever answers a mark with the list it changed.
    return as === 'saved' || as === 'unsaved'
      ? { saved_item_ids: idList(backend.store.idsWhere('starred')) }
      : { unread_item_ids: idList(backend.store.idsWhere('unread')) };
  }

  return async (req: Request, remoteAddress: string): Promise<Response> => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      return json({ api_version: API_VERSION, auth: 0 }, 405, { allow: 'GET, POST' });
    }
    const params = await readParams(req);
    const key = params.get('api_key') ?? '';
    const checked = key ? await account.checkFeverKey(key, peerOf(req, remoteAddress)) : 'wrong';
    if (typeof checked === 'object') return tooMany(checked.limited);
    if (checked !== 'ok') return json({ api_version: API_VERSION, auth: 0 });

    const out: Record<string, unknown> = {
      api_version: API_VERSION,
      auth: 1,
      last_refreshed_on_time: Math.floor(backend.clock.now() / 1000),
    };
    const wants = (name: string) => params.has(name);
    let lib: Library | null = null;
    const library = async () => {
      lib ??= await readLibrary(backend);
      return lib;
    };
    if (wants('mark')) Object.assign(out, await mark(params));
    if (wants('groups')) {
      const l = await library();
      out.groups = l.folders.map((f) => ({ id: f.id, title: f.path }));
      out.feeds_groups = feedsGroups(l);
    }
    if (wants('feeds')) {
      const l = await library();
      const newest = backend.store.newestArrivalByFeed();
      out.feeds = l.feeds.map((f) => feverFeed(f, Math.floor((newest.get(f.id) ?? 0) / 1000)));
      out.feeds_groups = feedsGroups(l);
    }
    if (wants('favicons')) out.favicons = await favicons.forFeeds((await library()).feeds);
    if (wants('items')) Object.assign(out, await itemsAnswer(params));
    if (wants('links')) out.links = [];
    if (wants('unread_item_ids')) out.unread_item_ids = idList(backend.store.idsWhere('unread'));
    if (wants('saved_item_ids')) out.saved_item_ids = idList(backend.store.idsWhere('starred'));
    return json(out);
  };
}
