/**
 * Which Chromium the end-to-end tests and bench:river drive. Playwright cannot download its own
 * browsers here (ENVIRONMENT.md), so they use Debian's, the headless shell first: it is the browser
 * Playwright itself runs for headless tests, Chromium without Chrome's own window. Full Chromium in
 * headless mode still builds Chrome's user interface, and on Chromium 156 that includes the
 * omnibox popup, a WebUI page whose renderer kept about half a core busy the whole time (top: 55%
 * with a blank tab open). On a 2-core machine that took the cores the app's page needs: a cold
 * start's first river item 0.87-1.12 s against 0.40-0.48 s in the headless shell, and Playwright's
 * suite 436 s against 289 s. Full Chromium stays the fallback; CHROMIUM_PATH names another.
 * (scripts/test.cjs looks for the same two, in the same order, to install one when neither is here.)
 */
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? CANDIDATES.find((path) => existsSync(path)) ?? '/usr/bin/chromium';
}
