/**
 * Moving in from FreshRSS or Miniflux (issue 32): what src/sync/greader-import.ts read from their
 * Google Reader API goes in through the app's own doors: the subscriptions with their folders as
 * an OPML import (the same path as a file: new feeds are fetched, existing ones kept), then the
 * starred items filed into their feeds (placed in the river by their own dates, as a backlog is)
 * and starred, with the read state they had. A starred item is known by its link: when its feed
 * is next read, an item with the same link is the same item.
 */
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { newItem } from '../feed/model-new.ts';
import { writeOpml } from '../feed/opml.ts';
import { type RemoteItem, readGReaderLibrary } from '../sync/greader-import.ts';
import type { GReaderImportInput, GReaderImportReport, TidingsApi } from './api.ts';
import type { AppContext } from './context.ts';

export async function importFromGReader(
  ctx: AppContext,
  api: Pick<TidingsApi, 'importOpml' | 'setStarred' | 'markRead'>,
  input: GReaderImportInput,
): Promise<Result<GReaderImportReport>> {
  const remote = await readGReaderLibrary(
    ctx.http,
    input?.url ?? '',
    input?.user ?? '',
    input?.password ?? '',
  );
  if (!remote.ok) return remote;
  const { subscriptions, starred } = remote.value;
  const opml = writeOpml({
    title: 'Imported subscriptions',
    dateCreated: ctx.clock.now(),
    subscriptions: subscriptions.map((s) => ({
      url: s.url,
      title: s.title,
      siteUrl: s.siteUrl,
      folder: s.folder,
    })),
  });
  const imported = await api.importOpml(opml);
  if (!imported.ok) return fail(tidingsError(imported.error.code, imported.error.message));
  const errors = [...imported.value.errors];

  // One look-up per subscription, not per starred item (up to MAX_STARRED of them).
  const feedIdOf = new Map(subscriptions.map((s) => [s.streamId, ctx.store.getFeedByUrl(s.url)?.id ?? null]));
  const byFeed = new Map<number, RemoteItem[]>();
  let orphans = 0;
  for (const item of starred) {
    const feedId = feedIdOf.get(item.streamId) ?? null;
    if (feedId === null) {
      orphans++;
      continue;
    }
    const items = byFeed.get(feedId);
    if (items) items.push(item);
    else byFeed.set(feedId, [item]);
  }
  if (orphans > 0)
    errors.push(`${orphans} starred item(s) belong to feeds that are not subscribed here; left out.`);

  let count = 0;
  const now = ctx.clock.now();
  for (const [feedId, items] of byFeed) {
    const models = items.map((i) => ({
      ...newItem(),
      id: i.link ?? `import:${i.streamId}:${i.title ?? ''}:${i.published ?? ''}`,
      title: i.title,
      link: i.link,
      content: i.html,
      published: i.published,
      updated: i.updated,
      authors: i.author ? [{ name: i.author, email: null, uri: null }] : [],
    }));
    ctx.store.upsertItems(feedId, models, { at: now, backlog: true });
    const ids = ctx.store.sync.itemIdsByGuids(
      feedId,
      models.map((m) => m.id),
    );
    const read: number[] = [];
    for (const [index, model] of models.entries()) {
      const id = ids.get(model.id);
      if (id === undefined) continue; // a tombstone: pruned here before, the feed asked us to forget it
      await api.setStarred(id, true);
      if (items[index]!.read) read.push(id);
      count++;
    }
    await api.markRead(read, true);
    ctx.events.emit('river.changed', { feedId, newItems: models.length, changedItems: [...ids.values()] });
  }
  return ok({ added: imported.value.added, existing: imported.value.existing, starred: count, errors });
}
