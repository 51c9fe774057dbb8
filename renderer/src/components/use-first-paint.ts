/**
 * Start-up order: the river's first page is what a reader opens the app for, so work that can wait
 * (the rest of a thousand-feed sidebar, the river's off-screen rows) waits until that page is on
 * screen. Measured in bench:river: done together, they pushed the first river paint from about
 * 350 ms to well past 500 ms.
 *
 * One page-wide signal: the river says when its first page (or its empty note, or its error) has
 * been painted; anything that waits subscribes. A fallback timer releases the waiters when no river
 * is shown at start (the welcome page, or a failed connection).
 */
import { useSyncExternalStore } from 'react';

const FALLBACK_MS = 1500;
const listeners = new Set<() => void>();
let painted = false;
let fallback: ReturnType<typeof setTimeout> | null = null;

function release(): void {
  if (painted) return;
  painted = true;
  if (fallback) clearTimeout(fallback);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!painted && !fallback) fallback = setTimeout(release, FALLBACK_MS);
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

/** False until the river's first page is on screen (or the fallback passed), then true for good. */
export function useFirstPaintDone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => painted,
    () => painted,
  );
}
