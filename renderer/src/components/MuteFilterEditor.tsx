/**
 * Mute filters (keyword or regex, hide or mark read) for one feed or for every feed: the list and
 * a small form to add one. MuteFilterFields is the form and list alone, saving nothing itself:
 * Settings holds its additions and deletions for the page's Save (features/settings), while
 * MuteFilterEditor, in a feed's settings dialog, adds and deletes at once.
 */
import { type FormEvent, useId, useState } from 'react';
import type { MuteAction, MuteFilterInput } from '../../../src/app/api';
import { useApp } from '../store/context';

const ACTION_LABEL: Record<MuteAction, string> = { hide: 'hide', markRead: 'mark read' };

/** One filter as the list shows it. */
export interface ShownFilter {
  key: string;
  kind: 'keyword' | 'regex';
  pattern: string;
  action: MuteAction;
  /** Added here, waiting for Save. */
  unsaved?: boolean;
  remove(): void;
}

/** Why a filter cannot be added, in words; null when it can. */
function problemWith(kind: 'keyword' | 'regex', pattern: string): string | null {
  if (!pattern) return kind === 'keyword' ? 'Type a word to mute.' : 'Type a regular expression.';
  if (kind === 'regex') {
    try {
      new RegExp(pattern, 'i');
    } catch (e) {
      return `That is not a regular expression: ${(e as Error).message}.`;
    }
  }
  return null;
}

export function MuteFilterFields({
  feedId,
  filters,
  onAdd,
}: {
  feedId: number | null;
  filters: ShownFilter[];
  /** Adds a filter; null when done, else why not (shown under the form). */
  onAdd(input: MuteFilterInput): Promise<string | null>;
}) {
  const [kind, setKind] = useState<'keyword' | 'regex'>('keyword');
  const [pattern, setPattern] = useState('');
  const [action, setAction] = useState<MuteAction>('hide');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function add(event: FormEvent) {
    event.preventDefault();
    // A form of its own inside the Settings page: Enter here adds a filter, it does not save the page.
    event.stopPropagation();
    const trimmed = pattern.trim();
    const problem = problemWith(kind, trimmed) ?? (await onAdd({ feedId, kind, pattern: trimmed, action }));
    if (problem) setError(problem);
    else {
      setPattern('');
      setError(null);
    }
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
            <li key={f.key} data-testid="mute-filter">
              <span>
                {f.kind === 'regex' ? 'Regex' : 'Word'} <code>{f.pattern}</code>: {ACTION_LABEL[f.action]}
                {f.unsaved && <span className="settings-note"> (not saved yet)</span>}
              </span>
              <button
                type="button"
                className="link-button"
                aria-label={`Delete the filter ${f.pattern}`}
                onClick={f.remove}
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

/** A feed's filters, added and deleted at once (its settings dialog). */
export function MuteFilterEditor({ feedId }: { feedId: number | null }) {
  const all = useApp((s) => s.muteFilters);
  const addMuteFilter = useApp((s) => s.addMuteFilter);
  const deleteMuteFilter = useApp((s) => s.deleteMuteFilter);
  const filters = all
    .filter((f) => f.feedId === feedId)
    .map((f) => ({ ...f, key: String(f.id), remove: () => void deleteMuteFilter(f.id) }));
  return (
    <MuteFilterFields
      feedId={feedId}
      filters={filters}
      onAdd={async (input) => {
        const result = await addMuteFilter(input);
        return result.ok ? null : result.error.message;
      }}
    />
  );
}
