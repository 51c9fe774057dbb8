import { spawn } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore } from './store.ts';
import { type TempDir, tempDir } from './test-support.ts';

const BATCH = 40;
const CHILD = fileURLToPath(new URL('./testdata/insert-loop.ts', import.meta.url));

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

/** Runs the insert loop until it has committed `target` items, then SIGKILLs it mid-stride. */
function runAndKill(path: string, target: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, path, String(BATCH)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let committed = 0;
    let stderr = '';
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) committed = Math.max(committed, Number(line));
      if (committed >= target && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(committed);
      else reject(new Error(`child exited on its own: ${stderr.slice(0, 2000)}`));
    });
  });
}

it('a SIGKILL mid-insert leaves a consistent database holding whole batches', async () => {
  const path = dir.file('durable.db');
  // Several rounds on one file: each kill lands at a different point of a batch.
  for (const target of [BATCH * 20, BATCH * 45, BATCH * 70, BATCH * 95]) {
    const committed = await runAndKill(path, target);
    expect(committed).toBeGreaterThanOrEqual(target);

    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    const count = (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
    // Only whole transactions: a multiple of the batch, and at least what was reported done.
    expect(count % BATCH).toBe(0);
    expect(count).toBeGreaterThanOrEqual(committed);
    // The counters and the search index moved in the same transactions as the items.
    const unread = db
      .prepare('SELECT (SELECT SUM(unread) FROM feeds) AS kept, count(*) AS real FROM items WHERE read = 0')
      .get();
    expect(unread!.kept).toBe(unread!.real);
    const indexed = (db.prepare('SELECT count(*) AS n FROM items_fts_docsize').get() as { n: number }).n;
    expect(indexed).toBe(count);
    expect(() => db.exec("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")).not.toThrow();
    db.close();

    // And the store opens and keeps working on it (the next loop run appends to the same feed).
    const store = openStore(path);
    expect(store.riverItems({ limit: 5 }).items).toHaveLength(5);
    store.close();
  }
});
