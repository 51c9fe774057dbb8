/** Core settings: key -> JSON value. UI preferences live elsewhere (main hands them in). */
import type { StoreContext } from './context.ts';

export function getSetting<T>(ctx: StoreContext, key: string, fallback: T): T {
  const row = ctx.stmt('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (!row) return fallback;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return fallback;
  }
}

/** Stores any JSON-serialisable value; undefined removes the key. */
export function setSetting(ctx: StoreContext, key: string, value: unknown): void {
  if (value === undefined) {
    ctx.stmt('DELETE FROM settings WHERE key = ?').run(key);
    return;
  }
  ctx
    .stmt(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    .run(key, JSON.stringify(value));
}
