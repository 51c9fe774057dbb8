import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { SearchIcon } from '../../components/icons';
import { useApp } from '../../store/context';

const TYPING_PAUSE_MS = 300;

/**
 * Full-text search (FTS5 in the core); results replace the river until cleared. It looks in the
 * river's current feed or folder unless the results' scope picker widens it.
 */
export function SearchBox() {
  const search = useApp((s) => s.search);
  const clearSearch = useApp((s) => s.clearSearch);
  const activeQuery = useApp((s) => s.searchQuery);
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = useId();

  // "Back to the river" clears the query, a saved search sets one: follow them (but never undo
  // what is being typed: "a " stays while the search for "a" runs).
  useEffect(() => {
    setText((current) => (current.trim() === activeQuery ? current : activeQuery));
  }, [activeQuery]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  function schedule(value: string) {
    setText(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void search(value), TYPING_PAUSE_MS);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (timer.current) clearTimeout(timer.current);
    void search(text);
  }

  return (
    <search>
      <form className="search" onSubmit={submit}>
        <label htmlFor={id} className="visually-hidden">
          Search items
        </label>
        <SearchIcon />
        <input
          id={id}
          type="search"
          placeholder="Search"
          value={text}
          onChange={(e) => schedule(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              if (timer.current) clearTimeout(timer.current);
              setText('');
              clearSearch();
            }
          }}
          data-testid="search-input"
        />
      </form>
    </search>
  );
}
