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
  tidings: async ({}, use, testInfo) => {
    const tidings = await startTidings();
    await use(tidings);
    await tidings.stop();
    // What the server said (its errors, or how it died) goes with a failed test's report.
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('tidings serve output', { body: tidings.output(), contentType: 'text/plain' });
    }
  },
});

export { expect } from '@playwright/test';
