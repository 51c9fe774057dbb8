/**
 * Start-up order: the river's first page is what a reader opens the app for, so work that can wait
 * (the rest of a thousand-feed sidebar, the river's off-screen rows) waits until that page is on
 * screen. Measured in bench:river: done together, they pushed the first river paint from about
 * 350 ms to well past 500 ms.
 *
 * One page-wide signal: whatever view stands in the river's place says when its first page has been
 * painted (the river: its first page, its empty note or its error; the welcome page, My posts and
 * search results: as they mount); anything that waits subscribes. No timer: a timer raced a slow
 * start (on a loaded machine the river took longer than it, and everything that should wait went
 * first).
 */
import { useEffect, useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let painted = false;

function release(): void {
  if (painted) return;
  painted = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The river calls this once its first page is committed: the waiters go on after the next frame
 * has been painted (a frame callback, then a task after it).
 */
export function riverPainted(): void {
  if (painted) return;
  requestAnimationFrame(() => setTimeout(release, 0));
}

/** For a view in the river's place other than the river itself: painted once it has mounted. */
export function usePaintedOnMount(): void {
  useEffect(() => riverPainted(), []);
}

/** False until the river's first page (or the view in its place) is on screen, then true for good. */
export function useFirstPaintDone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => painted,
    () => painted,
  );
}
