/**
 * The reader view's cache (issue 35): each item's article as it was extracted, so opening it again
 * reads one row instead of fetching and extracting the page. Bounded by size: past MAX_BYTES the
 * articles opened least recently go first. Rows go with their items (pruned, unsubscribed).
 */
import type { StoreContext } from './context.ts';
import { transaction } from './sqlite.ts';

/** The most the cache holds, in bytes of article HTML (about 400 articles of 50 KB). */
export const FULLTEXT_CACHE_BYTES = 20 * 1024 * 1024;

export interface FullTextRow {
  itemId: number;
  /** Where the article was read from, after redirects. */
  url: string;
  title: string | null;
  byline: string | null;
  siteName: string | null;
  /** The extracted article (HTML, not yet sanitised: the renderer sanitises every item's HTML). */
  content: string;
  fetchedAt: number;
}

export function getFullText(ctx: StoreContext, itemId: number): FullTextRow | null {
  const r = ctx
    .stmt('SELECT url, title, byline, site_name, content, fetched_at FROM fulltext_cache WHERE item_id = ?')
    .get(itemId) as Record<string, unknown> | undefined;
  if (!r) return null;
  ctx.stmt('UPDATE fulltext_cache SET used_at = ? WHERE item_id = ?').run(ctx.clock.now(), itemId);
  return {
    itemId,
    url: r.url as string,
    title: (r.title as string | null) ?? null,
    byline: (r.byline as string | null) ?? null,
    siteName: (r.site_name as string | null) ?? null,
    content: r.content as string,
    fetchedAt: r.fetched_at as number,
  };
}

/** Keeps an article (replacing the item's older one), then trims the cache to `maxBytes`. */
export function putFullText(ctx: StoreContext, row: FullTextRow, maxBytes = FULLTEXT_CACHE_BYTES): void {
  const bytes = Buffer.byteLength(row.content);
  transaction(ctx.db, () => {
    if (!ctx.stmt('SELECT 1 FROM items WHERE id = ?').get(row.itemId)) return;
    const now = ctx.clock.now();
    ctx
      .stmt(
        `INSERT OR REPLACE INTO fulltext_cache (item_id, url, title, byline, site_name, content, bytes, fetched_at, used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(row.itemId, row.url, row.title, row.byline, row.siteName, row.content, bytes, row.fetchedAt, now);
    const total = (ctx.stmt('SELECT IFNULL(SUM(bytes), 0) AS n FROM fulltext_cache').get() as { n: number })
      .n;
    if (total <= maxBytes) return;
    // The least recently opened first, until the rest fits (the one just kept stays).
    let over = total - maxBytes;
    const oldest = ctx
      .stmt('SELECT item_id, bytes FROM fulltext_cache WHERE item_id <> ? ORDER BY used_at, item_id')
      .all(row.itemId) as { item_id: number; bytes: number }[];
    const drop = ctx.stmt('DELETE FROM fulltext_cache WHERE item_id = ?');
    for (const r of oldest) {
      if (over <= 0) break;
      drop.run(r.item_id);
      over -= r.bytes;
    }
  });
}

/** Bytes the cache holds now (tests, diagnostics). */
export function fullTextCacheBytes(ctx: StoreContext): number {
  return (ctx.stmt('SELECT IFNULL(SUM(bytes), 0) AS n FROM fulltext_cache').get() as { n: number }).n;
}
