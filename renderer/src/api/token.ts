/**
 * Browser mode's access token: `tidings serve` prints a link with ?token=...; on load we move it
 * into sessionStorage (so a reload keeps working) and out of the address bar (so it does not end up
 * in screenshots, bookmarks or the history list).
 */
export const TOKEN_STORAGE_KEY = 'tidings.token';

export interface TokenEnvironment {
  location: { href: string };
  history: { replaceState(data: unknown, unused: string, url?: string | URL | null): void; state: unknown };
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

export function takeToken(env: TokenEnvironment): string | null {
  const url = new URL(env.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      env.storage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page's life.
    }
    url.searchParams.delete('token');
    env.history.replaceState(env.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return env.storage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}
