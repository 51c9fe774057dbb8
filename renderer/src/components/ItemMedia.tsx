import type { ImagePolicy, RiverItem } from '../../../src/app/api';
import { episodeLabel, formatDuration } from '../lib/duration';
import { isWebUrl, mediaKind } from '../lib/format';
import { pictureIn } from '../lib/same-image';
import { InlineVideo } from './InlineVideo';
import { RemoteImage } from './RemoteImage';

/** A podcast item's square artwork (its own or its channel's), or null. */
export function podcastArt(item: Pick<RiverItem, 'podcast'>): string | null {
  const image = item.podcast?.image ?? null;
  return isWebUrl(image) ? image : null;
}

/** The first video file an item carries that a browser can play (an enclosure, else a media entry). */
export function playableVideo(
  item: Pick<RiverItem, 'enclosures' | 'media'>,
): { url: string; type: string | null } | null {
  for (const e of item.enclosures ?? []) {
    if (isWebUrl(e.url) && mediaKind(e.type, e.url) === 'video') return { url: e.url, type: e.type };
  }
  for (const m of item.media ?? []) {
    if (isWebUrl(m.url) && mediaKind(m.type, m.url) === 'video') return { url: m.url, type: m.type };
  }
  return null;
}

/** "Played", or how much is left of an episode begun; null before it was ever played. */
export function playedLabel(item: Pick<RiverItem, 'playback' | 'podcast'>): string | null {
  const place = item.playback;
  if (!place) return null;
  if (place.played) return 'Played';
  const length = item.podcast?.durationSec ?? place.durationSec;
  if (!length || place.positionSec <= 0) return null;
  return `${formatDuration(Math.max(1, length - place.positionSec))} left`;
}

/**
 * What an item shows besides its text: a video feed's thumbnail (media:group, media:thumbnail,
 * media:content), a podcast's artwork with episode/season, length and played state. Thumbnails
 * link to the item; a playable video shows a play badge and its length, and plays in place.
 * A podcast's artwork is square and small, and shown once by the group's heading (`groupArt`):
 * an item shows it only when its own differs. A thumbnail that is also a picture of the text
 * being shown (`shownHtml`, at any size: lib/same-image.ts) is left to the text: one picture once.
 */
export function ItemMedia({
  item,
  link,
  policy,
  allowed,
  groupArt = null,
  shownHtml = null,
  baseUrl = null,
  name,
}: {
  item: RiverItem;
  link: string | null;
  policy: ImagePolicy;
  allowed: boolean;
  groupArt?: string | null;
  /** The HTML shown below (folded or whole): a thumbnail it already shows is not repeated. */
  shownHtml?: string | null;
  baseUrl?: string | null;
  name: string;
}) {
  const own = podcastArt(item);
  // Square artwork sent as a media thumbnail is artwork, not a 16:9 video frame.
  const found = pickThumbnail(item);
  const video = playableVideo(item);
  const inText = found !== null && !video && pictureIn(found, shownHtml, baseUrl);
  const thumbnail = found !== null && found !== own && !inText ? found : null;
  const podcast = item.podcast;
  const episode = episodeLabel(podcast?.season, podcast?.episode);
  const duration = video ? null : formatDuration(podcast?.durationSec);
  const played = video ? null : playedLabel(item);
  const artwork = own !== null && own !== groupArt ? own : null;
  const picture = thumbnail ?? artwork;
  if (!video && !picture && !episode && !duration && !played) return null;
  const image = picture && (
    <RemoteImage
      src={picture}
      alt={thumbnail ? `Thumbnail: ${item.title ?? 'video'}` : 'Episode artwork'}
      className={thumbnail ? 'media-thumb' : 'podcast-art'}
      policy={policy}
      allowed={allowed}
    />
  );
  return (
    <div className="item-media" data-testid="item-media">
      {video ? (
        <InlineVideo item={item} video={video} poster={found} policy={policy} allowed={allowed} name={name} />
      ) : (
        image &&
        (thumbnail && link ? (
          <a href={link} target="_blank" rel="noopener noreferrer" className="media-link">
            {image}
          </a>
        ) : (
          image
        ))
      )}
      {(episode || duration || played) && (
        <p className="podcast-facts">
          {episode && <span data-testid="podcast-episode">{episode}</span>}
          {duration && <span data-testid="podcast-duration">{duration}</span>}
          {played && (
            <span className="podcast-played" data-testid="podcast-played">
              {played}
            </span>
          )}
        </p>
      )}
    </div>
  );
}

/** The first thumbnail a media entry names, or an image-medium entry itself. */
export function pickThumbnail(item: Pick<RiverItem, 'media'>): string | null {
  for (const media of item.media ?? []) {
    if (isWebUrl(media.thumbnail)) return media.thumbnail;
  }
  for (const media of item.media ?? []) {
    const image = media.medium === 'image' || (media.type?.startsWith('image/') ?? false);
    if (image && isWebUrl(media.url)) return media.url;
  }
  return null;
}
