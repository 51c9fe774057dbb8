import { useMemo } from 'react';
import { ItemCard } from '../../components/ItemCard';
import { isWebUrl } from '../../lib/format';
import { feedLabel } from '../../lib/group-feeds';
import { useApp } from '../../store/context';

/** Search hits, newest relevance first as the core ranks them, each labelled with its feed. */
export function SearchResults() {
  const results = useApp((s) => s.searchResults) ?? [];
  const query = useApp((s) => s.searchQuery);
  const searching = useApp((s) => s.searching);
  const feeds = useApp((s) => s.feeds);
  const clearSearch = useApp((s) => s.clearSearch);
  const feedById = useMemo(() => new Map(feeds.map((f) => [f.id, f])), [feeds]);

  return (
    <div className="river-scroll" data-testid="search-results">
      <div className="search-head">
        <span role="status">
          {searching
            ? `Searching for “${query}”…`
            : `${results.length === 0 ? 'No' : results.length} result${results.length === 1 ? '' : 's'} for “${query}”`}
        </span>
        <button type="button" className="link-button" onClick={clearSearch}>
          Back to the river
        </button>
      </div>
      <div className="search-list">
        {results.map((item) => {
          const feed = feedById.get(item.feedId);
          const siteUrl = feed?.siteUrl ?? null;
          return (
            <ItemCard
              key={item.id}
              item={item}
              feedTitle={feed ? feedLabel(feed) : 'Unknown feed'}
              feedLink={isWebUrl(siteUrl) ? siteUrl : null}
            />
          );
        })}
      </div>
    </div>
  );
}
