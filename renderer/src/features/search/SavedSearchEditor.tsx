import { useEffect, useRef, useState } from 'react';
import type { SavedSearch } from '../../../../src/app/api';
import { useApp } from '../../store/context';

/**
 * A saved search's name and query, edited in place in the sidebar. Save (or Enter) stores it under
 * the same id, keeping its scope; Escape or Cancel leaves it as it was. The core's refusal (an
 * empty name, a query it cannot read) is shown here and nothing typed is lost.
 */
export function SavedSearchEditor({ saved, onDone }: { saved: SavedSearch; onDone(): void }) {
  const saveSearch = useApp((s) => s.saveSearch);
  const [name, setName] = useState(saved.name);
  const [query, setQuery] = useState(saved.query);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    nameField.current?.focus();
    nameField.current?.select();
  }, []);

  async function submit() {
    if (!name.trim()) return setError('A saved search needs a name.');
    if (!query.trim()) return setError('A saved search needs a query.');
    if (name.trim() === saved.name && query.trim() === saved.query) return onDone();
    setBusy(true);
    const result = await saveSearch({
      id: saved.id,
      name: name.trim(),
      query: query.trim(),
      scope: saved.scope,
    });
    setBusy(false);
    if (result.ok) onDone();
    else setError(result.error.message);
  }

  return (
    <form
      className="saved-search-editor"
      aria-label={`Edit the saved search ${saved.name}`}
      data-testid="saved-search-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      // The global keys (j/k, /...) must not act while typing here; Escape cancels.
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') onDone();
      }}
    >
      <label>
        Name
        <input
          ref={nameField}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          data-testid="saved-search-edit-name"
        />
      </label>
      <label>
        Query
        <input
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setError(null);
          }}
          data-testid="saved-search-edit-query"
        />
      </label>
      {error && (
        <p className="form-error" role="alert" data-testid="saved-search-edit-error">
          {error}
        </p>
      )}
      <div className="saved-search-editor-buttons">
        <button type="submit" className="primary" disabled={busy} data-testid="saved-search-edit-save">
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
