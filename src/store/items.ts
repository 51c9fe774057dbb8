/**
 * upsertItems: one transaction per fetch, ONE upsert statement per item (STYLE 12; not
 * Fluent Reader's query-per-item duplicate hunt). The statement itself tells the three cases apart:
 * - new: inserted, RETURNING revision 0;
 * - seen again, changed: content columns rewritten (seen_at/read/starred kept), revision + 1;
 * - seen again, unchanged, or pruned earlier (tombstoned): no row written, nothing returned.
 */
import type { Item } from '../feed/model.ts';
import { jsonArray, type StoreContext } from './context.ts';
import { contentHash, itemIdentity, publishedKey } from './item-identity.ts';
import { applyMuteFilters } from './mute.ts';
import { indexItem } from './search.ts';
import { transaction } from './sqlite.ts';
import type { UpsertResult } from './types.ts';

const UPSERT = `
INSERT INTO items (feed_id, guid, title, link, summary, content, published, updated, pub_key, seen_at,
                   authors, categories, enclosures, media, children, comments, hash, podcast, arrived_at)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19
WHERE NOT EXISTS (SELECT 1 FROM tombstones WHERE feed_id = ?1 AND guid = ?2)
ON CONFLICT (feed_id, guid) DO UPDATE SET
  title = excluded.title, link = excluded.link, summary = excluded.summary, content = excluded.content,
  published = excluded.published, updated = excluded.updated, pub_key = excluded.pub_key,
  authors = excluded.authors, categories = excluded.categories, enclosures = excluded.enclosures,
  media = excluded.media, children = excluded.children, comments = excluded.comments,
  hash = excluded.hash, podcast = excluded.podcast, revision = revision + 1
WHERE items.hash <> excluded.hash
RETURNING id, revision`;

/** Tombstones the feed still lists are kept alive (see retention.ts); touched at most daily. */
const TOUCH_TOMBSTONES = `
UPDATE tombstones SET last_seen = ?1
WHERE feed_id = ?2 AND last_seen < ?1 - 86400000 AND guid IN (SELECT value FROM json_each(?3))`;

/**
 * When a fetch's items entered the river: one time for the whole fetch (River5: a live arrival
 * tops the river), or a backlog, where each new item is placed by its own date (never later than
 * the fetch, undated items at the fetch).
 */
export type SeenAt = number | { at: number; backlog: true };

/**
 * A backlog item dated within this long before its fetch was published while the feed was being
 * read: it is news as fresh as the fetch, and placed at the fetch. Placed at its own date it sat
 * below undated items fetched moments before: RSS dates count whole seconds, and a post of one's
 * own, read into the river a second or two after it was made (on a busy machine), went below the
 * items fetched earlier in its second, out of the windowed river's sight. Older items keep their
 * own dates, so a new subscription's backlog still reads in its order.
 */
const FRESH_MS = 60_000;

function seenAtOf(seenAt: SeenAt, item: Item): number {
  if (typeof seenAt === 'number') return seenAt;
  const own = publishedKey(item.published ?? item.updated);
  if (own <= 0 || own > seenAt.at - FRESH_MS) return seenAt.at;
  return own;
}

export function upsertItems(
  ctx: StoreContext,
  feedId: number,
  items: readonly Item[],
  seenAt: SeenAt,
): UpsertResult {
  const fetchedAt = typeof seenAt === 'number' ? seenAt : seenAt.at;
  const inserted: number[] = [];
  let muted: number[] = [];
  const changed: number[] = [];
  let updated = 0;
  if (items.length === 0) return { inserted, updated, changed, muted };
  transaction(ctx.db, () => {
    if (!ctx.stmt('SELECT 1 FROM feeds WHERE id = ?').get(feedId)) return;
    const upsert = ctx.stmt(UPSERT);
    const quiet: string[] = [];
    // Search rows are written after all item rows: FTS5 flushes its pending terms at every
    // statement savepoint, and each item upsert opens one, so interleaving would write one
    // tiny index segment per item (measured: 8x slower). Batched, it is one segment per fetch.
    const toIndex: { id: number; item: Item; replace: boolean }[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const guid = itemIdentity(item);
      // A feed listing the same item twice: the first wins, as it would on the next fetch.
      if (seen.has(guid)) continue;
      seen.add(guid);
      const row = upsert.get(
        feedId,
        guid,
        item.title,
        item.link,
        item.summary,
        item.content,
        item.published,
        item.updated,
        // An item with only <updated> sorts by it (issue 9), not as the oldest of its fetch.
        publishedKey(item.published ?? item.updated),
        seenAtOf(seenAt, item),
        jsonArray(item.authors),
        jsonArray(item.categories),
        jsonArray(item.enclosures),
        jsonArray(item.media),
        jsonArray(item.children),
        item.comments,
        contentHash(item),
        item.podcast ? JSON.stringify(item.podcast) : null,
        fetchedAt,
      ) as { id: number; revision: number } | undefined;
      if (!row) {
        quiet.push(guid);
      } else if (row.revision === 0) {
        inserted.push(row.id);
        toIndex.push({ id: row.id, item, replace: false });
      } else {
        updated++;
        changed.push(row.id);
        toIndex.push({ id: row.id, item, replace: true });
      }
    }
    for (const x of toIndex) indexItem(ctx, x.id, x.item, x.replace);
    // Mute filters apply to items as they arrive (not to changed ones: an undone mute stays undone).
    const fresh = toIndex.filter((x) => !x.replace);
    if (fresh.length > 0) muted = applyMuteFilters(ctx, feedId, fresh);
    if (quiet.length > 0) ctx.stmt(TOUCH_TOMBSTONES).run(fetchedAt, feedId, JSON.stringify(quiet));
  });
  return { inserted, updated, changed, muted };
}

/**
 * upsertItems for a long list without holding the event loop: a document of 5,000 new items took
 * about 430 ms in one transaction, during which the API and the receiver could not answer. Past
 * `slice` items, the list (first of each guid kept, as upsertItems does) is written in
 * transactions of `slice` items with a turn of the event loop between them. Each slice is
 * atomic; a crash between two leaves the earlier ones, and the next fetch writes the rest (the
 * validators are saved only after the whole list).
 */
export async function upsertItemsInSlices(
  ctx: StoreContext,
  feedId: number,
  items: readonly Item[],
  seenAt: SeenAt,
  slice = 250,
): Promise<UpsertResult> {
  if (items.length <= slice) return upsertItems(ctx, feedId, items, seenAt);
  const seen = new Set<string>();
  const unique = items.filter((item) => {
    const guid = itemIdentity(item);
    if (seen.has(guid)) return false;
    seen.add(guid);
    return true;
  });
  const inserted: number[] = [];
  const muted: number[] = [];
  const changed: number[] = [];
  let updated = 0;
  for (let i = 0; i < unique.length; i += slice) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const r = upsertItems(ctx, feedId, unique.slice(i, i + slice), seenAt);
    for (const id of r.inserted) inserted.push(id);
    for (const id of r.muted) muted.push(id);
    updated += r.updated;
    for (const id of r.changed) changed.push(id);
  }
  return { inserted, updated, changed, muted };
}
