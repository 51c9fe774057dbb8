import { memo, useState } from 'react';
import type { FeedStatus, FeedView } from '../../../../src/app/api';
import { FeedIcon } from '../../components/icons';
import { feedLabel } from '../../lib/group-feeds';
import { formatAbsolute } from '../../lib/relative-time';
import { useAppStore } from '../../store/context';
import { startDrag } from './drag';
import { RowMenu } from './RowMenu';
import { RowMenuButton, RowName, UnreadCount } from './TreeRowParts';
import { type TreeItemProps, treeItemAttributes, useDeleteCommand } from './tree-item';

/** Said after the name and the count, and only when it matters ("working" is the normal case). */
const STATUS_LABEL: Record<FeedStatus, string | null> = {
  pending: 'not fetched yet',
  ok: null,
  error: 'failing',
  gone: 'gone',
};

/** One feed in the tree: favicon, name, "N unread", its state; actions in a menu, not Tab stops. */
export const FeedRow = memo(function FeedRow({
  feed,
  faviconAllowed,
  ...item
}: TreeItemProps & {
  feed: FeedView;
  /** A favicon is a remote image: "load on click" keeps it away unless the feed is allowed. */
  faviconAllowed: boolean;
}) {
  const { actions, rowKey } = item;
  // Commands are read from the store when used, not subscribed to: a thousand rows holding five
  // subscriptions each would run five thousand selectors on every store change (every j press).
  const store = useAppStore();
  const { refreshFeeds, markFeedAllRead, unsubscribe, updateFeed, pushNotice } = store.getState();
  const [faviconFailed, setFaviconFailed] = useState(false);
  const label = feedLabel(feed);
  const status = STATUS_LABEL[feed.status];
  const failing = (feed.status === 'error' || feed.status === 'gone') && feed.error;
  const next = feed.nextDueAt
    ? `Next check ${formatAbsolute(feed.nextDueAt)}${feed.dueReason ? ` (${feed.dueReason})` : ''}`
    : null;
  // One line per feed (issue 17): how it is delivered, when it is checked next and what went wrong
  // are in the tooltip, the feed's own river and its settings, not a second line on every row.
  const tooltip = [feed.url, failing ? feed.error : null, feed.delivery, next].filter(Boolean).join('\n');

  function confirmUnsubscribe() {
    if (window.confirm(`Unsubscribe from “${label}”? Its items leave the river.`)) void unsubscribe(feed.id);
  }

  async function rename(title: string) {
    actions.commandEnd();
    const result = await updateFeed(feed.id, { title });
    if (!result.ok) pushNotice({ level: 'error', message: result.error.message });
  }

  // The Delete key on the row: ask, then unsubscribe.
  useDeleteCommand(item, confirmUnsubscribe);

  return (
    <li
      role="treeitem"
      tabIndex={item.tabIndex}
      {...treeItemAttributes(item)}
      className={`tree-item feed${item.selected ? ' selected' : ''} status-${feed.status}`}
      onDragStart={(e) => startDrag(e, { kind: 'feed', id: feed.id })}
      data-testid="feed-row"
      data-feed-id={feed.id}
      data-status={feed.status}
      title={tooltip}
    >
      <div className="tree-row">
        {feed.favicon && faviconAllowed && !faviconFailed ? (
          <img
            className="favicon"
            src={feed.favicon}
            alt=""
            width={16}
            height={16}
            loading="lazy"
            referrerPolicy="no-referrer"
            onError={() => setFaviconFailed(true)}
          />
        ) : (
          // No icon of its own (or pictures wait for a click): the generic feed icon, as other
          // readers show, not a coloured dot (the row's "!" says when it fails).
          <span className={`feed-icon feed-icon-${feed.status}`} aria-hidden="true" data-testid="feed-icon">
            <FeedIcon />
          </span>
        )}
        <RowName
          name={label}
          className="feed-title"
          renaming={item.command === 'rename'}
          renameLabel={`New name for ${label}`}
          onRename={(v) => void rename(v)}
          onCancel={actions.commandEnd}
        />{' '}
        {/* The name reads "title, N unread, state, error, delivery": the row's text in order. */}
        <UnreadCount unread={feed.unread} />
        {failing && (
          <span className="feed-warn" aria-hidden="true" data-testid="feed-error">
            !
          </span>
        )}
        {status && <span className="visually-hidden">, {status}</span>}
        <RowMenuButton
          label={`Actions for ${label}`}
          open={item.command === 'menu'}
          onOpen={() => actions.menu(rowKey)}
          testId="feed-menu-button"
        />
      </div>
      {item.command === 'menu' && (
        <RowMenu
          label={`Actions for ${label}`}
          onClose={actions.commandEnd}
          actions={[
            { label: 'Open', run: () => actions.open(rowKey) },
            { label: 'Rename', run: () => actions.rename(rowKey), testId: 'feed-rename' },
            {
              label: 'Move to folder…',
              run: () => actions.feedSettings(feed.id, 'folder'),
              testId: 'feed-move',
            },
            {
              label: 'Settings and filters…',
              run: () => actions.feedSettings(feed.id, 'title'),
              testId: 'feed-settings',
            },
            { label: 'Refresh now', run: () => void refreshFeeds(feed.id), testId: 'feed-refresh' },
            {
              label: 'Mark all read',
              run: () => void markFeedAllRead(feed.id),
              disabled: feed.unread === 0,
              testId: 'feed-mark-read',
            },
            { label: 'Unsubscribe…', run: confirmUnsubscribe, danger: true, testId: 'feed-unsubscribe' },
          ]}
        />
      )}
    </li>
  );
});
