/** The items table <-> ItemRow: the column list every item query selects, and the mapper. */
import type { Category, Enclosure, Item, ItemPodcast, Media, Person } from '../feed/model.ts';
import { parseJsonArray, str } from './context.ts';

function parseJsonObject<T>(text: unknown): T | null {
  if (typeof text !== 'string' || text === '') return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : null;
  } catch {
    return null;
  }
}

import type { ItemRow, MutedByRow, PlaybackRow } from './types.ts';

/** Columns every ItemRow query selects (pub_key rides along for river cursors). */
export const ITEM_COLUMNS = `items.id, items.feed_id, items.guid, items.title, items.link, items.summary,
  items.content, items.published, items.updated, items.seen_at, items.pub_key, items.read, items.starred,
  items.authors, items.categories, items.enclosures, items.media, items.children, items.comments,
  items.podcast, items.muted_by,
  (SELECT json_object('url', p.url, 'positionSec', p.position_sec, 'durationSec', p.duration_sec,
     'played', json(IIF(p.played = 1, 'true', 'false'))) FROM playback AS p WHERE p.item_id = items.id) AS playback`;

export type RawItem = Record<string, unknown>;

export function toItemRow(r: RawItem): ItemRow {
  return {
    id: r.id as number,
    feedId: r.feed_id as number,
    guid: r.guid as string,
    title: str(r.title),
    link: str(r.link),
    summary: str(r.summary),
    content: str(r.content),
    published: str(r.published),
    updated: str(r.updated),
    seenAt: r.seen_at as number,
    read: r.read === 1,
    starred: r.starred === 1,
    authors: parseJsonArray<Person>(r.authors),
    categories: parseJsonArray<Category>(r.categories),
    enclosures: parseJsonArray<Enclosure>(r.enclosures),
    media: parseJsonArray<Media>(r.media),
    children: parseJsonArray<Item>(r.children),
    comments: str(r.comments),
    podcast: parseJsonObject<ItemPodcast>(r.podcast),
    mutedBy: parseJsonObject<MutedByRow>(r.muted_by),
    playback: parseJsonObject<PlaybackRow>(r.playback),
  };
}

/** Items by row id, in the order asked (missing ids are skipped). */
export function itemsByIds(rows: readonly RawItem[], ids: readonly number[]): ItemRow[] {
  const byId = new Map(rows.map((r) => [r.id as number, r]));
  const out: ItemRow[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (r) out.push(toItemRow(r));
  }
  return out;
}
