/**
 * Reading as a daily habit (issue 35): "mark older than a day / a week as read", the reader view's
 * articles (src/fulltext), and where each podcast or video episode was left. Thin use cases over
 * the store and the full-text reader; events tell every UI what changed.
 */
import { ok } from '../common/errors.ts';
import { createExtractPool } from '../fulltext/extract-pool.ts';
import { createFullTextReader } from '../fulltext/reader.ts';
import type { NowPlaying, TidingsApi } from './api.ts';
import { apiResult } from './api-result.ts';
import type { AppContext } from './context.ts';
import { emitStatus } from './refresh.ts';
import { feedTitleOf, toRiverItem } from './river.ts';
import type { UndoLog } from './undo.ts';

type HabitsApi = Pick<
  TidingsApi,
  'markOlderRead' | 'fullText' | 'savePlayback' | 'setPlayed' | 'nowPlaying' | 'setNowPlaying'
>;

const NOW_PLAYING_KEY = 'player.nowPlaying';
const HOUR_MS = 3_600_000;
const isMedia = (type: string | null | undefined) => !!type && /^(audio|video)\//i.test(type);
const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

function feedsTouched(ctx: AppContext, ids: readonly number[]): void {
  for (const feedId of ctx.store.itemsByFeed(ids).keys()) emitStatus(ctx, feedId);
  ctx.events.emit('folders.changed', { count: ctx.store.listFolders().length });
}

function ageWords(hours: number): string {
  if (hours % (24 * 7) === 0) return hours === 24 * 7 ? 'a week' : `${hours / (24 * 7)} weeks`;
  if (hours % 24 === 0) return hours === 24 ? 'a day' : `${hours / 24} days`;
  return hours === 1 ? 'an hour' : `${hours} hours`;
}

export function habitsApi(ctx: AppContext, undoLog: UndoLog): HabitsApi & { close(): Promise<void> } {
  const { store } = ctx;
  const pool = createExtractPool();
  const reader = createFullTextReader({ store, http: ctx.http, clock: ctx.clock, pool });

  return {
    close: () => pool.close(),

    async markOlderRead(input) {
      const hours = finite(input?.olderThanHours) ? Math.max(1, input.olderThanHours) : 24;
      const feedIds =
        input.feedId != null
          ? [input.feedId]
          : input.folderId != null
            ? store.feedIdsInFolder(input.folderId)
            : null;
      const ids = store.markOlderRead({
        before: ctx.clock.now() - hours * HOUR_MS,
        feedIds,
        starredOnly: input.starredOnly === true,
      });
      if (ids.length === 0) return null;
      feedsTouched(ctx, ids);
      const count = ids.length === 1 ? '1 item' : `${ids.length} items`;
      return undoLog.record(`Marked ${count} older than ${ageWords(hours)} read`, {
        restore: () => {
          store.markRead(ids, false);
          feedsTouched(ctx, ids);
          return ok(true as const);
        },
      });
    },

    async fullText(itemId, refresh) {
      const r = await reader.read(itemId, refresh === true);
      if (!r.ok) return apiResult(r);
      const { url, title, byline, siteName, content, fetchedAt } = r.value;
      return ok({
        itemId,
        url,
        title,
        byline,
        siteName,
        content,
        fetchedAt: new Date(fetchedAt).toISOString(),
      });
    },

    async savePlayback(input) {
      if (!finite(input.positionSec) || typeof input.url !== 'string') return;
      const wasPlayed = store.getPlayback(input.itemId)?.played ?? false;
      store.savePlayback({
        itemId: input.itemId,
        url: input.url,
        positionSec: Math.max(0, input.positionSec),
        durationSec: finite(input.durationSec) ? input.durationSec : null,
        ...(typeof input.played === 'boolean' ? { played: input.played } : {}),
      });
      // Rivers show played / unplayed: tell them when that changed, not at every position.
      if (typeof input.played === 'boolean' && input.played !== wasPlayed) itemChanged(ctx, input.itemId);
    },

    async setPlayed(itemId, played) {
      const row = store.getItems([itemId])[0];
      const media =
        row?.enclosures.find((e) => isMedia(e.type))?.url ?? row?.media.find((m) => m.url)?.url ?? null;
      if (store.setPlayed(itemId, played, media)) itemChanged(ctx, itemId);
    },

    async nowPlaying(): Promise<NowPlaying | null> {
      const saved = store.getSetting<{ itemId?: unknown; url?: unknown } | null>(NOW_PLAYING_KEY, null);
      if (!saved || typeof saved.itemId !== 'number' || typeof saved.url !== 'string') return null;
      const row = store.getItems([saved.itemId])[0];
      // Pruned or unsubscribed since: nothing to come back to.
      if (!row) return null;
      const feed = store.getFeed(row.feedId) ?? undefined;
      const item = toRiverItem(row, feed);
      const enclosure = row.enclosures.find((e) => e.url === saved.url);
      const media = row.media.find((m) => m.url === saved.url);
      const place = row.playback?.url === saved.url ? row.playback : null;
      return {
        itemId: row.id,
        feedId: row.feedId,
        url: saved.url,
        type: enclosure?.type ?? media?.type ?? null,
        title: row.title?.trim() || 'Untitled episode',
        feedTitle: feedTitleOf(feed),
        image: item.podcast?.image ?? null,
        positionSec: place && !place.played ? place.positionSec : 0,
        durationSec: place?.durationSec ?? null,
      };
    },

    async setNowPlaying(input) {
      store.setSetting(
        NOW_PLAYING_KEY,
        input && Number.isSafeInteger(input.itemId) && typeof input.url === 'string'
          ? { itemId: input.itemId, url: input.url }
          : null,
      );
    },
  };
}

function itemChanged(ctx: AppContext, itemId: number): void {
  const feedId = ctx.store.getItemFeedId(itemId);
  if (feedId !== null) ctx.events.emit('river.changed', { feedId, newItems: 0, changedItems: [itemId] });
}
