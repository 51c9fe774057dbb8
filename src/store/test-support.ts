/** Helpers for the store's tests and bench only: temp databases and model items. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item } from '../feed/model.ts';
import { newItem } from '../feed/model-new.ts';

export function makeItem(id: string, over: Partial<Item> = {}): Item {
  return {
    ...newItem(),
    id,
    title: `Title ${id}`,
    link: `https://example.com/${id}`,
    summary: `<p>Summary of ${id}</p>`,
    ...over,
  };
}

export interface TempDir {
  path: string;
  file(name: string): string;
  remove(): void;
}

export function tempDir(prefix = 'tidings-store-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
