/** `tidings serve`: browser mode, the core plus the renderer on 127.0.0.1. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createTidings, type RealtimeOptions } from '../app/tidings.ts';
import { startBrowserMode } from '../browser-mode/browser-mode.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { defaultDataDir, PACKAGE_ROOT, RENDERER_DIR, rendererBuilt } from './paths.ts';

const HELP = `Usage: tidings serve [--port P] [--host 127.0.0.1] [--data DIR] [--tunnel-host URL | --no-tunnel]
                     [--public-url URL] [--receiver-port P] [--allow-loopback]

Runs Tidings in browser mode: the app's core and its window, served on this machine only.
Prints a URL carrying the access token; open it in a browser. Ctrl-C stops it.
  --port P     port to listen on (default 5599; 0 picks a free one)
  --host H     address to bind (default 127.0.0.1; anything else exposes the API to your network)
  --data DIR   where your subscriptions and items live (default ${defaultDataDir()})

Real-time reading (rssCloud): clouds call a receiver on 127.0.0.1 that a tunnel makes reachable.
Only the receiver goes through the tunnel, never this window or its API.
  --tunnel-host URL    the localtunnel server (default: the saved setting, else https://localtunnel.me)
  --no-tunnel          no tunnel for this run (real-time needs --public-url then)
  --public-url URL     your own public address for the receiver (port forward, a server), instead of a tunnel
  --receiver-port P    the receiver's local port (default 0: any free one; fix it for --public-url)
  --allow-loopback     let your own cloud call back readers on this machine (127.0.0.1: tests, two
                       Tidings on one computer); off by default, as for \`tidings cloud\``;

export async function runServe(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    'tunnel-host': { type: 'string' },
    'no-tunnel': { type: 'boolean' },
    'public-url': { type: 'string' },
    'receiver-port': { type: 'string' },
    'allow-loopback': { type: 'boolean' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = Number((values.port as string | undefined) ?? 5599);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535`);
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const realtime = realtimeOptions(values);
  ensureRendererBuilt();

  const app = createTidings({ dataDir, realtime });
  app.start();
  const server = await startBrowserMode({
    app,
    rendererDir: RENDERER_DIR,
    port,
    host: (values.host as string | undefined) ?? '127.0.0.1',
    dataDir,
  });
  console.log(`Tidings is running in browser mode. Open ${server.openUrl}`);
  console.log(`Data: ${dataDir}. Press Ctrl-C to stop.`);
  const { tunnelEnabled, tunnelHost, publicBaseUrl } = await app.getSettings();
  console.log(
    publicBaseUrl
      ? `Real-time reading: clouds call ${publicBaseUrl}.`
      : tunnelEnabled
        ? `Real-time reading: through a tunnel via ${tunnelHost} (see the activity log).`
        : 'Real-time reading: off (no tunnel, no public URL); feeds are polled.',
  );

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await app.stop();
  return 0;
}

/** The real-time flags; each one, when given, wins over the saved setting for this run. */
function realtimeOptions(values: Record<string, unknown>): RealtimeOptions {
  const tunnelHost = values['tunnel-host'] as string | undefined;
  const publicUrl = values['public-url'] as string | undefined;
  const receiverPortText = values['receiver-port'] as string | undefined;
  if (values['no-tunnel'] && tunnelHost)
    throw new UsageError('--no-tunnel and --tunnel-host contradict each other');
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
  return {
    ...(values['no-tunnel'] ? { tunnelHost: false as const } : tunnelHost ? { tunnelHost } : {}),
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
    throw new UsageError('the renderer is not built and building it failed: run `npm run build` and see why');
  }
}
