import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { RiverItem } from '../../../src/app/api';
import { useApp } from '../store/context';
import { ItemBody } from './ItemBody';
import { StarIcon } from './icons';

interface Props {
  item: RiverItem;
  /** Where relative URLs in the text point when the item has no link of its own. */
  feedLink: string | null;
  /** Shown in search results and list views, where items are not under their feed's heading. */
  feedTitle?: string;
  /** A title-only row (the compact list and the reading pane's list). */
  compact?: boolean;
  /** The reading pane: the whole text, never folded. */
  full?: boolean;
  /** The podcast artwork the group's heading shows once: not repeated on the item. */
  groupArt?: string | null;
}

/** What a screen reader announces for an item: its title, else the start of its text. */
export function itemName(item: Pick<RiverItem, 'title' | 'summary' | 'content'>): string {
  const title = item.title?.trim();
  if (title) return title;
  const text = (item.summary ?? item.content ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return 'Untitled item';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * One item of the river. Clicking anywhere in it (following a link included) marks it read and
 * selects it; the dot, the star and the player are buttons of their own for the keyboard.
 */
export const ItemCard = memo(function ItemCard({
  item,
  feedLink,
  feedTitle,
  compact,
  full,
  groupArt,
}: Props) {
  const markRead = useApp((s) => s.markRead);
  const toggleStar = useApp((s) => s.toggleStar);
  const selectItem = useApp((s) => s.selectItem);
  const selected = useApp((s) => s.selectedItemId === item.id);
  // Read by the keys a moment ago (keyReads) counts as read before the river's groups say so.
  const keyRead = useApp((s) => s.keyReads[item.id] === true);
  const read = item.read || keyRead;
  const ref = useRef<HTMLElement>(null);
  const title = item.title?.trim() || null;
  const name = itemName(item);

  // The keys selected this item outside the river (search results): bring it into view. The
  // river scrolls its own (it is virtualised: the item may not be in the DOM yet).
  const revealSeq = useApp((s) => (s.selectedItemId === item.id ? s.revealSeq : 0));
  useLayoutEffect(() => {
    const node = ref.current;
    if (!revealSeq || !node || node.closest('[data-river-scroll]')) return;
    node.scrollIntoView({ block: 'nearest' });
    node.focus({ preventScroll: true });
  }, [revealSeq]);

  // A native listener: a click on any link inside the sanitised text also counts as opening it.
  const { id } = item;
  useEffect(() => {
    const node = ref.current;
    if (!node || read) return;
    const opened = (event: MouseEvent) => {
      if ((event.target as Element | null)?.closest('[data-keep-unread], [data-held-src]')) return;
      // In the list views a click on the row selects it; only following the link reads it.
      if (compact && !(event.target as Element | null)?.closest('a')) return;
      void markRead([id], true);
    };
    node.addEventListener('click', opened);
    node.addEventListener('auxclick', opened);
    return () => {
      node.removeEventListener('click', opened);
      node.removeEventListener('auxclick', opened);
    };
  }, [id, read, markRead, compact]);

  const star = (
    <button
      type="button"
      className={`star${item.starred ? ' starred' : ''}`}
      data-keep-unread
      data-testid="star-toggle"
      aria-pressed={item.starred}
      // One name, its state in aria-pressed: "Star, pressed" (not "Unstar, pressed").
      aria-label="Star"
      title={item.starred ? 'Starred (kept forever): click to unstar' : 'Star (kept forever)'}
      onClick={() => void toggleStar(item.id)}
    >
      <StarIcon filled={item.starred} />
    </button>
  );
  const readDot = (
    <button
      type="button"
      className="read-dot"
      data-keep-unread
      aria-label={read ? 'Mark as unread' : 'Mark as read'}
      title={read ? 'Mark as unread' : 'Mark as read'}
      onClick={() => void markRead([item.id], !read)}
    />
  );
  const className = `item${read ? '' : ' unread'}${title ? '' : ' untitled'}${selected ? ' selected' : ''}${compact ? ' compact' : ''}${item.mutedBy ? ' muted' : ''}`;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard selects with j/k (features/keyboard); this is the pointer's way.
    <article
      ref={ref}
      className={className}
      data-testid="river-item"
      data-item-id={item.id}
      data-read={read}
      data-starred={item.starred}
      aria-label={`${name}${read ? '' : ', unread'}`}
      aria-current={selected || undefined}
      tabIndex={-1}
      onClick={() => selectItem(item.id)}
    >
      {readDot}
      <ItemBody
        item={item}
        name={name}
        feedLink={feedLink}
        feedTitle={feedTitle}
        compact={compact}
        full={full}
        groupArt={groupArt}
      />
      {star}
    </article>
  );
});
