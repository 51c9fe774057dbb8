/**
 * The durable outbox across a kill -9: a child process posts and is killed while the save is in
 * flight; after a restart on the same data the post is there, is saved and pinged, and appears
 * in the saved feed once, with one ping: published once, not twice.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { parseFeed } from '../feed/parse.ts';
import { startServer, type TestServer } from '../net/test-server.ts';
import { decodeMethodCall, encodeMethodResponse } from '../wire/xmlrpc.ts';
import { startHarness, untilState } from './testdata/harness.ts';

const CHILD = fileURLToPath(new URL('./testdata/post-child.ts', import.meta.url));
let closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

it('a post survives a kill -9 mid-publish and is published once after the restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-outbox-kill-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));

  // The remote cloud: the first saveRss never answers (the writer dies waiting), later ones do.
  let hold = true;
  let onFirst: () => void = () => {};
  const firstSave = new Promise<void>((resolve) => {
    onFirst = resolve;
  });
  const saved: string[] = [];
  const remote: TestServer = await startServer((_req, res, body) => {
    const call = decodeMethodCall(body);
    if (call.ok && call.value.methodName === 'rssCloud.saveRss') {
      if (hold) {
        onFirst();
        return; // no answer: the child is killed meanwhile
      }
      saved.push(String(call.value.params[2]));
      res.writeHead(200, { 'content-type': 'text/xml' });
      return res.end(encodeMethodResponse(`${remote.url}/feeds/me.xml`));
    }
    res.end('<result success="true" msg="Thanks for the ping."/>');
  });
  closers.push(() => remote.close());

  const settings = {
    hosting: { enabled: false, private: null },
    saveRss: { enabled: true, cloudUrl: `${remote.url}/RPC2`, username: 'me', password: 'pw' },
    cloud: { domain: '127.0.0.1', port: remote.port, path: '/pleaseNotify', protocol: 'http-post' },
  };
  const child = spawn(process.execPath, [CHILD, dir, JSON.stringify(settings)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await Promise.race([firstSave, exited]);
  expect(out, err).toMatch(/^posted 1\n/);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  clearTimeout(timeout);

  hold = false;
  const h = await startHarness(settings as never, { dir });
  closers.push(() => h.close());
  const v = await untilState(h, 1, 'published');
  expect(h.publisher.list()).toHaveLength(1);
  expect(v.text).toBe('survives a kill -9');
  expect(v.saves).toEqual([
    expect.objectContaining({ target: 'saveRss', ok: true, publicUrl: `${remote.url}/feeds/me.xml` }),
  ]);
  expect(saved).toHaveLength(1);
  const feed = parseFeed(saved[0]!);
  expect(feed.kind === 'feed' && feed.feed.items.map((i) => i.summary)).toEqual(['survives a kill -9']);
  expect(remote.requests.filter((r) => r.path === '/ping')).toHaveLength(1);
}, 30_000);

it('a kill -9 while pings are in flight costs at most one extra ping per sink and feed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-outbox-kill-pings-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));

  // The remote cloud saves at once; its /ping holds its answer until the child is killed.
  let hold = true;
  let onPing: () => void = () => {};
  const firstPing = new Promise<void>((resolve) => {
    onPing = resolve;
  });
  const remote: TestServer = await startServer((_req, res, body) => {
    if (_req.url === '/ping') {
      if (hold) return onPing(); // no answer: the child dies waiting
      return res.end('<result success="true" msg="Thanks for the ping."/>');
    }
    const call = decodeMethodCall(body);
    if (call.ok && call.value.methodName === 'rssCloud.saveRss') {
      res.writeHead(200, { 'content-type': 'text/xml' });
      return res.end(encodeMethodResponse(`${remote.url}/feeds/me.xml`));
    }
    res.writeHead(404).end();
  });
  closers.push(() => remote.close());

  const settings = {
    hosting: { enabled: false, private: null },
    saveRss: { enabled: true, cloudUrl: `${remote.url}/RPC2`, username: 'me', password: 'pw' },
    cloud: { domain: '127.0.0.1', port: remote.port, path: '/pleaseNotify', protocol: 'http-post' },
  };
  // Three posts owed at once: three saves, then three pings of the same feed to the same cloud.
  const child = spawn(process.execPath, [CHILD, dir, JSON.stringify(settings), '3'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_c, signal) => resolve(signal)),
  );
  const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await Promise.race([firstPing, exited]);
  child.kill('SIGKILL');
  expect(await exited, err).toBe('SIGKILL');
  clearTimeout(timeout);

  hold = false;
  const h = await startHarness(settings as never, { dir });
  closers.push(() => h.close());
  for (const id of [1, 2, 3]) await untilState(h, id, 'published');
  // One request in flight when it died, one after the restart for all three posts.
  expect(remote.requests.filter((r) => r.path === '/ping')).toHaveLength(2);
}, 30_000);
