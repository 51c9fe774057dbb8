/**
 * Electron's preload stood in for, in Chromium against a real `tidings serve`: an init script gives
 * the page a `window.tidings` bridge that carries commands to the real core over browser mode's
 * HTTP API, and `emit` sends the page main's shell.* events (tray, menu, notifications).
 */
import { expect, type Page } from '@playwright/test';

export async function openWithBridge(page: Page, openUrl: string): Promise<void> {
  // Runs in the page (no DOM types in this project: the page's globals are reached through globalThis).
  await page.addInitScript(() => {
    const page = globalThis as unknown as Record<string, unknown> & { location: { href: string } };
    const token = new URL(page.location.href).searchParams.get('token');
    const listeners = new Map<string, Set<(payload: unknown) => void>>();
    page.__shellEmit = (name: string, payload: unknown) => {
      for (const listener of listeners.get(name) ?? []) listener(payload);
    };
    page.tidings = {
      async invoke(method: string, args: unknown[]) {
        const r = await fetch(`/api/${method}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ args }),
        });
        const body = (r.status === 204 ? {} : await r.json()) as {
          result?: unknown;
          error?: { message?: string };
        };
        if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
        return body.result;
      },
      on(event: string, listener: (payload: unknown) => void) {
        const set = listeners.get(event) ?? new Set();
        listeners.set(event, set);
        set.add(listener);
        return () => set.delete(listener);
      },
    };
  });
  await page.goto(openUrl);
  await expect(page.getByTestId('feed-list')).toBeVisible();
}

export const emit = (page: Page, name: string, payload: unknown) =>
  page.evaluate(
    ([n, p]) => (globalThis as unknown as { __shellEmit(n: string, p: unknown): void }).__shellEmit(n, p),
    [name, payload] as const,
  );
