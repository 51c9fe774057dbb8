/**
 * The setup most src/app tests share: a real app on a fresh temp data dir beside a loopback feed
 * host. A test file keeps its own `host`/`app` variables and writes
 *   startAppEachTest('tidings-x-', (fx) => ({ host, app } = fx));
 * or, to start one itself, `const fx = await startAppWithHost('tidings-x-')` and `fx.close()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import type { Notice, TidingsEvents } from '../app/api.ts';
import { createTidings, type Tidings, type TidingsOptions } from '../app/tidings.ts';
import { freePort } from '../net/test-server.ts';
import { type FeedHost, startFeedHost } from './feed-host.ts';

export interface AppWithHost {
  host: FeedHost;
  app: Tidings;
  dataDir: string;
  /** What the app told the person, and what it told the river, since it started. */
  notices: Notice[];
  riverEvents: TidingsEvents['river.changed'][];
  /** Stops the app, closes the host and removes the data dir. */
  close(): Promise<void>;
}

/**
 * `beforeStart` runs on the new app before start(), e.g. to attach event listeners; `options`
 * are the app's own (all but its data dir).
 */
export async function startAppWithHost(
  prefix: string,
  beforeStart?: (app: Tidings) => void,
  options: Omit<TidingsOptions, 'dataDir'> = {},
): Promise<AppWithHost> {
  const host = await startFeedHost();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const app = createTidings({ ...options, dataDir });
  const notices: Notice[] = [];
  const riverEvents: TidingsEvents['river.changed'][] = [];
  app.on('notice', (n) => notices.push(n));
  app.on('river.changed', (e) => riverEvents.push(e));
  beforeStart?.(app);
  app.start();
  return {
    host,
    app,
    dataDir,
    notices,
    riverEvents,
    async close() {
      await app.stop();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a fresh app and host before each test of the file (or describe block) that calls it,
 * hands them to `take` (which keeps them in the file's own variables), and closes them after it.
 */
export function startAppEachTest(
  prefix: string,
  take: (fx: AppWithHost) => void,
  beforeStart?: (app: Tidings) => void,
): void {
  beforeEach(async () => {
    const fx = await startAppWithHost(prefix, beforeStart);
    take(fx);
    return fx.close; // vitest runs what a beforeEach returns as that test's teardown
  });
}

/**
 * An app (not started) that publishes for itself on loopback: no tunnel, its public address is
 * its own receiver, and its own cloud may call loopback subscribers. `base` is that address.
 */
export async function createLoopbackPublisher(
  dataDir: string,
  options: Omit<TidingsOptions, 'dataDir' | 'realtime'> = {},
): Promise<{ app: Tidings; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = createTidings({
    ...options,
    dataDir,
    realtime: {
      tunnelHost: false,
      publicBaseUrl: base,
      receiverPort: port,
      ownCloudAllow: { loopback: true },
    },
  });
  return { app, base };
}
