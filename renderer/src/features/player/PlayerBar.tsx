/**
 * One persistent podcast player: it lives outside the river, so it keeps playing while you switch
 * feeds, search or open settings. Speed is remembered; so is the position of every episode
 * (positions.ts), and playing an episode again resumes where it was left.
 */
import { useEffect, useRef, useState } from 'react';
import { RemoteImage } from '../../components/RemoteImage';
import { useApp } from '../../store/context';
import { SPEEDS, savedPosition, savedSpeed, savePosition, saveSpeed } from './positions';
import './player.css';

const SAVE_EVERY_S = 5;

export function PlayerBar() {
  const episode = useApp((s) => s.nowPlaying);
  const play = useApp((s) => s.play);
  const policy = useApp((s) => s.imagePolicy);
  const audio = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState(savedSpeed);
  const [time, setTime] = useState(0);
  const lastSaved = useRef(0);

  // A new episode: resume it where it was left, at the chosen speed.
  useEffect(() => {
    const el = audio.current;
    if (!el || !episode) return;
    setTime(0);
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
    if (Math.abs(el.currentTime - lastSaved.current) >= SAVE_EVERY_S) {
      lastSaved.current = el.currentTime;
      savePosition(episode.url, el.currentTime, el.duration);
    }
  }

  function persist() {
    const el = audio.current;
    if (el && episode) savePosition(episode.url, el.currentTime, el.duration);
  }

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
        controls
        preload="metadata"
        onTimeUpdate={onTime}
        onPause={persist}
        onEnded={persist}
        data-testid="player-audio"
        data-position={Math.floor(time)}
        aria-label={`Playing ${episode.title}`}
      />
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
        className="link-button"
        onClick={() => {
          persist();
          play(null);
        }}
        aria-label="Close the player"
      >
        Close
      </button>
    </section>
  );
}
