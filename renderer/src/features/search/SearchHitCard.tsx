import { memo, useLayoutEffect, useRef } from 'react';
import type { RiverItem, SearchHit } from '../../../../src/app/api';
import { StarIcon } from '../../components/icons';
import { RelativeTime } from '../../components/RelativeTime';
import { isWebUrl } from '../../lib/format';
import { useApp, useAppStore } from '../../store/context';
import { Highlighted } from './Highlighted';

/** One search hit: its feed, the title and a snippet with the matches marked, read and star. */
export const SearchHitCard = memo(function SearchHitCard({
  item,
  hit,
  feedTitle,
}: {
  item: RiverItem;
  hit: Omit<SearchHit, 'item'> | undefined;
  feedTitle: string;
}) {
  // Commands read when used; only what the card shows is subscribed to (up to 100 cards).
  const { markRead, toggleStar, selectItem } = useAppStore().getState();
  const selected = useApp((s) => s.selectedItemId === item.id);
  // Read by the keys a moment ago counts as read (river-slice keyReads).
  const read = useApp((s) => item.read || s.keyReads[item.id] === true);
  // j/k walk search results too (the keyboard feature selects them): bring the selected hit into view.
  const revealSeq = useApp((s) => (s.selectedItemId === item.id ? s.revealSeq : 0));
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (!revealSeq) return;
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.focus({ preventScroll: true });
  }, [revealSeq]);
  const link = isWebUrl(item.link) ? item.link : null;
  const title = item.title?.trim() || null;
  const when = item.date ?? item.published ?? item.updated ?? item.seenAt;
  const titleId = `hit-${item.id}-title`;

  const titleText = title ? (
    <Highlighted text={title} ranges={title === item.title ? (hit?.titleRanges ?? []) : []} />
  ) : (
    'Untitled item'
  );

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: selecting by pointer; the keys select with j/k.
    <article
      ref={ref}
      tabIndex={-1}
      className={`search-hit${read ? '' : ' unread'}${selected ? ' selected' : ''}`}
      aria-labelledby={titleId}
      aria-current={selected || undefined}
      onClick={() => selectItem(item.id)}
      data-testid="search-hit"
      data-item-id={item.id}
    >
      <div className="search-hit-meta">
        <span className="item-feed">{feedTitle}</span>
        <RelativeTime iso={when} />
        {!read && <span className="visually-hidden">, unread</span>}
      </div>
      <h2 id={titleId} className="search-hit-title">
        {link ? (
          <a
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => void markRead([item.id], true)}
          >
            {titleText}
          </a>
        ) : (
          titleText
        )}
      </h2>
      {hit?.snippet && (
        <p className="search-hit-snippet">
          <Highlighted text={hit.snippet} ranges={hit.snippetRanges} />
        </p>
      )}
      <div className="search-hit-actions">
        <button type="button" className="link-button" onClick={() => void markRead([item.id], !read)}>
          {read ? 'Mark unread' : 'Mark read'}
        </button>
        <button
          type="button"
          className={`star${item.starred ? ' starred' : ''}`}
          aria-label={`Star ${title ?? 'item'}`}
          aria-pressed={item.starred}
          onClick={() => void toggleStar(item.id)}
        >
          <StarIcon filled={item.starred} />
        </button>
      </div>
    </article>
  );
});
