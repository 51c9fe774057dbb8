/**
 * The rssCloud activity log (the seed calls the cloud's log "an essential tool"): every call in
 * (notifications, challenges) and out (pleaseNotify, tunnel), newest first, live as the core
 * records them. Self-contained: it asks the API for the recent entries and listens to the
 * 'activity' event; nothing else in the renderer depends on it.
 */
import { useEffect, useState } from 'react';
import type { ActivityEntry } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { CloseIcon } from '../../components/icons';
import './activity.css';

const SHOWN = 200;

function merge(current: ActivityEntry[], more: ActivityEntry[]): ActivityEntry[] {
  const byId = new Map<number, ActivityEntry>();
  for (const e of [...current, ...more]) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, SHOWN);
}

const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

export function ActivityLog({ onClose }: { onClose(): void }) {
  const [entries, setEntries] = useState<ActivityEntry[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const client = getClient();
    let open = true;
    const off = client.on('activity', (entry) => setEntries((list) => merge(list, [entry])));
    client.activity(SHOWN).then(
      (list) => open && setEntries((current) => merge(current, list)),
      (e: unknown) => open && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      open = false;
      off();
    };
  }, []);

  return (
    <section className="activity" data-testid="activity-log" aria-label="rssCloud activity">
      <header className="activity-head">
        <h2>rssCloud activity</h2>
        <span className="activity-hint">every call in and out, newest first</span>
        <button type="button" className="icon-button" aria-label="Close the activity log" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {error && <p className="activity-empty">{error}</p>}
      {!error && entries.length === 0 && <p className="activity-empty">No rssCloud calls yet.</p>}
      {entries.length > 0 && (
        // It scrolls both ways on a narrow window: keyboard users must be able to scroll it too.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus (axe scrollable-region-focusable).
        <section className="activity-scroll" tabIndex={0} aria-label="rssCloud calls">
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>Dir</th>
                <th>Peer</th>
                <th>Procedure</th>
                <th>Feed</th>
                <th>Result</th>
                <th className="num">ms</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid="activity-row" className={e.ok ? 'ok' : 'failed'}>
                  <td title={e.at}>{time(e.at)}</td>
                  <td>{e.direction === 'in' ? '← in' : '→ out'}</td>
                  <td>{e.peer}</td>
                  <td>{e.procedure}</td>
                  <td className="url" title={e.feedUrl ?? ''}>
                    {e.feedUrl ?? ''}
                  </td>
                  <td className="result">{e.result}</td>
                  <td className="num">{e.latencyMs === null ? '' : e.latencyMs.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}

/** The toolbar button that opens and closes the panel. */
