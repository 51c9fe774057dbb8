/**
 * rssCloud.saveRss (2009 walkthrough): an operator-made account saves its feed; the cloud serves
 * it politely at a stable URL and notifies its subscribers. Every failure is a fault and saves
 * nothing.
 */
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Peer, postForm, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import { xmlRpcTyped } from '../wire/xmlrpc.ts';
import { addAccount } from './core/accounts.ts';
import { messages } from './core/messages.ts';

const rss = (title: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>http://example.com/</link>` +
  `<description>d</description><item><title>One</title><guid>1</guid></item></channel></rss>`;

let peer: Peer;
let cloud: TestCloud;

beforeEach(async () => {
  peer = await new Peer().start();
  cloud = await startCloud();
  await addAccount(cloud.cloud.store, 'alice', 'correct horse', cloud.clock.now());
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

const save = (user: string, password: string, text: unknown) =>
  rpcCall(`${cloud.url}/RPC2`, 'rssCloud.saveRss', [user, password, text as string]);

function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = http.request(url, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('rssCloud.saveRss', () => {
  it('saves a feed and returns its public URL, served with ETag, Last-Modified and gzip', async () => {
    const res = await save('alice', 'correct horse', rss('First'));
    const url = `${cloud.url}/feeds/alice.xml`;
    expect(res.answer).toEqual({ kind: 'value', value: url });

    const plain = await rawGet(url);
    expect(plain.status).toBe(200);
    expect(plain.body.toString()).toBe(rss('First'));
    expect(plain.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(plain.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(plain.headers['last-modified']).toBe(new Date(cloud.clock.now()).toUTCString());

    const gz = await rawGet(url, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(rss('First'));

    expect((await rawGet(url, { 'if-none-match': plain.headers.etag! })).status).toBe(304);
    expect((await rawGet(url, { 'if-modified-since': plain.headers['last-modified']! })).status).toBe(304);
    expect((await rawGet(url, { 'if-none-match': '"other"' })).status).toBe(200);
    const head = await rawGet(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect((await cloud.cloud.store.counters()).feedsSaved).toBe(1);
  });

  it("notifies the saved feed's subscribers when (and only when) it changes", async () => {
    const url = `${cloud.url}/feeds/alice.xml`;
    await save('alice', 'correct horse', rss('First'));
    peer.route('POST', '/cb', 200, 'ok');
    const reg = await postForm(
      `${cloud.url}/pleaseNotify`,
      { port: peer.port, path: '/cb', protocol: 'http-post', url1: url },
      'application/json',
    );
    expect(JSON.parse(reg.text)).toEqual({ success: true, msg: messages.subscribed });
    expect(peer.hits('POST', '/cb')).toHaveLength(1); // the test notification

    await save('alice', 'correct horse', rss('Second'));
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/cb')).toHaveLength(2);
    expect(peer.hits('POST', '/cb')[1]!.form.url).toBe(url);

    await save('alice', 'correct horse', rss('Second'));
    await cloud.cloud.idle();
    expect(peer.hits('POST', '/cb')).toHaveLength(2);
  });

  it('accepts the feed as a base64 parameter, and a configured public URL', async () => {
    await cloud.close();
    cloud = await startCloud({ publicBaseUrl: 'https://cloud.example.org/', basePath: '/cloud' });
    await addAccount(cloud.cloud.store, 'bob', 'pw', cloud.clock.now());
    const res = await rpcCall(`${cloud.url}/cloud/RPC2`, 'rssCloud.saveRss', [
      'bob',
      'pw',
      xmlRpcTyped('base64', rss('B')),
    ]);
    expect(res.answer).toEqual({ kind: 'value', value: 'https://cloud.example.org/cloud/feeds/bob.xml' });
    expect((await rawGet(`${cloud.url}/cloud/feeds/bob.xml`)).body.toString()).toBe(rss('B'));
  });

  it.each([
    ['a wrong password', 'alice', 'wrong', rss('X'), messages.saveRssBadLogin],
    ['an unknown user', 'mallory', 'correct horse', rss('X'), messages.saveRssBadLogin],
    ['an empty password', 'alice', '', rss('X'), messages.saveRssBadLogin],
  ])('refuses %s with a fault and saves nothing', async (_label, user, password, text, msg) => {
    const res = await save(user, password, text);
    expect(res.answer).toEqual({ kind: 'fault', faultCode: 4, faultString: msg });
    expect(await cloud.cloud.store.savedFeedByName('alice')).toBeUndefined();
    expect((await rawGet(`${cloud.url}/feeds/alice.xml`)).status).toBe(404);
  });

  it.each([
    ['plain text', 'hello, world'],
    ['an HTML page', '<!doctype html><html><body><p>hi</p></body></html>'],
    ['broken XML', '<rss version="2.0"><channel><title>x</channel>'],
    ['nothing', ''],
  ])('refuses %s as not a feed, and keeps the previous version', async (_label, text) => {
    await save('alice', 'correct horse', rss('Kept'));
    const res = await save('alice', 'correct horse', text);
    expect(res.answer.kind).toBe('fault');
    if (res.answer.kind === 'fault') {
      expect(res.answer.faultCode).toBe(4);
      expect(res.answer.faultString).toMatch(/^Can't save the feed because it is not an RSS or Atom feed: /);
    }
    expect((await rawGet(`${cloud.url}/feeds/alice.xml`)).body.toString()).toBe(rss('Kept'));
  });

  it('refuses the wrong number of parameters', async () => {
    const res = await rpcCall(`${cloud.url}/RPC2`, 'rssCloud.saveRss', ['alice', 'correct horse']);
    expect(res.answer).toEqual({
      kind: 'fault',
      faultCode: 4,
      faultString: messages.notEnoughParams('saveRss'),
    });
  });

  it('never logs the password', async () => {
    await save('alice', 'correct horse', rss('X'));
    await save('alice', 'wrong horse', rss('X'));
    expect(JSON.stringify(cloud.cloud.recentLog())).not.toMatch(/horse/);
  });
});
