/** The fetch log as the API shows it: ISO times and the feed's display title. */
import type { FetchLogRow } from '../store/fetch-log.ts';
import type { FeedRow } from '../store/store.ts';
import type { FetchLogEntry, FetchLogQuery } from './api.ts';
import type { AppContext } from './context.ts';
import { feedTitleOf } from './river.ts';

/** `feed`: the entry's feed row when the caller has it in hand (else it is read). */
export function fetchLogEntryOf(
  ctx: AppContext,
  row: FetchLogRow,
  feed: FeedRow | null = ctx.store.getFeed(row.feedId),
): FetchLogEntry {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    feedId: row.feedId,
    feedTitle: feedTitleOf(feed ?? undefined),
    url: row.url,
    outcome: row.outcome,
    status: row.status,
    bytes: row.bytes,
    newItems: row.newItems,
    ms: row.ms,
    message: row.message,
    ok: row.ok,
  };
}

export function fetchLogEntries(ctx: AppContext, query: FetchLogQuery | undefined): FetchLogEntry[] {
  const feedId = typeof query?.feedId === 'number' && Number.isInteger(query.feedId) ? query.feedId : null;
  const raw = typeof query?.limit === 'number' ? query.limit : 100;
  const limit = Math.min(2000, Math.max(1, Number.isFinite(raw) ? Math.floor(raw) : 100));
  return ctx.fetchLog.list({ feedId, limit }).map((row) => fetchLogEntryOf(ctx, row));
}
