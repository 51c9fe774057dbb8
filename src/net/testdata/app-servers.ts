/**
 * The app's public-facing servers in their own process, as `tidings serve` runs them (the app
 * with its rssCloud receiver, and browser mode with the API), for the slow-socket test. Prints
 * one JSON line `{"api","token","receiver"}` once both listen; stops when stdin closes.
 *
 *   node app-servers.ts DATA_DIR RECEIVER_PORT
 */
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createTidings } from '../../app/tidings.ts';
import { startBrowserMode } from '../../browser-mode/browser-mode.ts';

const [dataDir = '', portText = '0'] = process.argv.slice(2);
const receiverPort = Number(portText);
const app = createTidings({
  dataDir,
  realtime: { tunnelHost: false, publicBaseUrl: `http://127.0.0.1:${receiverPort}`, receiverPort },
});
const rendererDir = join(dataDir, 'renderer');
mkdirSync(rendererDir, { recursive: true });
const browser = await startBrowserMode({ app, rendererDir, port: 0, dataDir, token: 'slow-socket-test' });
app.start();

/** The receiver listens a moment after start(): wait until it accepts. */
async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the receiver never listened on ${port}`);
}
await listening(receiverPort);
process.stdout.write(`${JSON.stringify({ api: browser.url, token: browser.token, receiver: receiverPort })}\n`);

process.stdin.on('close', () => {
  void browser
    .close()
    .then(() => app.stop())
    .then(() => process.exit(0));
});
process.stdin.resume();
