/** `tidings serve`: browser mode, the core plus the renderer on 127.0.0.1. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createTidings, type RealtimeOptions } from '../app/tidings.ts';
import { type BrowserModeServer, startBrowserMode } from '../browser-mode/browser-mode.ts';
import { describeError } from '../common/errors.ts';
import { createShutdown, installSignalHandlers } from '../common/shutdown.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { dataDirOption, defaultDataDir, PACKAGE_ROOT, RENDERER_DIR, rendererBuilt } from './paths.ts';
import { applySyncFlags, SYNC_HELP, SYNC_OPTIONS, syncBanner, syncFlags } from './serve-sync.ts';
import { tunnelReporter } from './tunnel-report.ts';

const HELP = `Usage: tidings serve [--port P] [--host 127.0.0.1] [--data DIR] [--tunnel | --tunnel-host URL | --no-tunnel]
                     [--public-url URL] [--receiver-port P] [--allow-loopback]
                     [--sync | --no-sync] [--sync-user NAME] [--new-sync-password | --revoke-sync-password]

Runs Tidings in browser mode: the app's core and its window, served on this machine only.
Prints a URL carrying the access token; open it in a browser. Ctrl-C stops it.
  --port P     port to listen on (default 5599; 0 picks a free one)
  --host H     address to bind (default 127.0.0.1; anything else exposes the API to your network)
  --data DIR   where your subscriptions and items live (default ${defaultDataDir()})

Real-time reading (rssCloud, WebSub): clouds and hubs call a receiver on 127.0.0.1 that a public
tunnel makes reachable. Only the receiver, the feed you host and the sync APIs (when on) go
through it, never this window or its API. On the first run the window asks whether the tunnel
may open, and remembers the answer (Settings > Real time changes it); until then no tunnel opens
and feeds are polled.
  --tunnel             open the tunnel for this run without asking (the saved server, else https://localtunnel.me)
  --tunnel-host URL    open it for this run through this localtunnel server
  --no-tunnel          no tunnel for this run (real-time needs --public-url then)
  --public-url URL     your own public address for the receiver (port forward, a server), instead of a tunnel
  --receiver-port P    the receiver's local port (default 0: any free one; required with --public-url)
  --allow-loopback     let your own cloud call back readers on this machine (127.0.0.1: tests, two
                       Tidings on one computer); off by default, as for \`tidings cloud\`

${SYNC_HELP}`;

export async function runServe(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    tunnel: { type: 'boolean' },
    'tunnel-host': { type: 'string' },
    'no-tunnel': { type: 'boolean' },
    'public-url': { type: 'string' },
    'receiver-port': { type: 'string' },
    'allow-loopback': { type: 'boolean' },
    ...SYNC_OPTIONS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = Number((values.port as string | undefined) ?? 5599);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535`);
  const dataDir = dataDirOption(values.data as string | undefined);
  const realtime = realtimeOptions(values);
  const sync = syncFlags(values);
  ensureRendererBuilt();

  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const app = createTidings({ dataDir, realtime });
  // Listen before anything starts, so a taken port stops us with nothing running but the
  // databases (closed again by app.stop()).
  let server: BrowserModeServer;
  try {
    server = await startBrowserMode({ app, rendererDir: RENDERER_DIR, port, host, dataDir });
  } catch (e) {
    await app.stop();
    throw listenFailure(e, `port ${port} on ${host}`, '--port P');
  }
  let syncLines: string[];
  try {
    syncLines = await applySyncFlags(app, sync);
  } catch (e) {
    await server.close();
    await app.stop();
    throw e;
  }
  // The tunnel's news as it happens (tunnel-report.ts); held until the banner below is out.
  const held: (() => void)[] = [];
  let bannerOut = false;
  const say = (write: (line: string) => void) => (line: string) =>
    bannerOut ? write(line) : held.push(() => write(line));
  const { tunnelHost: shownHost } = await app.getSettings();
  const offTunnel = app.on(
    'activity',
    tunnelReporter(shownHost ?? 'the tunnel server', {
      out: say((l) => console.log(l)),
      err: say((l) => console.error(l)),
    }),
  );
  app.start();
  const realtimeFailure = await app.realtimeStarted();
  if (realtimeFailure) {
    // A port the user fixed and cannot have is their mistake to fix: stop. Anything else
    // (no network for the tunnel...) leaves the app polling, and the activity log says why.
    if (realtime.receiverPort !== 0 && errnoOf(realtimeFailure) === 'EADDRINUSE') {
      await server.close();
      await app.stop();
      throw listenFailure(
        realtimeFailure,
        `the receiver's port ${realtime.receiverPort}`,
        '--receiver-port P',
      );
    }
    console.error(`Real-time reading could not start: ${describeError(realtimeFailure)}; feeds are polled.`);
  }
  console.log(`Tidings is running in browser mode. Open ${server.openUrl}`);
  console.log(`Data: ${dataDir}. Press Ctrl-C to stop.`);
  const { tunnelEnabled, tunnelHost, publicBaseUrl } = await app.getSettings();
  const { tunnelQuestion } = await app.realtimeInfo();
  console.log(
    realtimeFailure
      ? 'Real-time reading: off (see above); feeds are polled.'
      : publicBaseUrl
        ? `Real-time reading: clouds call ${publicBaseUrl}.`
        : tunnelEnabled
          ? `Real-time reading: opening a tunnel via ${tunnelHost} (this console says when it is open or cannot be).`
          : tunnelQuestion
            ? TUNNEL_QUESTION_LINE
            : 'Real-time reading: off (no tunnel, no public URL); feeds are polled.',
  );
  for (const line of [...syncLines, ...(await syncBanner(app))]) console.log(line);
  bannerOut = true;
  for (const line of held.splice(0)) line();
  return await untilStopped(async () => {
    offTunnel();
    await server.close();
    await app.stop();
  });
}

/** What the console says while the first-run question waits for its answer in the window. */
export const TUNNEL_QUESTION_LINE =
  'Real-time reading: no tunnel yet. The window asks once whether Tidings may open a public tunnel ' +
  '(it makes the receiver and the feed you host reachable from the internet, never the app); ' +
  'feeds are polled until you answer there. To decide without the window, start with --tunnel or --no-tunnel.';

