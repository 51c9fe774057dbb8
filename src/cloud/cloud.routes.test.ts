/**
 * Routes as peers reach them: a trailing slash is the same route (the reference's Express routing
 * is not strict), a page answers another method with 405 naming what it allows, and an unknown
 * XML-RPC method is named back cut short, not echoed whole.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Peer, postForm, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import { encodeMethodCall } from '../wire/xmlrpc.ts';
import { messages } from './core/messages.ts';

let peer: Peer;
let cloud: TestCloud;

beforeEach(async () => {
  peer = await new Peer().start();
  cloud = await startCloud();
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

it('POST /websub/ is the hub, as POST /websub; /ping/ and /RPC2/ too', async () => {
  peer.route('GET', '/feed.xml', 200, '<rss>v1</rss>');
  peer.route('GET', '/cb', 200, (r) => r.query['hub.challenge'] ?? '');
  const res = await postForm(`${cloud.url}/websub/`, {
    'hub.mode': 'subscribe',
    'hub.callback': `${peer.url}/cb`,
    'hub.topic': `${peer.url}/feed.xml`,
  });
  expect(res.status).toBe(202);
  await cloud.cloud.idle();
  expect(await cloud.cloud.store.getSubscription(`${peer.url}/feed.xml`, `${peer.url}/cb`)).toMatchObject({
    state: 'active',
  });
  const ping = await postForm(`${cloud.url}/ping/`, { url: `${peer.url}/feed.xml` }, 'application/json');
  expect(JSON.parse(ping.text)).toEqual({ success: true, msg: messages.pinged });
  expect((await rpcCall(`${cloud.url}/RPC2/`, 'rssCloud.hello', [])).answer).toEqual({
    kind: 'value',
    value: true,
  });
});

it('POST to a page is 405 with Allow, not 404; an unknown path stays 404', async () => {
  for (const path of ['/pingSiteForm', '/changes.xml', '/docs/websub', '/viewLog']) {
    const res = await fetch(`${cloud.url}${path}`, { method: 'POST', body: 'name=a&url=b' });
    expect([path, res.status, res.headers.get('allow')]).toEqual([path, 405, 'GET, HEAD']);
  }
  expect((await fetch(`${cloud.url}/nothing-here`, { method: 'POST', body: '' })).status).toBe(404);
});

it('an unknown XML-RPC method of a megabyte is named back cut to 100 characters', async () => {
  const name = `x${'y'.repeat(1024 * 1024 - 200)}`;
  const res = await fetch(`${cloud.url}/RPC2`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: encodeMethodCall(name, []),
  });
  const text = await res.text();
  expect(text.length).toBeLessThan(1000);
  expect(text).toContain(messages.notDefined(`${name.slice(0, 100)}...`));
  expect(JSON.stringify(cloud.cloud.recentLog()).length).toBeLessThan(10_000);
});
