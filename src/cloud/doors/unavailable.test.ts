/**
 * While the cloud's database is away, every door answers in its own protocol's form with a
 * neutral sentence (never the driver's error, which names the database's address), and the cause
 * is in the cloud's log. The database here is a PostgreSQL URL where nothing listens: every
 * statement fails to connect, as after the server went away.
 */
import { createServer } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Peer, postForm, restXml, rpcCall, startCloud, type TestCloud } from '../../testing/cloud-kit.ts';
import { messages } from '../core/messages.ts';

let peer: Peer;
let cloud: TestCloud;
let port: number;

/** A loopback port nothing listens on (taken, then given back). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

beforeEach(async () => {
  peer = await new Peer().start();
  peer.route('GET', '/rss.xml', 200, '<rss/>').route('POST', '/cb', 200, 'ok');
  port = await deadPort();
  cloud = await startCloud({ dbPath: `postgres://tidings@127.0.0.1:${port}/gone` });
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

const leaks = (text: string) => text.includes('ECONNREFUSED') || text.includes(`:${port}`);

it('pleaseNotify and ping answer in their own forms, in neutral words, and the log keeps the cause', async () => {
  const feed = `${peer.url}/rss.xml`;
  const reg = await postForm(`${cloud.url}/pleaseNotify`, {
    port: peer.port,
    path: '/cb',
    protocol: 'http-post',
    url1: feed,
  });
  expect(reg.status).toBe(200);
  expect(reg.text).toBe(restXml('notifyResult', false, messages.unavailable));

  const ping = await postForm(`${cloud.url}/ping`, { url: feed });
  expect(ping.status).toBe(200);
  expect(ping.text).toBe(restXml('result', false, messages.unavailable));
  const json = await postForm(`${cloud.url}/ping`, { url: feed }, 'application/json');
  expect(JSON.parse(json.text)).toEqual({ success: false, msg: messages.unavailable });

  for (const [method, params] of [
    ['rssCloud.pleaseNotify', ['', peer.port, '/cb', 'http-post', [feed]]],
    ['rssCloud.ping', [feed]],
  ] as const) {
    const rpc = await rpcCall(`${cloud.url}/RPC2`, method, [...params]);
    expect(rpc.answer).toEqual({ kind: 'fault', faultCode: 4, faultString: messages.unavailable });
  }
  const weblog = await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.extendedPing', [
    'Site',
    peer.url,
    peer.url,
    feed,
  ]);
  expect(weblog.answer).toEqual({
    kind: 'value',
    value: { flerror: true, message: messages.unavailable },
  });
  const hub = await postForm(`${cloud.url}/websub`, {
    'hub.mode': 'subscribe',
    'hub.callback': `${peer.url}/cb`,
    'hub.topic': feed,
  });
  expect(hub.status).toBe(503);
  expect(hub.text).toBe(messages.unavailable);

  for (const text of [reg.text, ping.text, json.text, hub.text]) expect(leaks(text)).toBe(false);
  const causes = cloud.cloud.recentLog().filter((e) => e.kind === 'error');
  expect(causes.length).toBeGreaterThanOrEqual(6);
  expect(causes.every((e) => e.detail?.includes('ECONNREFUSED'))).toBe(true);
});
