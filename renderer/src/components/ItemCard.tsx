import { memo, useEffect, useRef, useState } from 'react';
import type { RiverItem } from '../../../src/app/api';
import { isWebUrl } from '../lib/format';
import { useApp } from '../store/context';
import { Enclosures } from './Enclosures';
import { StarIcon } from './icons';
import { RelativeTime } from './RelativeTime';
import { SafeHtml } from './SafeHtml';

/** Above this many characters of HTML the text starts folded. */
const LONG_TEXT = 1600;

interface Props {
  item: RiverItem;
  /** Where relative URLs in the text point when the item has no link of its own. */
  feedLink: string | null;
  /** Shown in search results, where items are not under their feed's heading. */
  feedTitle?: string;
}

/**
 * One item of the river. Clicking anywhere in it (following a link included) marks it read; the
 * dot and the star are buttons of their own for the keyboard.
 */
export const ItemCard = memo(function ItemCard({ item, feedLink, feedTitle }: Props) {
  const markRead = useApp((s) => s.markRead);
  const toggleStar = useApp((s) => s.toggleStar);
  const [expanded, setExpanded] = useState(false);
  const ref = useRef<HTMLElement>(null);

  const link = isWebUrl(item.link) ? item.link : null;
  const summary = item.summary?.trim() || null;
  const content = item.content?.trim() || null;
  const folded = summary ?? content;
  const text = expanded ? (content ?? summary) : folded;
  const canExpand = (content !== null && content !== folded) || (folded?.length ?? 0) > LONG_TEXT;
  const title = item.title?.trim() || null;

  // A native listener: a click on any link inside the sanitised text also counts as opening it.
  const { id, read } = item;
  useEffect(() => {
    const node = ref.current;
    if (!node || read) return;
    const open = (event: MouseEvent) => {
      if ((event.target as Element | null)?.closest('[data-keep-unread]')) return;
      void markRead([id], true);
    };
    node.addEventListener('click', open);
    node.addEventListener('auxclick', open);
    return () => {
      node.removeEventListener('click', open);
      node.removeEventListener('auxclick', open);
    };
  }, [id, read, markRead]);

  return (
    <article
      ref={ref}
      className={`item${item.read ? '' : ' unread'}${title ? '' : ' untitled'}`}
      data-testid="river-item"
      data-item-id={item.id}
      data-read={item.read}
      data-starred={item.starred}
    >
      <button
        type="button"
        className="read-dot"
        data-keep-unread
        aria-label={item.read ? 'Mark as unread' : 'Mark as read'}
        title={item.read ? 'Mark as unread' : 'Mark as read'}
        onClick={() => void markRead([item.id], !item.read)}
      />
      <div className="item-body">
        {feedTitle && <div className="item-feed">{feedTitle}</div>}
        {title &&
          (link ? (
            <a className="item-title" href={link} target="_blank" rel="noopener noreferrer">
              {title}
            </a>
          ) : (
            <span className="item-title">{title}</span>
          ))}
        {text && (
          <SafeHtml
            html={text}
            baseUrl={link ?? feedLink}
            className={`item-text${!expanded && canExpand ? ' folded' : ''}`}
          />
        )}
        {canExpand && (
          <button
            type="button"
            className="link-button"
            data-keep-unread
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? 'Show less' : 'Show more'}
          </button>
        )}
        <Enclosures enclosures={item.enclosures} />
        <footer className="item-meta">
          {link ? (
            <a href={link} target="_blank" rel="noopener noreferrer" className="item-time">
              <RelativeTime iso={item.published ?? item.seenAt} />
            </a>
          ) : (
            <RelativeTime className="item-time" iso={item.published ?? item.seenAt} />
          )}
          {item.authors.length > 0 && (
            <span className="item-authors">
              {item.authors
                .map((a) => a.name ?? a.email)
                .filter(Boolean)
                .join(', ')}
            </span>
          )}
          {item.categories.length > 0 && (
            <ul className="categories" aria-label="Categories">
              {item.categories.map((c) => (
                <li key={`${c.scheme ?? ''}|${c.term}`}>{c.label ?? c.term}</li>
              ))}
            </ul>
          )}
        </footer>
      </div>
      <button
        type="button"
        className={`star${item.starred ? ' starred' : ''}`}
        data-keep-unread
        data-testid="star-toggle"
        aria-pressed={item.starred}
        aria-label={item.starred ? 'Unstar' : 'Star'}
        title={item.starred ? 'Unstar' : 'Star (kept forever)'}
        onClick={() => void toggleStar(item.id)}
      >
        <StarIcon filled={item.starred} />
      </button>
    </article>
  );
});
