import { describe, expect, it } from 'vitest';
import type { Store } from './store.ts';
import { openStoreEachTest } from './test-store.ts';
import { makeItem } from './test-support.ts';

let store: Store;
let feed: number;

openStoreEachTest((fx) => ({ store, feedId: feed } = fx));

describe('mute filters over text a feed wrote', () => {
  it('a pattern that backtracks for ever in JavaScript takes no time on a hostile item', () => {
    // (a+)+c against 'aaa…ab' is exponential for a backtracking engine: 30 a's took minutes.
    const added = store.addMuteFilter({ feedId: null, kind: 'regex', pattern: '(a+)+c', action: 'hide' });
    expect(added.ok).toBe(true);
    const hostile = makeItem('hostile', { title: `${'a'.repeat(20_000)}b`, summary: null });
    const plain = makeItem('plain', { title: 'an aaac battery', summary: null });
    const cpu = process.cpuUsage();
    const r = store.upsertItems(feed, [hostile, plain], 1);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(1_000);
    // The pattern still means what it says: the item with a's then c is muted, the other not.
    expect(r.muted).toHaveLength(1);
    expect(store.riverItems({}).items.map((i) => i.guid)).toEqual(['hostile']);
  });

  it('refuses a look-around or a back-reference with a sentence that says why', () => {
    for (const pattern of ['(?<=x)y', 'a(?!b)', '(a)\\1']) {
      const r = store.addMuteFilter({ feedId: null, kind: 'regex', pattern, action: 'hide' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(/look-around or a back-reference/);
    }
  });

  it('matches case-insensitively in any script, and keeps patterns written for older engines', () => {
    for (const pattern of ['^breaking:', 'CAFÉ', '\\bcrypto\\b', 'foo\\_bar', 'a\\-b']) {
      expect(store.addMuteFilter({ feedId: null, kind: 'regex', pattern, action: 'markRead' }).ok).toBe(true);
    }
    const r = store.upsertItems(
      feed,
      [
        makeItem('1', { title: 'Breaking: news', summary: null }),
        makeItem('2', { title: 'Le café du coin', summary: null }),
        makeItem('3', { title: 'Cryptocurrency', summary: null }),
        makeItem('4', { title: 'a-b', summary: null }),
      ],
      1,
    );
    expect(r.muted).toHaveLength(3);
  });
});
