/**
 * When to render the page for the first time: once the river's first page is in (or has failed),
 * so the first layout and paint already hold the river. Rendering the empty shell first cost a
 * full extra mount, style and layout pass before the river could paint: measured in bench:river's
 * start-up, 16 cold loads each, first river item at a median of 344 ms with the shell first and
 * 289 ms this way. The page stays blank (its background only) for those few extra milliseconds.
 *
 * Never waits for long: a slow or unreachable core shows the page (with its "Loading the river…"
 * or its error) after `maxWaitMs`, and a page without a token shows its sign-in at once.
 */
import type { AppStore } from '../store/store';

export function whenRiverFirstLoaded(store: AppStore, maxWaitMs = 400): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => {
      const state = store.getState();
      return state.connection === 'unauthorized' || state.riverStatus !== 'loading';
    };
    if (settled()) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, maxWaitMs);
    const unsubscribe = store.subscribe(() => {
      if (settled()) done();
    });
  });
}
