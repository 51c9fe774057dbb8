import { describe, expect, it } from 'vitest';
import type { RiverPage, TidingsApi } from '../../../src/app/api';
import { createAppStore } from '../store/store';
import { deferred } from '../testing/fixtures';
import { whenRiverFirstLoaded } from './first-render';

function storeWithRiver(page: Promise<RiverPage>) {
  const api = {
    river: () => page,
    getSettings: async () => ({ pollIntervalMin: 60, retentionDays: 30 }),
  } as unknown as TidingsApi;
  return createAppStore(api);
}

const settles = async (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('whenRiverFirstLoaded', () => {
  it('waits for the river first page, then lets the page render', async () => {
    const page = deferred<RiverPage>();
    const store = storeWithRiver(page.promise);
    void store.getState().loadRiver();
    const ready = whenRiverFirstLoaded(store, 5_000);
    expect(await settles(ready, 50)).toBe(false);
    page.resolve({ groups: [], nextCursor: null });
    expect(await settles(ready, 1_000)).toBe(true);
  });

  it('renders anyway when the river fails, or is slow past the limit', async () => {
    const failing = deferred<RiverPage>();
    const store = storeWithRiver(failing.promise);
    void store.getState().loadRiver();
    const ready = whenRiverFirstLoaded(store, 5_000);
    failing.reject(new Error('down'));
    expect(await settles(ready, 1_000)).toBe(true);

    const slow = storeWithRiver(new Promise(() => {}));
    void slow.getState().loadRiver();
    expect(await settles(whenRiverFirstLoaded(slow, 30), 1_000)).toBe(true);
  });

  it('does not wait at all without a token (the sign-in page shows at once)', async () => {
    const store = storeWithRiver(new Promise(() => {}));
    store.getState().setConnection('unauthorized');
    expect(await settles(whenRiverFirstLoaded(store, 5_000), 20)).toBe(true);
  });
});
