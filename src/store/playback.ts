/**
 * Where each episode was left and whether it was played (podcasts and video, issue 35): one row
 * per item, gone with the item. "Played" is set when an episode is finished or the person says so;
 * starting it again from the top clears it.
 */
import type { StoreContext } from './context.ts';
import type { PlaybackRow } from './types.ts';

export interface PlaybackInput {
  itemId: number;
  url: string;
  positionSec: number;
  durationSec: number | null;
  /** Absent: left as it was (a new row starts unplayed). */
  played?: boolean;
}

/** Records a position; false when the item is not there (pruned, unsubscribed). */
export function savePlayback(ctx: StoreContext, p: PlaybackInput): boolean {
  const played = p.played === undefined ? null : p.played ? 1 : 0;
  const changes = ctx
    .stmt(
      `INSERT INTO playback (item_id, url, position_sec, duration_sec, played, updated_at)
       SELECT ?1, ?2, ?3, ?4, IFNULL(?5, 0), ?6 WHERE EXISTS (SELECT 1 FROM items WHERE id = ?1)
       ON CONFLICT (item_id) DO UPDATE SET url = excluded.url, position_sec = excluded.position_sec,
         duration_sec = IFNULL(excluded.duration_sec, playback.duration_sec),
         played = IFNULL(?5, playback.played), updated_at = excluded.updated_at`,
    )
    .run(p.itemId, p.url, p.positionSec, p.durationSec, played, ctx.clock.now()).changes;
  return Number(changes) > 0;
}

/** Played or unplayed by hand; a played episode starts from the top next time. */
export function setPlayed(ctx: StoreContext, itemId: number, played: boolean, url: string | null): boolean {
  const row = ctx.stmt('SELECT url FROM playback WHERE item_id = ?').get(itemId) as
    | { url: string }
    | undefined;
  const target = row?.url ?? url;
  if (target === null) return false;
  return savePlayback(ctx, { itemId, url: target, positionSec: 0, durationSec: null, played });
}

export function getPlayback(ctx: StoreContext, itemId: number): PlaybackRow | null {
  const r = ctx
    .stmt('SELECT url, position_sec, duration_sec, played FROM playback WHERE item_id = ?')
    .get(itemId) as
    | { url: string; position_sec: number; duration_sec: number | null; played: number }
    | undefined;
  return r
    ? { url: r.url, positionSec: r.position_sec, durationSec: r.duration_sec, played: r.played === 1 }
    : null;
}
