/**
 * One persistent podcast player: it lives outside the river, so it keeps playing while you switch
 * feeds, search or open settings. Speed is remembered (positions.ts); where every episode was
 * left, whether it was played, and which episode the player holds are the core's (issue 35:
 * savePlayback, setNowPlaying), so playing an episode again resumes where it was left, and after
 * a reload the player is back, paused at that place. The keys (P, arrows, brackets) reach it as
 * `playerIntent`.
 *
 * Its controls are its own, compact and one Tab stop each (issue 17: the browser's stock control
 * wrapped at 800 px): back 15 s, play/pause, forward 30 s, the position, the speed, close.
 */
import { useEffect, useRef, useState } from 'react';
import { RemoteImage } from '../../components/RemoteImage';
import { formatClock } from '../../lib/duration';
import { useApp } from '../../store/context';
import { isFinished, SPEEDS, savedSpeed, saveSpeed, stepSpeed } from './positions';
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
  const savePlace = useApp((s) => s.savePlace);
  const intent = useApp((s) => s.playerIntent);
  const audio = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState(savedSpeed);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [playing, setPlaying] = useState(false);
  const lastSaved = useRef(0);

  /** Tells the core where the episode is; at its end, that it was played. */
  function persist(ended = false) {
    const el = audio.current;
    if (!el || !episode || (el.currentTime <= 0 && !ended)) return;
    const length = Number.isFinite(el.duration) ? el.duration : null;
    const done = ended || (length !== null && isFinished(el.currentTime, length));
    savePlace(episode.itemId, episode.url, done ? 0 : el.currentTime, length, done ? true : undefined);
  }
  const persistRef = useRef(persist);
  persistRef.current = persist;

  // A new episode: resume it where it was left (the core's place), at the chosen speed. One the
  // player came back with after a reload waits, paused, for the person to press play.
  useEffect(() => {
    const el = audio.current;
    if (!el || !episode) return;
    setTime(episode.startAt ?? 0);
    setDuration(0);
    lastSaved.current = episode.startAt ?? 0;
    const resume = () => {
      const at = episode.startAt ?? 0;
      if (at > 0 && !isFinished(at, el.duration)) el.currentTime = at;
      el.playbackRate = savedSpeed();
    };
    el.addEventListener('loadedmetadata', resume, { once: true });
    if (!episode.paused) {
      void el.play().catch(() => {
        // Autoplay refused or the file failed: the controls stay, and the error event says why.
      });
    }
    const away = () => persistRef.current();
    window.addEventListener('pagehide', away);
    return () => {
      el.removeEventListener('loadedmetadata', resume);
      window.removeEventListener('pagehide', away);
      persistRef.current();
    };
  }, [episode]);

  useEffect(() => {
    if (audio.current) audio.current.playbackRate = speed;
  }, [speed]);

  // The keys: play/pause, back 15 s, forward 30 s, slower, faster.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new intent (its seq) acts once.
  useEffect(() => {
    if (!intent || !audio.current) return;
    if (intent.action === 'toggle') toggle();
    else if (intent.action === 'back') seek(audio.current.currentTime - 15);
    else if (intent.action === 'forward') seek(audio.current.currentTime + 30);
    else changeSpeed(stepSpeed(speed, intent.action === 'faster' ? 1 : -1));
  }, [intent?.seq]);

  if (!episode) return null;

  function changeSpeed(value: number) {
    setSpeed(value);
    saveSpeed(value);
  }

  function onTime() {
    const el = audio.current;
    if (!el || !episode) return;
    setTime(el.currentTime);
    const end = lengthOf(el);
    if (end !== duration) setDuration(end);
    if (Math.abs(el.currentTime - lastSaved.current) >= SAVE_EVERY_S) {
      lastSaved.current = el.currentTime;
      persist();
    }
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
        onEnded={() => persist(true)}
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
          onChange={(e) => changeSpeed(Number(e.target.value))}
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
