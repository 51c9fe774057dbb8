/**
 * The setup most src/app tests share: a real app on a fresh temp data dir beside a loopback feed
 * host. A test file keeps its own `host`/`app` variables and writes
 *   beforeEach(async () => { const fx = await startAppWithHost('tidings-x-'); ({ host, app } = fx); return fx.close; });
 * (vitest runs the function a beforeEach returns as that test's teardown).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTidings, type Tidings, type TidingsOptions } from '../app/tidings.ts';
import { freePort } from '../net/test-server.ts';
import { type FeedHost, startFeedHost } from './feed-host.ts';

export interface AppWithHost {
  host: FeedHost;
  app: Tidings;
  dataDir: string;
  /** Stops the app, closes the host and removes the data dir. */
  close(): Promise<void>;
}

/** `beforeStart` runs on the new app before start(), e.g. to attach event listeners. */
export async function startAppWithHost(
  prefix: string,
  beforeStart?: (app: Tidings) => void,
): Promise<AppWithHost> {
  const host = await startFeedHost();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const app = createTidings({ dataDir });
  beforeStart?.(app);
  app.start();
  return {
    host,
    app,
    dataDir,
    async close() {
      await app.stop();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
