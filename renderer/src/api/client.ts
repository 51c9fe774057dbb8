/**
 * Picks the transport: Electron's preload puts `window.tidings` on the page; anything else is
 * browser mode, served by `tidings serve` on the same origin as its API.
 */
import { createHttpClient } from './http-client';
import { createIpcClient } from './ipc-client';
import { takeToken } from './token';
import type { RendererClient, TidingsBridge } from './types';

declare global {
  interface Window {
    tidings?: TidingsBridge;
  }
}

let client: RendererClient | null = null;

export function getClient(): RendererClient {
  if (client) return client;
  if (window.tidings) {
    client = createIpcClient(window.tidings);
  } else {
    const token = takeToken({ location: window.location, history: window.history, storage: sessionStore() });
    client = createHttpClient({ baseUrl: window.location.origin, token });
  }
  return client;
}

/** sessionStorage, or a page-lifetime stand-in where the browser refuses storage. */
function sessionStore(): Pick<Storage, 'getItem' | 'setItem'> {
  try {
    return window.sessionStorage;
  } catch {
    const memory = new Map<string, string>();
    return {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
    };
  }
}
