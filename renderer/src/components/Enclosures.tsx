import type { Enclosure } from '../../../src/feed/model';
import { fileName, formatMegabytes, isWebUrl, mediaKind } from '../lib/format';
import { PaperclipIcon } from './icons';

/** Podcasts and attachments: a player for audio/video, a picture for images, always a link. */
export function Enclosures({ enclosures }: { enclosures: Enclosure[] }) {
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
            {kind === 'audio' && (
              // biome-ignore lint/a11y/useMediaCaption: feeds do not ship captions for their enclosures.
              <audio controls preload="none" src={enclosure.url} />
            )}
            {kind === 'video' && (
              // biome-ignore lint/a11y/useMediaCaption: feeds do not ship captions for their enclosures.
              <video controls preload="none" src={enclosure.url} />
            )}
            {isImage && (
              <img
                className="enclosure-image"
                src={enclosure.url}
                alt=""
                loading="lazy"
                referrerPolicy="no-referrer"
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
