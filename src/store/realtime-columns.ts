/**
 * The realtime tables' columns, each named once: the row's property, its SQL column and how a
 * value read back becomes the property. realtime.ts and websub.ts build their SELECT lists, their
 * whole-row writes and their row readers from one such table per row type, instead of naming
 * every column three times by hand (and keeping the three in step).
 */
import type { SQLInputValue } from 'node:sqlite';

/** A row as node:sqlite returns it. */
export type Raw = Record<string, unknown>;
type Read<V> = (v: unknown) => V;

export const int: Read<number> = (v) => (typeof v === 'number' ? v : 0);
export const intOrNull: Read<number | null> = (v) => (typeof v === 'number' ? v : null);
export const text: Read<string> = (v) => (typeof v === 'string' ? v : String(v ?? ''));
export const textOrNull: Read<string | null> = (v) => (typeof v === 'string' ? v : null);
export const flag: Read<boolean> = (v) => v === 1;
/** A TEXT column whose CHECK constraint already limits it to these values. */
export const oneOf =
  <T extends string>(): Read<T> =>
  (v) =>
    v as T;

export type ColumnSpec<T> = { readonly [K in keyof T]-?: readonly [column: string, read: Read<T[K]>] };

export interface Columns<T> {
  /** "a, b, c": for SELECT and INSERT. */
  readonly list: string;
  /** "?, ?, ?": one parameter per column, in the same order. */
  readonly params: string;
  read(raw: Raw): T;
  /** The row's values in column order (booleans as 0/1). */
  values(row: T): SQLInputValue[];
}

export function columns<T>(spec: ColumnSpec<T>): Columns<T> {
  const entries = Object.entries(spec) as [keyof T & string, readonly [string, Read<unknown>]][];
  return {
    list: entries.map(([, [column]]) => column).join(', '),
    params: entries.map(() => '?').join(', '),
    read(raw) {
      const row = {} as Record<string, unknown>;
      for (const [key, [column, read]] of entries) row[key] = read(raw[column]);
      return row as T;
    },
    values(row) {
      return entries.map(([key]) => {
        const v = row[key] as unknown;
        return typeof v === 'boolean' ? (v ? 1 : 0) : (v as SQLInputValue);
      });
    },
  };
}
