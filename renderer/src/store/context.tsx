import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppStore } from './store';
import type { AppState } from './types';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** Narrow selectors only: pick the value you render (useShallow for derived arrays). */
export function useApp<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp outside StoreProvider');
  return useStore(store, selector);
}

/** The store itself, for handlers that read state when an event comes (the keyboard), not on render. */
export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside StoreProvider');
  return store;
}
