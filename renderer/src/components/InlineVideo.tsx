import { useEffect, useRef, useState } from 'react';
import type { ImagePolicy, RiverItem } from '../../../src/app/api';
import { formatClock } from '../lib/duration';
import { useApp } from '../store/context';
import { RemoteImage } from './RemoteImage';

/** Saved this often while a video plays (and on pause, end, and when it leaves the page). */
const SAVE_EVERY_S = 5;
/** This close to the end counts as watched. */
const END_S = 15;

/**
 * A video item as a podcast app shows one (issue 35): its picture with a play badge and its length;
 * pressed, the video plays right there, from where it was left (the core keeps the place), and
 * counts as played once watched to the end.
 */
export function InlineVideo({
  item,
  video,
  poster,
  policy,
  allowed,
  name,
}: {
  item: RiverItem;
  video: { url: string; type: string | null };
  poster: string | null;
  policy: ImagePolicy;
  allowed: boolean;
  name: string;
}) {
  const [playing, setPlaying] = useState(false);
  const savePlace = useApp((s) => s.savePlace);
  const el = useRef<HTMLVideoElement>(null);
  const lastSaved = useRef(0);
  const place = item.playback?.url === video.url ? item.playback : null;
  const length = item.podcast?.durationSec ?? place?.durationSec ?? null;
  const left = place && !place.played && place.positionSec > 0 && length ? length - place.positionSec : null;

  const save = (played?: boolean) => {
    const v = el.current;
    if (!v || (v.currentTime <= 0 && played === undefined)) return;
    const duration = Number.isFinite(v.duration) ? v.duration : null;
    savePlace(item.id, video.url, played ? 0 : v.currentTime, duration, played);
  };

  // Leaving the page (or scrolled out of the river's window) keeps the place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: saves on unmount only.
  useEffect(() => () => save(), []);

  if (playing) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: feeds do not ship captions for their videos.
      <video
        ref={el}
        className="inline-video"
        data-testid="inline-video"
        data-keep-unread
        controls
        autoPlay
        preload="metadata"
        src={video.url}
        poster={poster ?? undefined}
        onLoadedMetadata={(e) => {
          const at = place && !place.played ? place.positionSec : 0;
          if (at > 0 && at < e.currentTarget.duration - END_S) e.currentTarget.currentTime = at;
        }}
        onTimeUpdate={(e) => {
          if (Math.abs(e.currentTarget.currentTime - lastSaved.current) >= SAVE_EVERY_S) {
            lastSaved.current = e.currentTarget.currentTime;
            save();
          }
        }}
        onPause={() => save()}
        onEnded={() => save(true)}
      />
    );
  }
  return (
    <button
      type="button"
      className="video-poster"
      data-keep-unread
      data-testid="video-play"
      aria-label={`Play the video: ${name}${length ? `, ${formatClock(length)}` : ''}`}
      onClick={() => setPlaying(true)}
    >
      {poster ? (
        <RemoteImage src={poster} alt="" className="media-thumb" policy={policy} allowed={allowed} />
      ) : (
        <span className="media-thumb video-blank" />
      )}
      <span className="video-badge" aria-hidden="true">
        ▶
      </span>
      {(length || place?.played) && (
        <span className="video-length" data-testid="video-length">
          {place?.played ? 'Watched' : left ? `${formatClock(left)} left` : formatClock(length!)}
        </span>
      )}
    </button>
  );
}
