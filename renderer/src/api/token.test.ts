import { describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY, takeToken } from './token';

function environment(href: string, stored: string | null = null) {
  const storage = new Map<string, string>(stored ? [[TOKEN_STORAGE_KEY, stored]] : []);
  const replaced: string[] = [];
  return {
    env: {
      location: { href },
      history: {
        state: null,
        replaceState: (_d: unknown, _u: string, url?: string | URL | null) => replaced.push(String(url)),
      },
      storage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
      },
    },
    storage,
    replaced,
  };
}

describe('takeToken', () => {
  const cases = [
    { href: 'http://127.0.0.1:7411/?token=abc', stored: null, token: 'abc', url: '/' },
    { href: 'http://127.0.0.1:7411/?token=new#river', stored: 'old', token: 'new', url: '/#river' },
    { href: 'http://127.0.0.1:7411/?feed=3&token=abc', stored: null, token: 'abc', url: '/?feed=3' },
    { href: 'http://127.0.0.1:7411/', stored: 'kept', token: 'kept', url: null },
    { href: 'http://127.0.0.1:7411/', stored: null, token: null, url: null },
  ];
  for (const c of cases) {
    it(`${c.href} with ${c.stored ?? 'nothing'} stored`, () => {
      const { env, storage, replaced } = environment(c.href, c.stored);
      expect(takeToken(env)).toBe(c.token);
      expect(replaced).toEqual(c.url === null ? [] : [c.url]);
      expect(storage.get(TOKEN_STORAGE_KEY) ?? null).toBe(c.token);
    });
  }
});
