import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './e2e/support/chromium.ts';

// Playwright cannot download its own browsers here: Debian's headless shell, else its Chromium.
const executablePath = chromiumPath();
export const HOST_RULES =
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  fullyParallel: false,
  // Two at a time where there are two cores. Every test starts its own servers on free ports and
  // its own browser context, and waits for states, not for the clock. With the headless shell
  // (e2e/support/chromium.ts) one worker leaves about a quarter of 2 cores idle: the suite took
  // 254 s with two against 289 s with one, and 348 s against 435 s with a third process keeping
  // one core busy. (With full Chromium two were no faster: its own UI took the spare core.)
  // E2E_WORKERS sets the number.
  workers: Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism())),
  retries: 0,
  outputDir: 'test-results/e2e-artifacts',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // e2e never leaves the machine: every name fails to resolve except loopback's, so a
        // fixture linking example.com (or a stray fetch) cannot reach the internet. *.localhost
        // keeps the tunnel's <id>.localhost hosts (Chromium answers those with loopback itself).
        // e2e/offline.spec.ts checks this holds.
        HOST_RULES,
        // Headless Chromium, once a page stops changing, serves requestAnimationFrame and
        // screenshots from a 1 Hz fallback: a screenshot, a focus moved in a frame callback, the
        // later views loaded after first paint each waited up to a second. Without the limit a
        // frame comes when one is asked for. (Electron on a display has vsync and never waits so.)
        '--disable-frame-rate-limit',
      ],
    },
    viewport: { width: 1280, height: 800 },
  },
});
