import { describe, expect, it } from 'vitest';
import type { RiverGroup, RiverItem } from '../../../src/app/api';
import { riverGroup, riverItem } from '../testing/fixtures';
import { LocalChanges } from './local-changes';

function group(...items: [number, boolean][]): RiverGroup {
  return riverGroup(
    1,
    items.map(([id, read]) => riverItem(id, 1, { read })),
  );
}

const readItem = (id: number) => ({
  matches: (item: RiverItem) => item.id === id,
  change: (item: RiverItem) => (item.read ? item : { ...item, read: true }),
});

const reads = (groups: RiverGroup[]) => groups.flatMap((g) => g.items.map((i) => `${i.id}:${i.read}`));

describe('LocalChanges', () => {
  it('lays a change over an answer to a request that left before the core confirmed it', () => {
    const local = new LocalChanges();
    const early = local.started(); // a head refresh leaves
    const entry = local.begin(readItem(1)); // the reader clicks item 1
    const during = local.started(); // another request while markRead is in flight
    local.settle(entry); // the core confirms
    const after = local.started(); // requested after the core has it

    const stale = [group([1, false], [2, false])];
    expect(reads(local.overlay(stale, early))).toEqual(['1:true', '2:false']);
    expect(reads(local.overlay(stale, during))).toEqual(['1:true', '2:false']);
    // A request that left after confirmation gets the core's word, whatever it is.
    expect(local.overlay(stale, after)).toBe(stale);
  });

  it('forgets a change once every request in flight has seen it', () => {
    const local = new LocalChanges();
    const early = local.started();
    const entry = local.begin(readItem(1));
    local.settle(entry);
    expect(local.size).toBe(1);
    local.ended(early);
    expect(local.size).toBe(0);
  });

  it('keeps an unconfirmed change for every answer, and drops a cancelled one', () => {
    const local = new LocalChanges();
    const entry = local.begin(readItem(2));
    const later = local.started();
    expect(reads(local.overlay([group([2, false])], later))).toEqual(['2:true']);
    local.cancel(entry);
    expect(reads(local.overlay([group([2, false])], later))).toEqual(['2:false']);
    local.ended(later);
    expect(local.size).toBe(0);
  });
});
