/**
 * What every store module works with: the connection, the clock, and a statement cache.
 * Preparing a statement costs more than running most of ours, so each SQL text is prepared
 * once per connection and reused.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Clock } from '../common/clock.ts';

export interface StoreContext {
  readonly db: DatabaseSync;
  readonly clock: Clock;
  stmt(sql: string): StatementSync;
}

export function createContext(db: DatabaseSync, clock: Clock): StoreContext {
  return { db, clock, stmt: statementCache(db) };
}

/** Each SQL text prepared once per connection, then reused (every store module asks again and again). */
export function statementCache(db: DatabaseSync): (sql: string) => StatementSync {
  const cache = new Map<string, StatementSync>();
  return (sql) => {
    let st = cache.get(sql);
    if (!st) {
      st = db.prepare(sql);
      cache.set(sql, st);
    }
    return st;
  };
}

/** JSON column helpers: empty arrays are stored as NULL and read back as []. */
export function jsonArray(value: readonly unknown[] | null | undefined): string | null {
  return value && value.length > 0 ? JSON.stringify(value) : null;
}

export function parseJsonArray<T>(text: unknown): T[] {
  if (typeof text !== 'string' || text === '') return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
