/**
 * Search as the UI asks for it (issue 9): the query syntax (store/search-syntax.ts), a scope
 * (a feed, a folder with its subfolders, everything), and for each hit the match ranges in its
 * title and a plain-text snippet, so the renderer highlights without parsing HTML.
 */
import { htmlToText } from '../store/html-text.ts';
import { matchRanges, parseSearch, snippetOf } from '../store/search-syntax.ts';
import type { SearchRequest, SearchResults, SearchScope } from './api.ts';
import type { AppContext } from './context.ts';
import { feedTitleOf, toRiverItem } from './river.ts';

/** The feeds a scope covers; null for all. */
export function scopeFeedIds(ctx: AppContext, scope: SearchScope | null | undefined): number[] | null {
  if (!scope || scope.kind === 'all') return null;
  if (scope.kind === 'feed') return ctx.store.getFeed(scope.feedId) ? [scope.feedId] : [];
  return ctx.store.getFolder(scope.folderId) ? ctx.store.feedIdsInFolder(scope.folderId) : [];
}

export function searchItems(ctx: AppContext, req: SearchRequest): SearchResults {
  const parsed = parseSearch(req.query ?? '');
  const terms = parsed.terms.map((t) => `${t.words.join(' ')}${t.prefix ? '*' : ''}`);
  if (parsed.match === null) return { hits: [], terms };
  const limit = Math.min(200, Math.max(1, Math.trunc(req.limit ?? 50) || 50));
  const rows = ctx.store.searchScoped({ match: parsed.match, feedIds: scopeFeedIds(ctx, req.scope), limit });
  const feeds = new Map(ctx.store.listFeeds().map((f) => [f.id, f]));
  return {
    terms,
    hits: rows.map((row) => {
      const feed = feeds.get(row.feedId);
      const summary = htmlToText(row.summary, true);
      const content = htmlToText(row.content, true);
      const body = (content && content !== summary ? `${summary} ${content}` : summary)
        .replace(/\s+/g, ' ')
        .trim();
      const snip = snippetOf(body, matchRanges(body, parsed.terms));
      return {
        item: toRiverItem(row, feed),
        feedTitle: feedTitleOf(feed),
        titleRanges: matchRanges(row.title ?? '', parsed.terms),
        snippet: snip.snippet,
        snippetRanges: snip.ranges,
      };
    }),
  };
}
