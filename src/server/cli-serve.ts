/** `tidings serve`: browser mode, the core plus the renderer on 127.0.0.1. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createTidings } from '../app/tidings.ts';
import { startBrowserMode } from './browser-mode.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { defaultDataDir, PACKAGE_ROOT, RENDERER_DIR, rendererBuilt } from './paths.ts';

const HELP = `Usage: tidings serve [--port P] [--host 127.0.0.1] [--data DIR]

Runs Tidings in browser mode: the app's core and its window, served on this machine only.
Prints a URL carrying the access token; open it in a browser. Ctrl-C stops it.
  --port P     port to listen on (default 5599; 0 picks a free one)
  --host H     address to bind (default 127.0.0.1; anything else exposes the API to your network)
  --data DIR   where your subscriptions and items live (default ${defaultDataDir()})`;

export async function runServe(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = Number((values.port as string | undefined) ?? 5599);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535`);
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  ensureRendererBuilt();

  const app = createTidings({ dataDir });
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

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await app.stop();
  return 0;
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
