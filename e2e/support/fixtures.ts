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
  // What the page said and did with its event socket, with times, for a failed test's report.
  // (The page snapshot in error-context.md is taken after `tidings` has stopped, so it always
  // shows "Reconnecting…": these lines say whether the socket really was down during the test.)
  page: async ({ page }, use, testInfo) => {
    const started = Date.now();
    const lines: string[] = [];
    const note = (line: string) => lines.push(`${((Date.now() - started) / 1000).toFixed(2)} s ${line}`);
    page.on('console', (m) => {
      // Pictures from names the tests' browser does not resolve (example.com favicons): noise.
      if (!m.text().includes('net::ERR_NAME_NOT_RESOLVED')) note(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => note(`page error: ${e.message}`));
    page.on('websocket', (ws) => {
      const url = ws.url().replace(/token=[^&]*/, 'token=…');
      note(`websocket opened: ${url}`);
      ws.on('socketerror', (error) => note(`websocket error: ${error}`));
      ws.on('close', () => note(`websocket closed: ${url}`));
    });
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus && lines.length > 0) {
      await testInfo.attach('page console and event socket', {
        body: lines.join('\n'),
        contentType: 'text/plain',
      });
    }
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
