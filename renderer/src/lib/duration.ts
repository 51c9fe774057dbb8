/** Podcast lengths as people read them: "42 min", "1 h 05 min", "55 s"; null when unknown. */
export function formatDuration(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return null;
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const minutes = Math.round(total / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A player's clock: "3:07", "1:02:03". */
export function formatClock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "S2 · E14", "Episode 3", or null. */
export function episodeLabel(
  season: number | null | undefined,
  episode: number | null | undefined,
): string | null {
  if (season && episode) return `S${season} · E${episode}`;
  if (episode) return `Episode ${episode}`;
  if (season) return `Season ${season}`;
  return null;
}
