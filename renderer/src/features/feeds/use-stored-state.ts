import { useCallback, useState } from 'react';

/**
 * A small piece of view state kept in localStorage (which folders are collapsed, "hide read
 * feeds"): how the person left the sidebar is how they find it. Storage refused: it lasts the session.
 */
export function useStoredState<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? initial : (JSON.parse(raw) as T);
    } catch {
      return initial;
    }
  });
  const store = useCallback(
    (next: T) => {
      setValue(next);
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Kept in memory only.
      }
    },
    [key],
  );
  return [value, store];
}
