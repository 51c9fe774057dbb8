/**
 * The outbox's leases on one publish.db shared by two processes (two connections here): a due
 * task is taken by one of them only; a lease held by a dead process is released at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PublishStore } from './publish-store.ts';

let dir: string;
let stores: PublishStore[] = [];
afterEach(() => {
  for (const s of stores) s.close();
  stores = [];
  rmSync(dir, { recursive: true, force: true });
});

function open(): PublishStore {
  const s = new PublishStore(join(dir, 'publish.db'));
  stores.push(s);
  return s;
}

const content = { text: 't', link: null, enclosure: null, tags: [], children: [] };

it('two runners never take the same task; a dead holder lets go', () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-publish-store-'));
  const a = open();
  const b = open();
  for (let i = 0; i < 30; i++) a.insertPost(`g${i}`, content, 1000, [{ kind: 'save', target: 'hosting' }]);
  const byA: number[] = [];
  const byB: number[] = [];
  for (let round = 0; round < 10; round++) {
    byA.push(...a.claimDue(2000, 60_000, 2, undefined, 111).map((t) => t.id));
    byB.push(...b.claimDue(2000, 60_000, 2, undefined, 222).map((t) => t.id));
  }
  const taken = [...byA, ...byB];
  expect(new Set(taken).size).toBe(taken.length);
  expect(taken).toHaveLength(30);
  expect(a.claimDue(2000, 60_000, 100)).toEqual([]);

  // Process 111 died: its tasks come back at once, 222's stay held.
  b.releaseDeadLeases(3000, (pid) => pid !== 111);
  const back = b.claimDue(3000, 60_000, 100, undefined, 333);
  expect(back.map((t) => t.id).sort((x, y) => x - y)).toEqual(byA.sort((x, y) => x - y));
  expect(back.every((t) => t.leaseUntil === 63_000)).toBe(true);
});
