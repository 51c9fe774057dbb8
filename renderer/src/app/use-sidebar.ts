import { useCallback, useEffect, useState } from 'react';

/**
 * Below this width the sidebar is a drawer over the river (closed until asked for); above it, a
 * column that the person can collapse. Matches the `@media (max-width: 720px)` rules in styles.css.
 */
export const DRAWER_QUERY = '(max-width: 720px)';
const STORAGE_KEY = 'tidings.sidebarCollapsed';

function narrowNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DRAWER_QUERY).matches;
}

function collapsedPreference(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Whether the sidebar shows. On a wide window the choice is remembered (a person who collapsed it
 * wants it collapsed next time); on a narrow one it starts closed and closes again after a pick.
 */
export function useSidebar(): { narrow: boolean; open: boolean; setOpen(open: boolean): void } {
  const [narrow, setNarrow] = useState(narrowNow);
  const [wideOpen, setWideOpen] = useState(() => !collapsedPreference());
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DRAWER_QUERY);
    const follow = () => {
      setNarrow(query.matches);
      setDrawerOpen(false);
    };
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);

  const setOpen = useCallback(
    (open: boolean) => {
      if (narrow) {
        setDrawerOpen(open);
        return;
      }
      setWideOpen(open);
      try {
        localStorage.setItem(STORAGE_KEY, open ? '0' : '1');
      } catch {
        // Storage refused (private window): the choice lasts until reload.
      }
    },
    [narrow],
  );

  return { narrow, open: narrow ? drawerOpen : wideOpen, setOpen };
}
