import type { ImagePolicy, RiverItem } from '../../../src/app/api';
import { episodeLabel, formatDuration } from '../lib/duration';
import { isWebUrl } from '../lib/format';
import { RemoteImage } from './RemoteImage';

/** A podcast item's square artwork (its own or its channel's), or null. */
export function podcastArt(item: Pick<RiverItem, 'podcast'>): string | null {
  const image = item.podcast?.image ?? null;
  return isWebUrl(image) ? image : null;
}

/**
 * What an item shows besides its text: a video feed's thumbnail (media:group, media:thumbnail,
 * media:content), a podcast's artwork with episode/season and length. Thumbnails link to the item.
 * A podcast's artwork is square and small, and shown once by the group's heading (`groupArt`):
 * an item shows it only when its own differs.
 */
export function ItemMedia({
  item,
  link,
  policy,
  allowed,
  groupArt = null,
}: {
  item: RiverItem;
  link: string | null;
  policy: ImagePolicy;
  allowed: boolean;
  groupArt?: string | null;
}) {
  const own = podcastArt(item);
  // Square artwork sent as a media thumbnail is artwork, not a 16:9 video frame.
  const found = pickThumbnail(item);
  const thumbnail = found !== null && found !== own ? found : null;
  const podcast = item.podcast;
  const episode = episodeLabel(podcast?.season, podcast?.episode);
  const duration = formatDuration(podcast?.durationSec);
  const artwork = own !== null && own !== groupArt ? own : null;
  const picture = thumbnail ?? artwork;
  if (!picture && !episode && !duration) return null;
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
      {image &&
        (thumbnail && link ? (
          <a href={link} target="_blank" rel="noopener noreferrer" className="media-link">
            {image}
          </a>
        ) : (
          image
        ))}
      {(episode || duration) && (
        <p className="podcast-facts">
          {episode && <span data-testid="podcast-episode">{episode}</span>}
          {duration && <span data-testid="podcast-duration">{duration}</span>}
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
