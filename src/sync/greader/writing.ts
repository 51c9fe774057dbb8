/**
 * Google Reader's writing calls, each through the app's own commands (so the desktop's river and
 * feed list hear of it at once): edit-tag (read, starred, kept-unread on many items),
 * mark-all-as-read (up to `ts`), subscription/edit (subscribe, unsubscribe, rename, move between
 * labels), subscription/quickadd (our autodiscovery), rename-tag and disable-tag (folders).
 * Success is the plain `OK` clients check for; a request we cannot do is a Refusal (400).
 */
import type { ApiResult, FolderView } from '../../app/api.ts';
import type { SyncBackend } from '../backend.ts';
import { folderByPath, markItems, markReadArrivedBefore, readLibrary } from '../library.ts';
import { json, type Params, text } from '../request.ts';
import { type GReaderContext, isRefusal, itemIdsParam, type Refusal, streamFilter } from './reading.ts';
import { feedStreamId, parseStreamId } from './streams.ts';

const OK = () => text('OK');
const refused = (message: string): Refusal => ({ refused: message });

export async function editTag(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const ids = itemIdsParam(params);
  if (isRefusal(ids)) return ids;
  if (ids.length === 0) return refused('Which items? Give i (repeated).');
  let read: boolean | undefined;
  let starred: boolean | undefined;
  const set = (key: 'read' | 'starred', value: boolean): Refusal | null => {
    const now = key === 'read' ? read : starred;
    if (now !== undefined && now !== value)
      return refused('The same request cannot both add and remove a state (read, kept-unread, starred).');
    if (key === 'read') read = value;
    else starred = value;
    return null;
  };
  for (const [list, adding] of [
    [params.all('a'), true],
    [params.all('r'), false],
  ] as const) {
    for (const tag of list) {
      const ref = parseStreamId(tag);
      let problem: Refusal | null = null;
      if (ref?.kind === 'read') problem = set('read', adding);
      else if (ref?.kind === 'kept-unread') problem = set('read', !adding);
      else if (ref?.kind === 'starred') problem = set('starred', adding);
      else if (ref?.kind === 'none')
        continue; // like, broadcast, tracking-*: nothing kept for them
      else return refused(`Tidings keeps read and starred on items, not "${tag.slice(0, 120)}".`);
      if (problem) return problem;
    }
  }
  await markItems(g.backend, ids, { read, starred });
  return OK();
}

/** ts: microseconds since the epoch (16 digits or more), else seconds, as Miniflux reads it. */
function tsParam(v: string | null, now: number): number {
  const s = v?.trim() ?? '';
  if (!/^[0-9]{1,20}$/.test(s)) return now;
  const n = Number(s);
  return s.length >= 16 ? Math.floor(n / 1000) : n * 1000;
}

export async function markAllAsRead(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const s = params.get('s');
  if (!s) return refused('Which stream? Give s.');
  const lib = await readLibrary(g.backend);
  const f = await streamFilter(g, async () => lib, s, params);
  if (isRefusal(f)) return f;
  if (f === null) return OK();
  // Everything up to ts inclusive: what the client had seen when it asked.
  const until = tsParam(params.get('ts'), g.backend.clock.now()) + 1;
  await markReadArrivedBefore(g.backend, f.feedIds, until);
  return OK();
}

/** The folder at a label's path, created (level by level, through the app's commands) when missing. */
async function ensureFolder(backend: SyncBackend, path: string): Promise<FolderView | Refusal> {
  const segments = path
    .split('/')
    .map((x) => x.trim())
    .filter(Boolean);
  if (segments.length === 0) return refused('A label needs a name.');
  // The folders once (not the whole library per level): below a folder made here, none exists.
  const folders = { folders: await backend.app.listFolders() };
  let parent: FolderView | null = null;
  let made = false;
  for (let i = 0; i < segments.length; i++) {
    const here = made ? undefined : folderByPath(folders, segments.slice(0, i + 1).join('/'));
    if (here) {
      parent = here;
      continue;
    }
    const folder: ApiResult<FolderView> = await backend.app.createFolder(segments[i]!, parent?.id ?? null);
    if (!folder.ok) return refused(folder.error.message);
    parent = folder.value;
    made = true;
  }
  return parent!;
}

const labelName = (stream: string | null): string | null => {
  const ref = parseStreamId(stream);
  return ref?.kind === 'label' ? ref.name : null;
};

