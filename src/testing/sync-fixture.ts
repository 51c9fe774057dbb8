/**
 * A running app with reading on other devices turned on (issue 32), for the sync APIs' tests: a
 * real app on a temp data dir, its receiver on 127.0.0.1 (and a real tunnel when a tunnel server
 * is given), an app password made through the API as Settings makes it, and the addresses the
 * API gives for both doors. `seed` fills the reader through the store's own upsert (the path a
 * poll takes), for tests that need thousands of items without parsing thousands of documents.
 */
import type { RealtimeOptions, Tidings } from '../app/tidings.ts';
import { makeItem } from '../store/test-support.ts';
import type { LoginLimits } from '../sync/login-guard.ts';
import { startAppWithHost } from './app-fixture.ts';
import type { FeedHost } from './feed-host.ts';
import { feverKey } from './sync-clients.ts';
import type { TunnelServer } from './tunnel-server.ts';
import { waitFor } from './wait.ts';

export interface SyncFixture {
  app: Tidings;
  host: FeedHost;
  dataDir: string;
  user: string;
  password: string;
  feverKey: string;
  /** The Google Reader API's address: the tunnel's when there is one, else the loopback one. */
  greader: string;
  fever: string;
  /** For a tunnel address: where to dial (the tunnel server on 127.0.0.1); undefined on loopback. */
  via: string | undefined;
  close(): Promise<void>;
}

export async function startSyncApp(
  opts: {
    tunnel?: TunnelServer;
    loginLimits?: Partial<LoginLimits>;
    enable?: boolean;
    user?: string;
    /** Real-time options over the fixture's (a public address of its own, for a WebSub hub). */
    realtime?: Partial<RealtimeOptions>;
  } = {},
): Promise<SyncFixture> {
  const fx = await startAppWithHost('tidings-sync-', undefined, {
    realtime: { tunnelHost: opts.tunnel ? opts.tunnel.url : false, receiverPort: 0, ...opts.realtime },
    ...(opts.loginLimits ? { syncLoginLimits: opts.loginLimits } : {}),
  });
  const { app, host, dataDir } = fx;
  const failure = await app.realtimeStarted();
  if (failure) throw failure;
  if (opts.tunnel) {
    await waitFor(async () => (await app.realtimeInfo()).tunnel?.status === 'open', 20_000, 'the tunnel');
  }
  const user = opts.user ?? 'reader';
  const made = await app.newSyncPassword(user);
  if (!made.ok) throw new Error(made.error.message);
  const info = opts.enable === false ? await app.syncInfo() : await app.setSyncEnabled(true);
  const pick = (a: { public: string | null; local: string[] }) => (opts.tunnel ? a.public : a.local[0]) ?? '';
  return {
    app,
    host,
    dataDir,
    user,
    password: made.value.password,
    feverKey: feverKey(user, made.value.password),
    greader: pick(info.greader),
    fever: pick(info.fever),
    via: opts.tunnel?.url,
    close: fx.close,
  };
}

/**
 * `feeds` feeds of `perFeed` items each, spread over `folders` folders ("Folder 1"...; feed i in
 * folder i % folders, none when 0). Each feed's items arrive as one fetch, a second apart.
 */
export function seed(
  app: Tidings,
  host: FeedHost,
  opts: { feeds: number; perFeed: number; folders?: number; start?: number; name?: string },
): number[] {
  const store = app.context.store;
  const ids: number[] = [];
  const start = opts.start ?? Date.now() - opts.feeds * 1000;
  const name = opts.name ?? 'seed';
  for (let f = 0; f < opts.feeds; f++) {
    const path = `/${name}-${f}.xml`;
    // The feed answers 304 to its first fetch: its items are the ones seeded here.
    host.set(path, { status: 304 });
    const folder = opts.folders ? `Folder ${(f % opts.folders) + 1}` : null;
    const { feed } = store.addFeed({ url: `${host.url}${path}`, title: `Feed ${f}`, folder });
    const items = Array.from({ length: opts.perFeed }, (_, i) =>
      makeItem(`${name}-f${f}-i${i}`, {
        title: `Feed ${f} item ${i}`,
        published: new Date(start - i * 60_000).toISOString(),
      }),
    );
    store.upsertItems(feed.id, items, start + f * 1000);
    ids.push(feed.id);
  }
  return ids;
}
