/**
 * One persistent podcast player: it lives outside the river, so it keeps playing while you switch
 * feeds, search or open settings. Speed is remembered; so is the position of every episode
 * (positions.ts), and playing an episode again resumes where it was left.
 *
 * Its controls are its own, compact and one Tab stop each (issue 17: the browser's stock control
 * wrapped at 800 px): back 15 s, play/pause, forward 30 s, the position, the speed, close.
 */
import { useEffect, useRef, useState } from 'react';
import { RemoteImage } from '../../components/RemoteImage';
import { formatClock } from '../../lib/duration';
import { useApp } from '../../store/context';
import { SPEEDS, savedPosition, savedSpeed, savePosition, saveSpeed } from './positions';
import './player.css';

const SAVE_EVERY_S = 5;

function lengthOf(el: HTMLAudioElement): number {
  if (Number.isFinite(el.duration) && el.duration > 0) return el.duration;
  // A file served without its length (chunked, no ranges) reports Infinity: what has been loaded
  // stands for it (a finite end of the seekable or buffered ranges).
  for (const ranges of [el.seekable, el.buffered]) {
    const end = ranges.length > 0 ? ranges.end(ranges.length - 1) : 0;
    if (Number.isFinite(end) && end > 0) return end;
  }
  return 0;
}

export function PlayerBar() {
  const episode = useApp((s) => s.nowPlaying);
  const play = useApp((s) => s.play);
  const policy = useApp((s) => s.imagePolicy);
  const audio = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState(savedSpeed);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [playing, setPlaying] = useState(false);
  const lastSaved = useRef(0);

  // A new episode: resume it where it was left, at the chosen speed.
  useEffect(() => {
    const el = audio.current;
    if (!el || !episode) return;
    setTime(0);
    setDuration(0);
    const resume = () => {
      const at = savedPosition(episode.url);
      if (at > 0 && at < (el.duration || Number.POSITIVE_INFINITY)) el.currentTime = at;
      el.playbackRate = savedSpeed();
    };
    el.addEventListener('loadedmetadata', resume, { once: true });
    void el.play().catch(() => {
      // Autoplay refused or the file failed: the controls stay, and the error event says why.
    });
    return () => {
      el.removeEventListener('loadedmetadata', resume);
      if (el.currentTime > 0) savePosition(episode.url, el.currentTime, el.duration);
    };
  }, [episode]);

  useEffect(() => {
    if (audio.current) audio.current.playbackRate = speed;
  }, [speed]);

  if (!episode) return null;

  function onTime() {
    const el = audio.current;
    if (!el || !episode) return;
    setTime(el.currentTime);
    const end = lengthOf(el);
    if (end !== duration) setDuration(end);
    if (Math.abs(el.currentTime - lastSaved.current) >= SAVE_EVERY_S) {
      lastSaved.current = el.currentTime;
      savePosition(episode.url, el.currentTime, el.duration);
    }
  }

  function persist() {
    const el = audio.current;
    if (el && episode) savePosition(episode.url, el.currentTime, el.duration);
  }

  function seek(to: number) {
    const el = audio.current;
    if (!el) return;
    // Clamped to the real length only: a file of unknown length may reach past what is loaded.
    const end = Number.isFinite(el.duration) ? el.duration : to;
    el.currentTime = Math.max(0, Math.min(end, to));
    setTime(el.currentTime);
  }

  function toggle() {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => {});
    else el.pause();
  }

  const length = Number.isFinite(duration) && duration > 0 ? duration : 0;

  return (
    <section className="player-bar" aria-label="Podcast player" data-testid="player-bar">
      {episode.image && (
        <RemoteImage src={episode.image} alt="" className="player-art" policy={policy} allowed={false} />
      )}
      <div className="player-what">
        <span className="player-title" data-testid="player-title">
          {episode.title}
        </span>
        {episode.feedTitle && <span className="player-feed">{episode.feedTitle}</span>}
      </div>
      {/* biome-ignore lint/a11y/useMediaCaption: podcast feeds do not ship captions. */}
      <audio
        ref={audio}
        src={episode.url}
        preload="metadata"
        onTimeUpdate={onTime}
        onPlay={() => setPlaying(true)}
        onPause={() => {
          setPlaying(false);
          persist();
        }}
        onEnded={persist}
        onDurationChange={(e) => setDuration(lengthOf(e.currentTarget))}
        data-testid="player-audio"
        data-position={Math.floor(time)}
      />
      <div className="player-controls">
        <button
          type="button"
          className="player-button"
          onClick={() => seek(time - 15)}
          aria-label="Back 15 seconds"
          title="Back 15 seconds"
          data-testid="player-back"
        >
          −15
        </button>
        <button
          type="button"
          className="player-button player-play"
          onClick={toggle}
          aria-label={playing ? 'Pause' : 'Play'}
          title={playing ? 'Pause' : 'Play'}
          data-testid="player-toggle"
        >
          <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
        </button>
        <button
          type="button"
          className="player-button"
          onClick={() => seek(time + 30)}
          aria-label="Forward 30 seconds"
          title="Forward 30 seconds"
          data-testid="player-forward"
        >
          +30
        </button>
        <input
          type="range"
          className="player-position"
          min={0}
          max={length || 1}
          step={1}
          value={length ? Math.min(time, length) : 0}
          disabled={length === 0}
          onChange={(e) => seek(Number(e.target.value))}
          aria-label="Position"
          aria-valuetext={`${formatClock(time)} of ${formatClock(length)}`}
          data-testid="player-position"
        />
        <span className="player-clock" data-testid="player-clock">
          {/* A file of unknown length (Infinity) shows where it is, not a made-up total. */}
          {formatClock(time)}
          {Number.isFinite(audio.current?.duration) && length ? ` / ${formatClock(length)}` : ''}
        </span>
      </div>
      <label className="player-speed">
        <span className="visually-hidden">Speed</span>
        <select
          value={speed}
          data-testid="player-speed"
          onChange={(e) => {
            const value = Number(e.target.value);
            setSpeed(value);
            saveSpeed(value);
          }}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="player-button player-close"
        onClick={() => {
          persist();
          play(null);
        }}
        aria-label="Close the player"
        title="Close the player"
      >
        <span aria-hidden="true">✕</span>
      </button>
    </section>
  );
}
