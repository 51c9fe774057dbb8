import { memo, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { RiverItem } from '../../../src/app/api';
import type { Enclosure } from '../../../src/feed/model';
import { isWebUrl } from '../lib/format';
import { useApp, useAppStore } from '../store/context';
import { feedById } from '../store/river-slice';
import { Enclosures } from './Enclosures';
import { ItemActions } from './ItemActions';
import { ItemArticle } from './ItemArticle';
import { ItemMedia, playableVideo } from './ItemMedia';
import { StarIcon } from './icons';
import { Outline } from './Outline';
import { RelativeTime } from './RelativeTime';
import { SafeHtml } from './SafeHtml';

/** Above this many characters of HTML the text starts folded. */
const LONG_TEXT = 1600;

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
  const store = useAppStore();
  const markRead = useApp((s) => s.markRead);
  const toggleStar = useApp((s) => s.toggleStar);
  const selectItem = useApp((s) => s.selectItem);
  const unmuteItem = useApp((s) => s.unmuteItem);
  const play = useApp((s) => s.play);
  const selected = useApp((s) => s.selectedItemId === item.id);
  const policy = useApp((s) => s.imagePolicy);
  // The feed's images allow list (1) and "always show full text" (2), in one selector: each
  // selector runs for every card on every store update (bench:river).
  const feedFlags = useApp((s) => {
    const feed = feedById(s.feeds, item.feedId);
    return (feed?.loadImages ? 1 : 0) | (feed?.fullText ? 2 : 0);
  });
  const allowed = (feedFlags & 1) !== 0;
  const playing = useApp((s) => (s.nowPlaying?.itemId === item.id ? s.nowPlaying.url : null));
  const readerChoice = useApp((s) => s.readerChoice[item.id]);
  const article = useApp((s) => s.articles[item.id]);
  const setReader = useApp((s) => s.setReader);
  const loadArticle = useApp((s) => s.loadArticle);
  const [expanded, setExpanded] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const textId = useId();

  const link = isWebUrl(item.link) ? item.link : null;
  // The reader view: the person's choice for this item, else the feed's setting.
  const reader = !compact && link !== null && (readerChoice ?? (feedFlags & 2) !== 0);
  const summary = item.summary?.trim() || null;
  const content = item.content?.trim() || null;
  const folded = summary ?? content;
  const open = expanded || full === true;
  const text = open ? (content ?? summary) : folded;
  const canExpand = !full && ((content !== null && content !== folded) || (folded?.length ?? 0) > LONG_TEXT);
  const title = item.title?.trim() || null;
  const when = item.date ?? item.seenAt;
  const name = itemName(item);

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once per item shown as an article.
  useEffect(() => {
    if (reader && !article) void loadArticle(item.id);
  }, [reader]);

  /** Reading as you go (Settings.markReadOnScroll): opening or expanding an item reads it. */
  const readsIt = () => {
    if (!item.read && store.getState().markReadOnScroll) void markRead([item.id], true);
  };
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
  const { id, read } = item;
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

  function onPlay(enclosure: Enclosure) {
    const place =
      item.playback?.url === enclosure.url && !item.playback.played ? item.playback.positionSec : 0;
    play({
      startAt: place,
      url: enclosure.url,
      type: enclosure.type,
      title: name,
      // Read when played, not on every render: no subscription for it.
      feedTitle: feedTitle ?? feedById(store.getState().feeds, item.feedId)?.title ?? '',
      itemId: item.id,
      image: item.podcast?.image ?? null,
    });
  }

  const titleNode =
    title &&
    (link ? (
      <a className="item-title" href={link} target="_blank" rel="noopener noreferrer">
        {title}
      </a>
    ) : (
      <span className="item-title">{title}</span>
    ));
  const time = <RelativeTime className="item-time" iso={when} />;
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
      aria-label={item.read ? 'Mark as unread' : 'Mark as read'}
      title={item.read ? 'Mark as unread' : 'Mark as read'}
      onClick={() => void markRead([item.id], !item.read)}
    />
  );
  const className = `item${item.read ? '' : ' unread'}${title ? '' : ' untitled'}${selected ? ' selected' : ''}${compact ? ' compact' : ''}${item.mutedBy ? ' muted' : ''}`;

  // Compact rows show one line; the full card shows the text, media and meta.
  const body = compact ? (
    <div className="item-line">
      {titleNode ?? <span className="item-title">{name}</span>}
      {feedTitle && <span className="item-feed">{feedTitle}</span>}
      {time}
    </div>
  ) : (
    <div className="item-body">
      {feedTitle && <div className="item-feed">{feedTitle}</div>}
      {titleNode}
      {item.mutedBy && (
        <p className="muted-note" data-testid="muted-note">
          Muted by “{item.mutedBy.pattern}”
          <button
            type="button"
            className="link-button"
            data-keep-unread
            onClick={() => void unmuteItem(item.id)}
          >
            Unmute
          </button>
        </p>
      )}
      <ItemMedia
        item={item}
        link={link}
        policy={policy}
        allowed={allowed}
        groupArt={groupArt ?? null}
        shownHtml={reader ? (article?.status === 'ready' ? article.article.content : null) : text}
        baseUrl={reader && article?.status === 'ready' ? article.article.url : (link ?? feedLink)}
        name={name}
      />
      {reader && link ? (
        <ItemArticle
          id={textId}
          state={article}
          link={link}
          policy={policy}
          allowed={allowed}
          onRetry={() => void loadArticle(item.id, true)}
        />
      ) : (
        text && (
          <div id={textId}>
            <SafeHtml
              html={text}
              baseUrl={link ?? feedLink}
              className={`item-text${!open && canExpand ? ' folded' : ''}`}
              images={{ images: policy, allowImages: allowed }}
            />
          </div>
        )
      )}
      {canExpand && !reader && (
        <button
          type="button"
          className="link-button"
          data-keep-unread
          aria-expanded={expanded}
          aria-controls={textId}
          onClick={() => {
            if (!expanded) readsIt();
            setExpanded(!expanded);
          }}
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
      <Outline items={item.children ?? []} baseUrl={link ?? feedLink} />
      <Enclosures
        enclosures={item.enclosures}
        onPlay={onPlay}
        policy={policy}
        allowed={allowed}
        playing={playing}
        inlineVideo={playableVideo(item)?.url ?? null}
        shownHtml={text}
        baseUrl={link ?? feedLink}
      />
      <footer className="item-meta">
        {link ? (
          <a href={link} target="_blank" rel="noopener noreferrer" className="item-time">
            <RelativeTime iso={when} />
          </a>
        ) : (
          time
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
        <span className="item-ways">
          {link && (
            <button
              type="button"
              className="link-button"
              data-keep-unread
              data-testid="full-text-toggle"
              aria-pressed={reader}
              aria-controls={reader || text ? textId : undefined}
              title="The whole article, fetched from its page (t)"
              onClick={() => {
                if (!reader) readsIt();
                setReader(item.id, !reader);
              }}
            >
              Full text
            </button>
          )}
          <ItemActions item={item} name={name} inRiver={!feedTitle || full === true} />
        </span>
      </footer>
    </div>
  );

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard selects with j/k (features/keyboard); this is the pointer's way.
    <article
      ref={ref}
      className={className}
      data-testid="river-item"
      data-item-id={item.id}
      data-read={item.read}
      data-starred={item.starred}
      aria-label={`${name}${item.read ? '' : ', unread'}`}
      aria-current={selected || undefined}
      tabIndex={-1}
      onClick={() => selectItem(item.id)}
    >
      {readDot}
      {body}
      {star}
    </article>
  );
});
