/**
 * Views that are not needed for the first river paint (the composer, settings, activity, search
 * results, My posts, dialogs) live in chunks of their own, so the page evaluates less before it can
 * show the river (bench:river). Each one is fetched in the background once the river is on screen
 * (`preloadLazyViews`), so opening it later is as quick as before.
 *
 * A chunk that cannot be loaded (the server stopped, say) shows a plain message in place of the
 * view instead of taking the whole page down.
 */
import { type ComponentType, lazy } from 'react';

export type LazyView<P> = ComponentType<P> & { preload(): Promise<unknown> };

const loaders: (() => Promise<unknown>)[] = [];

function loadFailed(name: string): ComponentType {
  return function LoadFailed() {
    return (
      <p className="river-note" role="alert">
        {name} could not be loaded. Is Tidings still running? Reload the page to try again.
      </p>
    );
  };
}

/**
 * `name` is what a person calls the view ("Settings"); `load` imports the chunk and picks the
 * component: `() => import('./X').then((m) => m.X)`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the props type is the caller's component's.
export function lazyView<P extends Record<string, any>>(
  name: string,
  load: () => Promise<ComponentType<P>>,
): LazyView<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  const get = () => {
    loading ??= load().catch((err: unknown) => {
      loading = null; // A later preload or open may succeed.
      throw err;
    });
    return loading;
  };
  const View = lazy(async () => {
    try {
      return { default: await get() };
    } catch {
      return { default: loadFailed(name) as ComponentType<P> };
    }
  });
  loaders.push(get);
  return Object.assign(View, { preload: get });
}

/** Fetches every lazy view's chunk while the page is idle; called once the river is on screen. */
export function preloadLazyViews(): void {
  const run = () => {
    for (const load of loaders) void load().catch(() => {});
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}
