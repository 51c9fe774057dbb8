/**
 * The older ping doors land in the same routine as /ping: weblogUpdates over XML-RPC and the
 * HTTP GET form, RSS Ping v2 with a payload checked against its published hash (good and forged),
 * and changes.xml. Real servers on loopback; the RSS Ping documents are the ones Tidings' writer
 * sends (src/publish/pings.ts) and one written by hand in the other form (MD5, hash as text).
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../common/clock.ts';
import { rssPingDocument, sha1Hex } from '../../publish/pings.ts';
import { Peer, rpcCall, startCloud, type TestCloud } from '../../testing/cloud-kit.ts';

let peer: Peer;
let cloud: TestCloud;
let feed: string;
let version = 0;

const FEED = (n: number) =>
  `<rss version="2.0"><channel><title>Site</title><item><guid>${n}</guid></item></channel></rss>`;
const HOME =
  '<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>hi</body></html>';

beforeEach(async () => {
  peer = await new Peer().start();
  feed = `${peer.url}/feed.xml`;
  peer.route('GET', '/feed.xml', 200, () => FEED(version));
  peer.route('GET', '/', 200, { body: HOME, headers: { 'content-type': 'text/html' } });
  peer.route('POST', '/cb', 200, 'ok');
  cloud = await startCloud();
  // One rssCloud subscriber, so every door's effect shows as a notification.
  const reg = await fetch(`${cloud.url}/pleaseNotify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ port: String(peer.port), path: '/cb', protocol: 'http-post', url1: feed }),
  });
  expect(await reg.text()).toMatch(/success="true"/);
  version++;
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

/** Notifications of the feed's change (the registration's test call excluded). */
const notified = () => peer.hits('POST', '/cb').length - 1;

