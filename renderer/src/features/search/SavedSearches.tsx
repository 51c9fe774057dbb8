import { useState } from 'react';
import type { SavedSearch } from '../../../../src/app/api';
import { CloseIcon, EditIcon } from '../../components/icons';
import { useApp } from '../../store/context';
import { SavedSearchEditor } from './SavedSearchEditor';

/**
 * Saved searches in the sidebar (NetNewsWire #217): one click runs it again, with its scope; the
 * pencil renames it or changes its query in place (saveSearch with its id), the cross deletes it.
 */
export function SavedSearches({ onRun }: { onRun?(): void } = {}) {
  const saved = useApp((s) => s.savedSearches);
  const search = useApp((s) => s.search);
  const setPage = useApp((s) => s.setPage);
  const deleteSavedSearch = useApp((s) => s.deleteSavedSearch);
  const activeQuery = useApp((s) => (s.searchResults !== null || s.searching ? s.searchQuery : null));
  const [editing, setEditing] = useState<number | null>(null);

  if (saved.length === 0) return null;
  const run = (s: SavedSearch) => {
    onRun?.();
    setPage('river');
    void search(s.query, s.scope);
  };
  return (
    <nav className="saved-searches" aria-labelledby="saved-searches-title" data-testid="saved-searches">
      <h2 id="saved-searches-title">Saved searches</h2>
      <ul>
        {saved.map((s) =>
          editing === s.id ? (
            <li key={s.id} className="editing">
              <SavedSearchEditor saved={s} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <li key={s.id} className={activeQuery === s.query ? 'selected' : undefined}>
              <button
                type="button"
                className="saved-search"
                aria-current={activeQuery === s.query ? 'true' : undefined}
                onClick={() => run(s)}
                title={s.query}
                data-testid="saved-search"
              >
                {s.name}
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Edit the saved search ${s.name}`}
                onClick={() => setEditing(s.id)}
                data-testid="saved-search-edit"
              >
                <EditIcon />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Delete the saved search ${s.name}`}
                onClick={() => void deleteSavedSearch(s.id)}
              >
                <CloseIcon />
              </button>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
