import { memo } from 'react';
import type { FeedStatus, FeedView } from '../../../../src/app/api';
import { CheckIcon, CloseIcon, RefreshIcon } from '../../components/icons';
import { feedLabel } from '../../lib/group-feeds';
import { formatAbsolute } from '../../lib/relative-time';
import { useApp } from '../../store/context';

const STATUS_LABEL: Record<FeedStatus, string> = {
  pending: 'Not fetched yet',
  ok: 'Working',
  error: 'Failing',
  gone: 'Gone',
};

export const FeedRow = memo(function FeedRow({ feed, selected }: { feed: FeedView; selected: boolean }) {
  const setFilter = useApp((s) => s.setFilter);
  const refreshFeeds = useApp((s) => s.refreshFeeds);
  const markFeedAllRead = useApp((s) => s.markFeedAllRead);
  const unsubscribe = useApp((s) => s.unsubscribe);
  const label = feedLabel(feed);
  const failing = (feed.status === 'error' || feed.status === 'gone') && feed.error;
  const next = feed.nextDueAt
    ? `Next check ${formatAbsolute(feed.nextDueAt)}${feed.dueReason ? ` (${feed.dueReason})` : ''}`
    : undefined;

  function confirmUnsubscribe() {
    if (window.confirm(`Unsubscribe from “${label}”? Its items leave the river.`)) void unsubscribe(feed.id);
  }

  return (
    <li
      className={`feed${selected ? ' selected' : ''} status-${feed.status}`}
      data-testid="feed-row"
      data-feed-id={feed.id}
      data-status={feed.status}
    >
      <button
        type="button"
        className="feed-select"
        aria-current={selected ? 'true' : undefined}
        onClick={() => setFilter({ feedId: feed.id })}
        title={feed.url}
      >
        <span className={`dot dot-${feed.status}`} role="img" aria-label={STATUS_LABEL[feed.status]} />
        <span className="feed-title">{label}</span>
        {feed.unread > 0 && (
          <span className="count" title={`${feed.unread} unread`}>
            {feed.unread}
          </span>
        )}
      </button>
      <div className="feed-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Refresh ${label}`}
          title="Refresh now"
          onClick={() => void refreshFeeds(feed.id)}
          data-testid="feed-refresh"
        >
          <RefreshIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={`Mark all of ${label} read`}
          title="Mark all read"
          disabled={feed.unread === 0}
          onClick={() => void markFeedAllRead(feed.id)}
          data-testid="feed-mark-read"
        >
          <CheckIcon />
        </button>
        <button
          type="button"
          className="icon-button danger"
          aria-label={`Unsubscribe from ${label}`}
          title="Unsubscribe"
          onClick={confirmUnsubscribe}
          data-testid="feed-unsubscribe"
        >
          <CloseIcon />
        </button>
      </div>
      {failing && (
        <p className="feed-error" title={feed.error ?? undefined} data-testid="feed-error">
          {feed.error}
        </p>
      )}
      <p className="feed-delivery" title={next}>
        {feed.delivery}
      </p>
    </li>
  );
});
