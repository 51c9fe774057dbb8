import { useMemo } from 'react';
import { groupFeedsByFolder, totalUnread } from '../../lib/group-feeds';
import { useApp } from '../../store/context';
import { FeedRow } from './FeedRow';

/** "All", then feeds by folder. Rows are memoised: a 'feed.status' event re-renders one row. */
export function FeedList() {
  const feeds = useApp((s) => s.feeds);
  const selectedId = useApp((s) => s.filter.feedId);
  const setFilter = useApp((s) => s.setFilter);
  const folders = useMemo(() => groupFeedsByFolder(feeds), [feeds]);
  const unread = useMemo(() => totalUnread(feeds), [feeds]);

  return (
    <nav className="feed-list" aria-label="Feeds" data-testid="feed-list">
      <button
        type="button"
        className={`feed-all${selectedId === null ? ' selected' : ''}`}
        aria-current={selectedId === null ? 'true' : undefined}
        onClick={() => setFilter({ feedId: null })}
        data-testid="feed-all"
      >
        <span className="feed-title">All</span>
        {unread > 0 && <span className="count">{unread}</span>}
      </button>
      {folders.map((group) =>
        group.folder === null ? (
          <ul key="" className="feeds">
            {group.feeds.map((feed) => (
              <FeedRow key={feed.id} feed={feed} selected={feed.id === selectedId} />
            ))}
          </ul>
        ) : (
          <details key={group.folder} className="folder" open>
            <summary>
              <span className="folder-name">{group.folder}</span>
              {group.unread > 0 && <span className="count">{group.unread}</span>}
            </summary>
            <ul className="feeds">
              {group.feeds.map((feed) => (
                <FeedRow key={feed.id} feed={feed} selected={feed.id === selectedId} />
              ))}
            </ul>
          </details>
        ),
      )}
    </nav>
  );
}
