import { memo, useEffect, useId, useState } from 'react';
import type { RiverItem } from '../../../src/app/api';
import type { Enclosure } from '../../../src/feed/model';
import { isWebUrl } from '../lib/format';
import { useApp, useAppStore } from '../store/context';
import { isRead } from '../store/reading-marks';
import { feedById } from '../store/river-slice';
import { Enclosures } from './Enclosures';
import { ItemActions } from './ItemActions';
import { ItemArticle } from './ItemArticle';
import { ItemMedia, playableVideo } from './ItemMedia';
import { Outline } from './Outline';
import { RelativeTime } from './RelativeTime';
import { SafeHtml } from './SafeHtml';

/** Above this many characters of HTML the text starts folded. */
const LONG_TEXT = 1600;

export interface ItemBodyProps {
  item: RiverItem;
  /** What the card is called (itemName). */
  name: string;
  feedLink: string | null;
  feedTitle?: string;
  compact?: boolean;
  full?: boolean;
  groupArt?: string | null;
}

/**
 * What an item card holds between its read dot and its star: the title, media, text (or its
 * article), enclosures and meta. Memoised apart from the card, which re-renders whenever its
 * selection or read state changes (every j: bench:river); this part only when the item, its
 * feed's settings, the player or its article change.
 */
/**
 * The body shows nothing of an item's read and starred marks (the card's shell does): an item
 * that changed only in those is the same body. (The river's groups take in a burst of reads every
 * 400 ms: each read item would otherwise re-render its whole body for nothing.)
 */
function sameBody(a: ItemBodyProps, b: ItemBodyProps): boolean {
  if (
    a.name !== b.name ||
    a.feedLink !== b.feedLink ||
    a.feedTitle !== b.feedTitle ||
    a.compact !== b.compact ||
    a.full !== b.full ||
    a.groupArt !== b.groupArt
  )
    return false;
  if (a.item === b.item) return true;
  for (const key of Object.keys(a.item) as (keyof RiverItem)[]) {
    if (key !== 'read' && key !== 'starred' && a.item[key] !== b.item[key]) return false;
  }
  return true;
}

export const ItemBody = memo(function ItemBody({
  item,
  name,
  feedLink,
  feedTitle,
  compact,
  full,
  groupArt,
}: ItemBodyProps) {
  const store = useAppStore();
  const markRead = useApp((s) => s.markRead);
  const unmuteItem = useApp((s) => s.unmuteItem);
  const play = useApp((s) => s.play);
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once per item shown as an article.
  useEffect(() => {
    if (reader && !article) void loadArticle(item.id);
  }, [reader]);

  /** Reading as you go (Settings.markReadOnScroll): opening or expanding an item reads it. */
  const readsIt = () => {
    const state = store.getState();
    if (!isRead(state, item) && state.markReadOnScroll) void markRead([item.id], true);
  };

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

  // Compact rows show one line; the full card shows the text, media and meta.
  return compact ? (
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
}, sameBody);