/**
 * Waits for SIGINT/SIGTERM/SIGHUP, then stops once: Ctrl-C under `npm start` arrives twice (from
 * the terminal and from the launcher), and a second signal must not kill us while the databases
 * close. Later signals wait for the stop; a stop stuck past the deadline exits 1 (WAL keeps what
 * was committed).
 */
function untilStopped(stop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const shutdown = createShutdown({
      stop,
      deadlineMs: STOP_DEADLINE_MS,
      log: (line) => console.log(line),
      exit: (code) => {
        uninstall();
        // After a clean stop, return (the process ends once its sockets are gone); after the
        // deadline nothing can be trusted to finish: end now.
        if (shutdown.state === 'stopped') resolve(code);
        else process.exit(code);
      },
    });
    const uninstall = installSignalHandlers(process, shutdown);
  });
}

/** How long a stop may take (fetches in flight finish and commit first). */
const STOP_DEADLINE_MS = 15_000;

function errnoOf(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

/** A listen error as one line naming what was taken and the flag that picks another. */
function listenFailure(e: unknown, what: string, flag: string): Error {
  const code = errnoOf(e);
  if (code === 'EADDRINUSE')
    return new Error(`${what} is already in use; choose another with ${flag} (0 takes any free one)`);
  if (code === 'EACCES')
    return new Error(`${what} may not be used by this user; choose another with ${flag}`);
  if (code === 'EADDRNOTAVAIL') return new Error(`${what}: no such address on this machine (--host)`);
  return e instanceof Error ? e : new Error(String(e));
}

/** The real-time flags; each one, when given, wins over the saved setting for this run. */
function realtimeOptions(values: Record<string, unknown>): RealtimeOptions & { receiverPort: number } {
  const tunnelHost = values['tunnel-host'] as string | undefined;
  const publicUrl = values['public-url'] as string | undefined;
  const receiverPortText = values['receiver-port'] as string | undefined;
  if (values['no-tunnel'] && (tunnelHost || values.tunnel))
    throw new UsageError(
      `--no-tunnel and ${tunnelHost ? '--tunnel-host' : '--tunnel'} contradict each other`,
    );
  for (const [flag, url] of [
    ['--tunnel-host', tunnelHost],
    ['--public-url', publicUrl],
  ] as const) {
    if (url !== undefined && !/^https?:\/\/[^/\s]+/i.test(url))
      throw new UsageError(`${flag} must be an http(s) URL`);
  }
  const receiverPort = Number(receiverPortText ?? 0);
  if (!Number.isInteger(receiverPort) || receiverPort < 0 || receiverPort > 65535) {
    throw new UsageError('--receiver-port must be 0-65535');
  }
  // Your public address forwards to one port of this machine: a receiver on a random port would
  // never be reached through it.
  if (publicUrl && receiverPort === 0) {
    throw new UsageError(
      '--public-url needs --receiver-port P: the port your public address forwards to on this machine',
    );
  }
  return {
    ...(values['no-tunnel']
      ? { tunnelHost: false as const }
      : tunnelHost
        ? { tunnelHost }
        : values.tunnel
          ? { tunnelHost: true as const }
          : {}),
    ...(publicUrl ? { publicBaseUrl: publicUrl.replace(/\/+$/, '') } : {}),
    receiverPort,
    ...(values['allow-loopback'] ? { ownCloudAllow: { loopback: true } } : {}),
  };
}

/** A fresh clone has no build yet: make the renderer once, so `tidings serve` just works. */
function ensureRendererBuilt(): void {
  if (rendererBuilt()) return;
  console.log('Building the window (first run)…');
  const bin = join(PACKAGE_ROOT, 'node_modules', '.bin', 'electron-vite');
  const r = spawnSync(bin, ['build'], { cwd: PACKAGE_ROOT, stdio: 'inherit' });
  if (r.status !== 0 || !rendererBuilt()) {
    throw new Error('the renderer is not built and building it failed: run `npm run build` and see why');
  }
}
