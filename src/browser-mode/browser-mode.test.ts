/** Browser mode's server: token on every call and on the event socket, Host checked, events pushed. */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTidings, type Tidings } from '../app/tidings.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../testing/feed-host.ts';
import { type BrowserModeServer, startBrowserMode } from './browser-mode.ts';

let app: Tidings;
let server: BrowserModeServer;
let dir: string;
let host: FeedHost;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-bm-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Tidings</title>');
  host = await startFeedHost();
  app = createTidings({ dataDir: join(dir, 'data') });
  app.start();
  server = await startBrowserMode({ app, rendererDir, dataDir: join(dir, 'data') });
});

afterEach(async () => {
  await server.close();
  await app.stop();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, args: unknown[], token: string | null = server.token) =>
  fetch(`${server.url}/api/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ args }),
  });

describe('browser mode', () => {
  it('binds loopback and prints a URL carrying the token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openUrl).toBe(`${server.url}/?token=${server.token}`);
  });

  it('refuses API calls without the right token', async () => {
    expect((await call('listFeeds', [], null)).status).toBe(401);
    expect((await call('listFeeds', [], 'wrong-token-wrong-token-wrong-token')).status).toBe(401);
    const ok = await call('listFeeds', []);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ result: [] });
  });

  it('answers arguments of the wrong shape with 400 and a readable reason, never a crash', async () => {
    const cases: [string, unknown[], RegExp][] = [
      ['subscribe', [], /subscribe: argument 1 must be an object, not nothing/],
      ['subscribe', [{ link: 'https://x.example/' }], /subscribe: argument 1\.url must be text, not nothing/],
      ['subscribe', ['https://x.example/'], /argument 1 must be an object, not text/],
      ['markRead', [[1, 'two'], true], /markRead: argument 1\[1\] must be a number, not text/],
      ['post', [{ text: 'hi', children: [{ text: 5 }] }], /argument 1\.children\[0\]\.text must be text/],
      [
        'searchItems',
        [{ query: 'a', scope: { kind: 'planet' } }],
        /scope\.kind must be "all" or "feed" or "folder"/,
      ],
      ['listFeeds', [1], /listFeeds takes no arguments, not 1/],
      ['updateFeed', [1, null], /argument 2 must be an object, not null/],
    ];
    for (const [method, args, reason] of cases) {
      const res = await call(method, args);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([method, res.status, body.error.code], JSON.stringify(body)).toEqual([
        method,
        400,
        'api.badArgs',
      ]);
      expect(body.error.message).toMatch(reason);
    }
    const notAList = await fetch(`${server.url}/api/listFeeds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
      body: '{"args": {"url": 1}}',
    });
    expect(notAList.status).toBe(400);
    // Optional arguments may be left out; the right shape still works.
    expect((await call('activity', [])).status).toBe(200);
    expect((await call('refresh', [null])).status).toBe(200);
    // JSON turns an argument left undefined into null: taken as absent where null is not allowed.
    expect((await call('activity', [undefined])).status).toBe(200);
    expect((await call('search', ['x', undefined])).status).toBe(200);
  });

  it('answers unknown commands and bad bodies with readable errors', async () => {
    const unknown = await call('dropAllTables', []);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/dropAllTables/);
    const bad = await fetch(`${server.url}/api/listFeeds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
      body: 'not json',
    });
    expect(bad.status).toBe(400);
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/api/listFeeds`,
        { method: 'POST', headers: { host: 'attacker.example:80', authorization: `Bearer ${server.token}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{"args":[]}');
    });
    expect(status).toBe(421);
  });

  it('serves the window with a strict CSP', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });

  it('keeps the same token across restarts (a bookmark keeps working)', async () => {
    const again = await startBrowserMode({
      app,
      rendererDir: join(dir, 'renderer'),
      dataDir: join(dir, 'data'),
    });
    expect(again.token).toBe(server.token);
    await again.close();
  });

  it('pushes events over the WebSocket only with the token', async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/api/events`;
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(wsUrl);
      ws.on('open', () => resolve('open'));
      ws.on('error', () => resolve('refused'));
    });
    expect(refused).toBe('refused');

    const ws = new WebSocket(`${wsUrl}?token=${server.token}`);
    await new Promise((resolve) => ws.on('open', resolve));
    const events: { event: string; payload: unknown }[] = [];
    ws.on('message', (data) => events.push(JSON.parse(String(data))));
    host.set('/f.xml', rssFeed('Pushed', [{ title: 'p', guid: 'p1' }]));
    const res = await call('subscribe', [{ url: `${host.url}/f.xml` }]);
    expect(((await res.json()) as { result: { ok: boolean } }).result.ok).toBe(true);
    await app.context.scheduler.idle();
    await new Promise((r) => setTimeout(r, 50));
    ws.close();
    const names = events.map((e) => e.event);
    expect(names).toContain('feeds.changed');
    expect(names).toContain('river.changed');
    expect(events.find((e) => e.event === 'river.changed')!.payload).toMatchObject({ newItems: 1 });
  });
});

describe('browser mode: Origin (issue 9)', () => {
  const withOrigin = (origin: string) =>
    fetch(`${server.url}/api/listFeeds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}`, origin },
      body: JSON.stringify({ args: [] }),
    });

  it("answers the app's own page and refuses any other origin, even with the token", async () => {
    expect((await withOrigin(server.url)).status).toBe(200);
    for (const origin of [
      'https://evil.example',
      'null',
      `http://localhost.evil.example:${server.port}`,
      `https://127.0.0.1:${server.port}`,
    ]) {
      const res = await withOrigin(origin);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'api.origin' } });
    }
  });

  it("refuses a WebSocket opened by another site's page", async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}/api/events?token=${server.token}`;
    const open = (origin: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(wsUrl, { origin });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        ws.on('error', () => resolve('error'));
      });
    expect(await open('https://evil.example')).toBe('403');
    expect(await open(server.url)).toBe('open');
  });
});
