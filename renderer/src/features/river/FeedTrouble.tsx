/**
 * A failing feed's river says why (issue 17): what happened and when, when it last worked, when
 * it is tried next, and the ways out: Retry (a failed one does not add to the back-off), Edit
 * address (the core moves the feed, keeping its items and settings, and says "moved to"),
 * Unsubscribe. Shown above the river of one failing or gone feed.
 */
import { type FormEvent, useId, useState } from 'react';
import type { FeedView } from '../../../../src/app/api';
import { RelativeTime } from '../../components/RelativeTime';
import { useNow } from '../../components/use-now';
import { formatAbsolute, formatUntil } from '../../lib/relative-time';
import { useApp } from '../../store/context';

export function FeedTrouble({ feed }: { feed: FeedView }) {
  const now = useNow();
  const refreshFeeds = useApp((s) => s.refreshFeeds);
  const unsubscribe = useApp((s) => s.unsubscribe);
  const moveFeed = useApp((s) => s.moveFeed);
  const [editing, setEditing] = useState(false);
  const [address, setAddress] = useState(feed.url);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'retry' | 'save' | null>(null);
  const id = useId();
  const gone = feed.status === 'gone';

  async function retry() {
    setBusy('retry');
    await refreshFeeds(feed.id);
    setBusy(null);
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy('save');
    const result = await moveFeed(feed.id, address);
    setBusy(null);
    if (!result.ok) setError(result.error.message);
    else setEditing(false);
  }

  function confirmUnsubscribe() {
    if (window.confirm(`Unsubscribe from “${feed.title}”? Its items leave the river.`))
      void unsubscribe(feed.id);
  }

  return (
    <section className="feed-trouble" data-testid="feed-trouble" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{gone ? 'This feed is gone' : 'This feed is failing'}</h2>
      <p className="feed-trouble-why" data-testid="feed-trouble-why">
        {feed.error ?? 'The last fetch did not work.'}
      </p>
      <dl className="feed-trouble-times">
        <div>
          <dt>Last tried</dt>
          <dd>{feed.lastFetchedAt ? <RelativeTime iso={feed.lastFetchedAt} /> : 'never'}</dd>
        </div>
        <div>
          <dt>Last worked</dt>
          <dd data-testid="feed-trouble-last-success">
            {feed.lastSuccessAt ? <RelativeTime iso={feed.lastSuccessAt} /> : 'never'}
          </dd>
        </div>
        <div>
          <dt>Next try</dt>
          <dd data-testid="feed-trouble-next">
            {gone || !feed.nextDueAt ? (
              'none: polling stopped'
            ) : (
              <time dateTime={feed.nextDueAt} title={formatAbsolute(feed.nextDueAt)}>
                {formatUntil(feed.nextDueAt, now)}
              </time>
            )}
          </dd>
        </div>
      </dl>
      <div className="feed-trouble-actions">
        <button
          type="button"
          className="primary"
          onClick={() => void retry()}
          disabled={busy !== null}
          data-testid="feed-retry"
        >
          {busy === 'retry' ? 'Trying…' : 'Retry now'}
        </button>
        <button
          type="button"
          onClick={() => setEditing((v) => !v)}
          aria-expanded={editing}
          data-testid="feed-edit-address"
        >
          Edit address
        </button>
        <button
          type="button"
          className="danger"
          onClick={confirmUnsubscribe}
          data-testid="feed-trouble-unsubscribe"
        >
          Unsubscribe
        </button>
      </div>
      {editing && (
        <form className="feed-trouble-edit" onSubmit={save}>
          <label htmlFor={`${id}-url`}>New address (the feed, or its site)</label>
          <div className="feed-trouble-edit-row">
            <input
              id={`${id}-url`}
              type="text"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              data-testid="feed-address-input"
            />
            <button
              type="submit"
              className="primary"
              disabled={busy !== null || !address.trim()}
              data-testid="feed-address-save"
            >
              {busy === 'save' ? 'Checking…' : 'Use this address'}
            </button>
          </div>
          {error && (
            <p id={`${id}-error`} className="form-error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
