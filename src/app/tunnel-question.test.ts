/**
 * Issue 35: the first run asks before going public. Until the person answers, no tunnel opens
 * (the tunnel server sees no client); the answer is remembered across restarts; this run's
 * options (--no-tunnel, --tunnel, --tunnel-host, a public address) decide without asking.
 * A real localtunnel server on loopback stands in for localtunnel.me.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTunnelServer, type TunnelServer } from '../testing/tunnel-server.ts';
import type { RealtimeInfo } from './api.ts';
import { createTidings, type RealtimeOptions, type Tidings } from './tidings.ts';

let tunnel: TunnelServer;
let dataDir: string;
const running: Tidings[] = [];

beforeAll(async () => {
  tunnel = await startTunnelServer();
});
afterAll(() => tunnel.stop());

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tidings-tunnel-question-'));
});
afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The app as `tidings serve` makes it, with this run's real-time options; `opened` resolves once
 * its tunnel is open (watched from before the start, so an early open is not missed).
 */
async function startWatching(
  options: Omit<RealtimeOptions, 'receiverPort'> = {},
): Promise<{ app: Tidings; opened: Promise<void> }> {
  const app = createTidings({ dataDir, realtime: { receiverPort: 0, ...options } });
  running.push(app);
  const opened = tunnelOpened(app);
  app.start();
  expect(await app.realtimeStarted()).toBeNull();
  return { app, opened };
}

const start = async (options: Omit<RealtimeOptions, 'receiverPort'> = {}) =>
  (await startWatching(options)).app;

async function stop(app: Tidings): Promise<void> {
  running.splice(running.indexOf(app), 1);
  await app.stop();
}

/** The saved tunnel server is the loopback one (Settings > Real time > Tunnel server). */
async function saveLoopbackTunnelServer(): Promise<void> {
  const app = createTidings({ dataDir, realtime: { receiverPort: 0, tunnelHost: false } });
  await app.updateSettings({ tunnelHost: tunnel.url });
  await app.stop();
}

/** Tunnels the loopback tunnel server holds now (its own status page). */
async function tunnelsOpen(): Promise<number> {
  const res = await fetch(`${tunnel.url}/api/status`);
  return ((await res.json()) as { tunnels: number }).tunnels;
}

/** Resolves once the app's tunnel is open (its activity log says so). */
function tunnelOpened(app: Tidings): Promise<void> {
  return new Promise((resolve) => {
    const off = app.on('activity', (entry) => {
      if (entry.procedure === 'tunnel' && entry.ok) {
        off();
        resolve();
      }
    });
  });
}

const closed = (info: RealtimeInfo) => ({ mode: info.mode, off: info.off, question: info.tunnelQuestion });

describe('the first-run question about the tunnel', () => {
  it('opens no tunnel until answered; yes opens it at once and is remembered', async () => {
    await saveLoopbackTunnelServer();
    const tunnelsBefore = await tunnelsOpen();
    const app = await start();
    expect(closed(await app.realtimeInfo())).toEqual({ mode: 'off', off: 'unanswered', question: true });
    expect(await app.getSettings()).toMatchObject({ tunnelEnabled: false, tunnelHost: tunnel.url });
    // Nothing went out: no tunnel attempt logged, none held by the server.
    expect((await app.activity(50)).filter((e) => e.procedure === 'tunnel')).toEqual([]);
    expect(await tunnelsOpen()).toBe(tunnelsBefore);

    const opened = tunnelOpened(app);
    const answered = await app.answerTunnelQuestion(true);
    expect(answered).toMatchObject({
      mode: 'tunnel',
      tunnelQuestion: false,
      off: null,
      tunnelHost: tunnel.url,
    });
    await opened;
    const info = await app.realtimeInfo();
    expect(info.tunnel?.status).toBe('open');
    expect(info.publicUrl).toMatch(/^http:\/\/[a-z0-9-]+\.localhost:\d+$/);
    expect(await app.getSettings()).toMatchObject({ tunnelEnabled: true });
    await stop(app);

    // The next run remembers: the tunnel opens without asking.
    const { app: again, opened: reopened } = await startWatching();
    expect((await again.realtimeInfo()).tunnelQuestion).toBe(false);
    await reopened;
    expect((await again.realtimeInfo()).tunnelHost).toBe(tunnel.url);
  });

  it('no keeps it closed, remembered; Settings turns it on later', async () => {
    await saveLoopbackTunnelServer();
    const app = await start();
    expect(closed(await app.answerTunnelQuestion(false))).toEqual({
      mode: 'off',
      off: 'setting',
      question: false,
    });
    await stop(app);

    const again = await start();
    expect(closed(await again.realtimeInfo())).toEqual({ mode: 'off', off: 'setting', question: false });
    const opened = tunnelOpened(again);
    await again.updateSettings({ tunnelEnabled: true });
    await opened;
    expect((await again.realtimeInfo()).mode).toBe('tunnel');
  });

  it("this run's options decide without asking, and the question waits for a run without them", async () => {
    await saveLoopbackTunnelServer();
    const off = await start({ tunnelHost: false });
    expect(closed(await off.realtimeInfo())).toEqual({ mode: 'off', off: 'thisRun', question: false });
    await stop(off);

    const { app: on, opened } = await startWatching({ tunnelHost: true });
    expect((await on.realtimeInfo()).tunnelQuestion).toBe(false);
    await opened;
    expect((await on.realtimeInfo()).tunnelHost).toBe(tunnel.url);
    await stop(on);

    const plain = await start();
    expect(closed(await plain.realtimeInfo())).toEqual({ mode: 'off', off: 'unanswered', question: true });
  });

  it('your own public address needs no tunnel, so nothing is asked', async () => {
    const app = await start({ publicBaseUrl: 'https://reader.example' });
    expect(await app.realtimeInfo()).toMatchObject({
      mode: 'public',
      tunnelQuestion: false,
      tunnelHost: null,
    });
  });

  it('a pause (the desktop tray) says so, not that it was turned off', async () => {
    await saveLoopbackTunnelServer();
    const { app, opened } = await startWatching({ tunnelHost: true });
    await opened;
    app.context.realtime?.reconfigure({ tunnelHost: null, publicBaseUrl: null });
    expect(closed(await app.realtimeInfo())).toEqual({ mode: 'off', off: 'paused', question: false });
  });
});
