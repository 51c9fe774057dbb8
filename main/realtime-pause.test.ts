import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createTidings, type Tidings } from '../src/app/tidings.ts';
import { waitFor } from '../src/testing/wait.ts';
import { createRealtimePause } from './realtime-pause.ts';

let app: Tidings | null = null;
let dir = '';
afterEach(async () => {
  await app?.stop();
  app = null;
  rmSync(dir, { recursive: true, force: true });
});

async function realApp(): Promise<Tidings> {
  dir = mkdtempSync(join(tmpdir(), 'tidings-pause-'));
  // A real core with its receiver on 127.0.0.1, reached at a public address of the user's own
  // (no tunnel: nothing leaves loopback).
  app = createTidings({ dataDir: dir, realtime: { tunnelHost: false, publicBaseUrl: 'http://127.0.0.1:9' } });
  app.start();
  await waitFor(async () => (await app!.realtimeInfo()).publicUrl !== null, 10_000, 'the public address');
  return app;
}

it('pausing takes the receiver off the public address; resuming restores the saved one', async () => {
  const core = await realApp();
  const pause = createRealtimePause(core);
  expect(await pause.available()).toBe(true);
  expect(pause.paused()).toBe(false);
  await pause.set(true);
  expect(pause.paused()).toBe(true);
  expect((await core.realtimeInfo()).mode).toBe('off');
  // The saved settings are untouched: the pause is for this run only.
  expect((await core.getSettings()).publicBaseUrl).toBe('http://127.0.0.1:9');
  await pause.set(false);
  expect(pause.paused()).toBe(false);
  expect((await core.realtimeInfo()).mode).toBe('public');
  expect((await core.realtimeInfo()).publicUrl).toBe('http://127.0.0.1:9');
});

it('changing the real-time settings while paused applies them and ends the pause', async () => {
  const core = await realApp();
  const pause = createRealtimePause(core);
  await pause.set(true);
  await core.updateSettings({ publicBaseUrl: 'http://127.0.0.1:10' });
  expect(pause.paused()).toBe(false);
  expect((await core.realtimeInfo()).publicUrl).toBe('http://127.0.0.1:10');
});
