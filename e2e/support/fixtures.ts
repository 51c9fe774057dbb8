/**
 * Playwright fixtures: a feed host on loopback and `tidings serve` (browser mode, no tunnel) for
 * each test, started before it and stopped after it.
 */
import { test as base } from '@playwright/test';
import { type FeedHost, startFeedHost, startTidings, type TidingsProcess } from './servers.ts';

export const test = base.extend<{ host: FeedHost; tidings: TidingsProcess }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies destructured.
  host: async ({}, use) => {
    const host = await startFeedHost();
    await use(host);
    await host.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  tidings: async ({}, use) => {
    const tidings = await startTidings();
    await use(tidings);
    await tidings.stop();
  },
});

export { expect } from '@playwright/test';
