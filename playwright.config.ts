import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browsers here: use Debian's Chromium (ENVIRONMENT.md).
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HOST_RULES =
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
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
      ],
    },
    viewport: { width: 1280, height: 800 },
  },
});