export async function subscriptionEdit(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const action = params.get('ac');
  const streams = params.all('s');
  const titles = params.all('t');
  if (streams.length === 0) return refused('Which subscription? Give s.');
  const add = params.get('a');
  const remove = params.get('r');
  const addLabel = add ? labelName(add) : null;
  if (add && addLabel === null) return refused(`"${add.slice(0, 120)}" is not a label.`);
  const removeLabel = remove ? labelName(remove) : null;
  for (const [index, stream] of streams.entries()) {
    const ref = parseStreamId(stream);
    const title = titles[index]?.trim() ?? '';
    if (action === 'subscribe') {
      const url = ref?.kind === 'feedUrl' ? ref.url : null;
      if (!url) return refused("Subscribe with s=feed/<the feed's address>.");
      const folder = addLabel ? await ensureFolder(g.backend, addLabel) : null;
      if (isRefusal(folder)) return folder;
      const made = await g.backend.app.subscribe({ url, folderId: folder?.id ?? null });
      // Already subscribed is fine: the phone wanted it, and has it.
      if (!made.ok && made.error.code !== 'already_subscribed') return refused(made.error.message);
      const id = made.ok ? made.value.id : made.error.feedId;
      if (id !== undefined && title) await g.backend.app.updateFeed(id, { title });
      continue;
    }
    const id =
      ref?.kind === 'feed' ? ref.id : ref?.kind === 'feedUrl' ? g.backend.feedIdByUrl(ref.url) : null;
    if (id === null) return refused(`"${stream.slice(0, 120)}" is not a subscription.`);
    if (action === 'unsubscribe') {
      if ((await g.backend.app.unsubscribe(id)) === null)
        return refused(`There is no subscription ${stream}.`);
      continue;
    }
    if (action !== 'edit') return refused('ac is subscribe, unsubscribe or edit.');
    if (title) {
      const r = await g.backend.app.updateFeed(id, { title });
      if (!r.ok) return refused(r.error.message);
    }
    if (addLabel) {
      const folder = await ensureFolder(g.backend, addLabel);
      if (isRefusal(folder)) return folder;
      const r = await g.backend.app.updateFeed(id, { folderId: folder.id });
      if (!r.ok) return refused(r.error.message);
    } else if (removeLabel) {
      // Out of that label (a feed is in one folder): unfiled, if it was there.
      const lib = await readLibrary(g.backend);
      const feed = lib.feeds.find((f) => f.id === id);
      if (feed?.folderPath && feed.folderPath.toLowerCase() === removeLabel.toLowerCase()) {
        const r = await g.backend.app.updateFeed(id, { folderId: null });
        if (!r.ok) return refused(r.error.message);
      }
    }
  }
  return OK();
}

export async function quickAdd(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const raw = params.get('quickadd')?.trim() ?? '';
  const url = raw.startsWith('feed/') ? raw.slice('feed/'.length) : raw;
  if (!/^https?:\/\//i.test(url)) return refused('quickadd is a site or feed address (http or https).');
  const made = await g.backend.app.subscribe({ url });
  if (!made.ok && made.error.code === 'already_subscribed' && made.error.feedId !== undefined) {
    const feed = (await g.backend.app.listFeeds()).find((f) => f.id === made.error.feedId);
    return json({
      numResults: 1,
      query: url,
      streamId: feedStreamId(made.error.feedId),
      streamName: feed?.title ?? '',
    });
  }
  if (!made.ok) return json({ numResults: 0, query: url, error: made.error.message });
  return json({
    numResults: 1,
    query: url,
    streamId: feedStreamId(made.value.id),
    streamName: made.value.title,
  });
}

export async function renameTag(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const from = labelName(params.get('s') ?? (params.get('t') ? `user/-/label/${params.get('t')}` : null));
  const to = labelName(params.get('dest'));
  if (!from || !to) return refused('Rename with s=user/-/label/<old> and dest=user/-/label/<new>.');
  const lib = await readLibrary(g.backend);
  const folder = folderByPath(lib, from);
  if (!folder) return refused(`There is no label "${from}".`);
  const segments = to
    .split('/')
    .map((x) => x.trim())
    .filter(Boolean);
  const title = segments.pop();
  if (!title) return refused('The new label needs a name.');
  const parentPath = segments.join('/');
  const currentParent =
    folder.parentId === null ? '' : (lib.folders.find((f) => f.id === folder.parentId)?.path ?? '');
  if (parentPath.toLowerCase() !== currentParent.toLowerCase()) {
    const parent = parentPath ? await ensureFolder(g.backend, parentPath) : null;
    if (isRefusal(parent)) return parent;
    const moved = await g.backend.app.moveFolder(folder.id, parent?.id ?? null);
    if (!moved.ok) return refused(moved.error.message);
  }
  if (title !== folder.title) {
    const renamed = await g.backend.app.renameFolder(folder.id, title);
    if (!renamed.ok) return refused(renamed.error.message);
  }
  return OK();
}

/** Deletes labels: their feeds move up to the parent folder (nothing is unsubscribed). */
export async function disableTag(g: GReaderContext, params: Params): Promise<Response | Refusal> {
  const names = [
    ...params.all('s').map((s) => labelName(s)),
    ...params.all('t').map((t) => labelName(`user/-/label/${t}`)),
  ];
  if (names.length === 0 || names.some((n) => n === null))
    return refused('Give the label as s=user/-/label/<name>.');
  for (const name of names) {
    const folder = folderByPath(await readLibrary(g.backend), name!);
    if (!folder) return refused(`There is no label "${name}".`);
    const r = await g.backend.app.deleteFolder(folder.id);
    if (!r.ok) return refused(r.error.message);
  }
  return OK();
}
