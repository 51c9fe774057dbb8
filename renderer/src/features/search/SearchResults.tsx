import { type FormEvent, useMemo, useState } from 'react';
import type { SearchScope } from '../../../../src/app/api';
import { usePaintedOnMount } from '../../components/use-first-paint';
import { feedLabel } from '../../lib/group-feeds';
import { useApp } from '../../store/context';
import { SearchHelp } from './SearchHelp';
import { SearchHitCard } from './SearchHitCard';

const scopeValue = (scope: SearchScope) =>
  scope.kind === 'feed'
    ? `feed:${scope.feedId}`
    : scope.kind === 'folder'
      ? `folder:${scope.folderId}`
      : 'all';

function scopeOf(value: string): SearchScope {
  if (value.startsWith('feed:')) return { kind: 'feed', feedId: Number(value.slice(5)) };
  if (value.startsWith('folder:')) return { kind: 'folder', folderId: Number(value.slice(7)) };
  return { kind: 'all' };
}

/**
 * Search hits, ranked by the core, with the matches marked; where to search (this feed, this
 * folder, everything), the syntax, and "Save this search" for the sidebar.
 */
export function SearchResults() {
  usePaintedOnMount();
  const results = useApp((s) => s.searchResults) ?? [];
  const hits = useApp((s) => s.searchHits);
  const query = useApp((s) => s.searchQuery);
  const scope = useApp((s) => s.searchScope);
  const searching = useApp((s) => s.searching);
  const feeds = useApp((s) => s.feeds);
  const folders = useApp((s) => s.folders);
  const filter = useApp((s) => s.filter);
  const clearSearch = useApp((s) => s.clearSearch);
  const setSearchScope = useApp((s) => s.setSearchScope);
  const saveSearch = useApp((s) => s.saveSearch);
  const pushNotice = useApp((s) => s.pushNotice);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const feedById = useMemo(() => new Map(feeds.map((f) => [f.id, f])), [feeds]);

  // The choices: everything, the river's feed or folder, and whatever the search is scoped to now.
  const options = useMemo(() => {
    const list: { value: string; label: string }[] = [{ value: 'all', label: 'All feeds' }];
    const add = (s: SearchScope) => {
      const value = scopeValue(s);
      if (list.some((o) => o.value === value)) return;
      if (s.kind === 'feed') {
        const feed = feedById.get(s.feedId);
        list.push({ value, label: `Feed: ${feed ? feedLabel(feed) : 'removed feed'}` });
      } else if (s.kind === 'folder') {
        const folder = folders.find((f) => f.id === s.folderId);
        list.push({ value, label: `Folder: ${folder?.path ?? 'removed folder'}` });
      }
    };
    if (filter.feedId !== null) add({ kind: 'feed', feedId: filter.feedId });
    if (filter.folderId !== null) add({ kind: 'folder', folderId: filter.folderId });
    add(scope);
    return list;
  }, [feedById, folders, filter.feedId, filter.folderId, scope]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = await saveSearch({ name: name.trim() || query, query, scope });
    if (result.ok) {
      setNaming(false);
      pushNotice({ level: 'info', message: `Saved “${result.value.name}” in the sidebar.` });
    } else pushNotice({ level: 'error', message: result.error.message });
  }

  const count = results.length;
  return (
    // id="river": the skip link's target is whatever shows in the river's place.
    <div id="river" tabIndex={-1} className="river-scroll" data-testid="search-results">
      <div className="search-head">
        <span role="status" className="search-status">
          {searching
            ? `Searching for “${query}”…`
            : `${count === 0 ? 'No' : count} result${count === 1 ? '' : 's'} for “${query}”`}
        </span>
        <label className="search-scope">
          In
          <select
            value={scopeValue(scope)}
            onChange={(e) => setSearchScope(scopeOf(e.target.value))}
            data-testid="search-scope"
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {naming ? (
          <form className="search-save" onSubmit={save} aria-label="Save this search">
            <label className="visually-hidden" htmlFor="saved-search-name">
              Name for the saved search
            </label>
            <input
              id="saved-search-name"
              // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked to name the search.
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && setNaming(false)}
              data-testid="saved-search-name"
            />
            <button type="submit" data-testid="saved-search-confirm">
              Save
            </button>
          </form>
        ) : (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setName(query);
              setNaming(true);
            }}
            data-testid="save-search"
          >
            Save this search
          </button>
        )}
        <button type="button" className="link-button" onClick={clearSearch}>
          Back to the river
        </button>
      </div>
      <SearchHelp />
      <div className="search-list">
        {results.map((item) => {
          const feed = feedById.get(item.feedId);
          return (
            <SearchHitCard
              key={item.id}
              item={item}
              hit={hits[item.id]}
              feedTitle={feed ? feedLabel(feed) : 'Unknown feed'}
            />
          );
        })}
      </div>
    </div>
  );
}