describe('weblogUpdates', () => {
  it('ping(name, site) finds the feed from the home page and notifies its subscribers', async () => {
    const { answer } = await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.ping', ['My site', `${peer.url}/`]);
    expect(answer).toEqual({ kind: 'value', value: { flerror: false, message: 'Thanks for the ping.' } });
    await cloud.cloud.idle();
    expect(notified()).toBe(1);
    expect(await cloud.cloud.store.getResource(feed)).toMatchObject({
      siteName: 'My site',
      siteUrl: `${peer.url}/`,
    });
  });

  it('extendedPing(name, home, changed, feed, tags) reads the feed named, not the home page', async () => {
    const before = peer.hits('GET', '/').length;
    const { answer } = await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.extendedPing', [
      'My site',
      `${peer.url}/`,
      `${peer.url}/post/1`,
      feed,
      'a|b',
    ]);
    expect(answer).toEqual({ kind: 'value', value: { flerror: false, message: 'Thanks for the ping.' } });
    await cloud.cloud.idle();
    expect(notified()).toBe(1);
    expect(peer.hits('GET', '/').length).toBe(before);
  });

  it('answers flerror true with a reason for missing parameters or a site without a feed', async () => {
    const missing = await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.ping', ['only a name']);
    expect(missing.answer).toMatchObject({ kind: 'value', value: { flerror: true } });
    // A site with no feed anywhere (discovery also tries the usual paths, /feed.xml among them).
    const bare = await new Peer().start();
    bare.route('GET', '/', 200, {
      body: '<html><head></head></html>',
      headers: { 'content-type': 'text/html' },
    });
    const none = await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.ping', ['x', `${bare.url}/`]);
    await bare.close();
    expect(none.answer).toMatchObject({
      kind: 'value',
      value: { flerror: true, message: expect.stringMatching(/No feed found/) },
    });
    await cloud.cloud.idle();
    expect(notified()).toBe(0);
  });

  it('GET /pingSiteForm?name=&url= pings and answers an HTML page; without parameters, the form', async () => {
    const form = await fetch(`${cloud.url}/pingSiteForm`);
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/<form method="get"/);
    const res = await fetch(
      `${cloud.url}/pingSiteForm?${new URLSearchParams({ name: 'My site', url: `${peer.url}/` })}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/Thanks for the ping\./);
    await cloud.cloud.idle();
    expect(notified()).toBe(1);
    const bad = await fetch(`${cloud.url}/pingSiteForm?name=x&url=not-a-url`);
    expect(bad.status).toBe(400);
  });
});

describe('RSS Ping v2', () => {
  const site = () => ({ name: 'My site', siteUrl: `${peer.url}/`, feedUrl: feed, tags: [] });
  const payload = '<item><title>Hello</title><guid>tag:x,2026:1</guid></item>';
  const send = (doc: string) =>
    fetch(`${cloud.url}/rssPing`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: doc,
    });

  it('checks a payload against what payload_hash_uri publishes, then treats the feed as published', async () => {
    peer.route('GET', '/payload.xml', 200, payload); // Tidings' writer publishes the payload itself
    const res = await send(rssPingDocument(site(), payload, `${peer.url}/payload.xml`));
    expect(res.status).toBe(200);
    await cloud.cloud.idle();
    expect(notified()).toBe(1);
    expect(peer.hits('GET', '/payload.xml')).toHaveLength(1);

    // The other form: MD5, the hash itself published as text.
    const md5 = createHash('md5').update(payload).digest('hex');
    peer.route('GET', '/hash.txt', 200, `${md5}\n`);
    version++;
    const doc = `<rss_ping version="2"><site_name>My site</site_name><site_uri>${peer.url}/</site_uri>
<feed_uri type="RSS 2.0">${feed}</feed_uri><payload_hash type="MD5">${md5}</payload_hash>
<payload_hash_uri>${peer.url}/hash.txt</payload_hash_uri><payload type="RSS 2.0 fragment"><![CDATA[${payload}]]></payload></rss_ping>`;
    expect((await send(doc)).status).toBe(200);
    await cloud.cloud.idle();
    expect(notified()).toBe(2);
  });

  it('refuses a forged payload (403) and reads nothing', async () => {
    peer.route('GET', '/payload.xml', 200, '<item><title>What was really published</title></item>');
    const reads = peer.hits('GET', '/feed.xml').length;
    const forged = await send(rssPingDocument(site(), payload, `${peer.url}/payload.xml`));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toMatch(/not trusted/);
    // A payload whose declared hash is not its own.
    const lying = rssPingDocument(site(), payload, null).replace(sha1Hex(payload), sha1Hex('something else'));
    expect((await send(lying)).status).toBe(403);
    await cloud.cloud.idle();
    expect(peer.hits('GET', '/feed.xml')).toHaveLength(reads);
    expect(notified()).toBe(0);
  });

  it('answers 400 for what is not an RSS Ping v2 document', async () => {
    expect((await send('<rss version="2.0"/>')).status).toBe(400);
    expect((await send('<rss_ping version="2"><site_name>x</site_name></rss_ping>')).status).toBe(400);
    expect((await send('<rss_ping version="3"><feed_uri>http://x.test/f</feed_uri></rss_ping>')).status).toBe(
      400,
    );
  });
});

describe('changes.xml', () => {
  it('lists the sites changed in the last hour, newest first, in the weblogs.com form', async () => {
    const clock = cloud.clock as ManualClock;
    const other = `${peer.url}/other.xml`;
    peer.route('GET', '/other.xml', 200, () => FEED(version + 100));
    await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.extendedPing', ['Old', `${peer.url}/old`, '', other]);
    clock.advance(30 * 60_000);
    await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.extendedPing', [
      'New & shiny',
      `${peer.url}/`,
      '',
      feed,
    ]);
    clock.advance(10_000);
    let xml = await (await fetch(`${cloud.url}/changes.xml`)).text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\n<weblogUpdates version="2" updated="[^"]+ GMT" count="2">/,
    );
    const weblogs = [
      ...xml.matchAll(/<weblog name="([^"]*)" url="([^"]*)" rssUrl="([^"]*)" when="(\d+)"\/>/g),
    ];
    expect(weblogs.map((m) => [m[1], m[3], m[4]])).toEqual([
      ['New &amp; shiny', feed, '10'],
      ['Old', other, '1810'],
    ]);
    clock.advance(50 * 60_000); // the newer one is now 50 min 10 s old, the older 80 min
    xml = await (await fetch(`${cloud.url}/changes.xml`)).text();
    expect(xml).toMatch(/count="1"/);
    expect(xml).not.toMatch(/Old/);
    clock.advance(10 * 60_000);
    xml = await (await fetch(`${cloud.url}/changes.xml`)).text();
    expect(xml).toMatch(/count="0"/);
  });
});
