import type { ImagePolicy } from '../../../src/app/api';
import type { Enclosure } from '../../../src/feed/model';
import { fileName, formatMegabytes, isWebUrl, mediaKind } from '../lib/format';
import { pictureIn } from '../lib/same-image';
import { PaperclipIcon } from './icons';
import { RemoteImage } from './RemoteImage';

/**
 * Podcasts and attachments: audio goes to the one player bar (it keeps playing while you browse),
 * video plays in place, images follow the privacy setting; always a link as well.
 */
export function Enclosures({
  enclosures,
  onPlay,
  policy,
  allowed,
  playing,
  inlineVideo = null,
  shownHtml = null,
  baseUrl = null,
}: {
  enclosures: Enclosure[];
  /** Audio: put it in the player bar. Without it, audio plays in place. */
  onPlay?: (enclosure: Enclosure) => void;
  policy: ImagePolicy;
  allowed: boolean;
  /** The URL the player bar holds now. */
  playing?: string | null;
  /** A video the item's media already plays in place (ItemMedia): listed, not played twice. */
  inlineVideo?: string | null;
  /** The item's text as shown: a picture it already shows is listed, not shown twice. */
  shownHtml?: string | null;
  baseUrl?: string | null;
}) {
  const usable = enclosures.filter((e) => isWebUrl(e.url));
  if (usable.length === 0) return null;
  return (
    <ul className="enclosures">
      {usable.map((enclosure) => {
        const kind = mediaKind(enclosure.type, enclosure.url);
        const size = formatMegabytes(enclosure.length);
        const isImage = enclosure.type?.toLowerCase().startsWith('image/') ?? false;
        return (
          <li key={enclosure.url} className="enclosure">
            {kind === 'audio' &&
              (onPlay ? (
                <button
                  type="button"
                  className="play-button"
                  data-keep-unread
                  data-testid="play-episode"
                  aria-pressed={playing === enclosure.url}
                  onClick={() => onPlay(enclosure)}
                >
                  {playing === enclosure.url ? 'In the player' : '▶ Play'}
                </button>
              ) : (
                // biome-ignore lint/a11y/useMediaCaption: feeds do not ship captions for their enclosures.
                <audio controls preload="none" src={enclosure.url} />
              ))}
            {kind === 'video' && enclosure.url !== inlineVideo && (
              // biome-ignore lint/a11y/useMediaCaption: feeds do not ship captions for their enclosures.
              <video controls preload="none" src={enclosure.url} />
            )}
            {isImage && !pictureIn(enclosure.url, shownHtml, baseUrl) && (
              <RemoteImage
                className="enclosure-image"
                src={enclosure.url}
                alt=""
                policy={policy}
                allowed={allowed}
              />
            )}
            <a className="enclosure-link" href={enclosure.url} target="_blank" rel="noopener noreferrer">
              <PaperclipIcon />
              <span className="enclosure-name">{fileName(enclosure.url)}</span>
              {enclosure.type && <span className="enclosure-type">{enclosure.type}</span>}
              {size && <span className="enclosure-size">{size}</span>}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
