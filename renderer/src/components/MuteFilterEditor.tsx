/**
 * Mute filters (keyword or regex, hide or mark read) for one feed or for every feed: the list and
 * a small form to add one. Shared by the feed settings dialog and the Settings panel.
 */
import { type FormEvent, useId, useState } from 'react';
import type { MuteAction } from '../../../src/app/api';
import { useApp } from '../store/context';

const ACTION_LABEL: Record<MuteAction, string> = { hide: 'hide', markRead: 'mark read' };

export function MuteFilterEditor({ feedId }: { feedId: number | null }) {
  const all = useApp((s) => s.muteFilters);
  const addMuteFilter = useApp((s) => s.addMuteFilter);
  const deleteMuteFilter = useApp((s) => s.deleteMuteFilter);
  const [kind, setKind] = useState<'keyword' | 'regex'>('keyword');
  const [pattern, setPattern] = useState('');
  const [action, setAction] = useState<MuteAction>('hide');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const filters = all.filter((f) => f.feedId === feedId);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!pattern.trim()) {
      setError(kind === 'keyword' ? 'Type a word to mute.' : 'Type a regular expression.');
      return;
    }
    const result = await addMuteFilter({ feedId, kind, pattern: pattern.trim(), action });
    if (result.ok) {
      setPattern('');
      setError(null);
    } else setError(result.error.message);
  }

  return (
    <div className="mute-filters" data-testid="mute-filters">
      {filters.length === 0 ? (
        <p className="settings-note">
          No mute filters {feedId === null ? 'for every feed' : 'for this feed'}.
        </p>
      ) : (
        <ul className="mute-list">
          {filters.map((f) => (
            <li key={f.id} data-testid="mute-filter">
              <span>
                {f.kind === 'regex' ? 'Regex' : 'Word'} <code>{f.pattern}</code>: {ACTION_LABEL[f.action]}
              </span>
              <button
                type="button"
                className="link-button"
                aria-label={`Delete the filter ${f.pattern}`}
                onClick={() => void deleteMuteFilter(f.id)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="mute-add" onSubmit={add} noValidate aria-label="Add a mute filter">
        <label className="visually-hidden" htmlFor={`${id}-kind`}>
          Match
        </label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) => setKind(e.target.value as 'keyword' | 'regex')}
        >
          <option value="keyword">Word</option>
          <option value="regex">Regex</option>
        </select>
        <label className="visually-hidden" htmlFor={`${id}-pattern`}>
          Pattern
        </label>
        <input
          id={`${id}-pattern`}
          value={pattern}
          placeholder={kind === 'keyword' ? 'crypto' : '^sponsored:'}
          onChange={(e) => {
            setPattern(e.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid="mute-pattern"
        />
        <label className="visually-hidden" htmlFor={`${id}-action`}>
          Then
        </label>
        <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value as MuteAction)}>
          <option value="hide">Hide</option>
          <option value="markRead">Mark read</option>
        </select>
        <button type="submit" data-testid="mute-add">
          Add filter
        </button>
      </form>
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
