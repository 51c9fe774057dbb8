import { useApp } from '../../store/context';

/** "Fetching 3 feeds…" while the core works, and "Reconnecting…" while the event stream is down. */
export function StatusBadges() {
  const busy = useApp((s) => s.progress.active + s.progress.queued);
  const connection = useApp((s) => s.connection);
  return (
    <div className="badges" role="status">
      {busy > 0 && (
        <span className="badge" data-testid="progress">
          <span className="spinner" aria-hidden="true" />
          Fetching {busy} feed{busy === 1 ? '' : 's'}…
        </span>
      )}
      {connection === 'reconnecting' && (
        <span className="badge badge-warning" data-testid="connection">
          Reconnecting…
        </span>
      )}
    </div>
  );
}
