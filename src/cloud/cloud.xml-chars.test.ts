/**
 * Public documents stay well-formed (issue 31): a character XML 1.0 cannot hold (U+0001, `&#1;`)
 * sent through any door is refused or dropped, and never reaches /changes.xml, an answer, a page
 * or a saved feed, where it made the document unreadable for every reader of it.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Peer, postForm, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import { readXml } from '../wire/xml-tree.ts';
import { addAccount } from './core/accounts.ts';

let peer: Peer;
let cloud: TestCloud;

const FEED = '<rss version="2.0"><channel><title>t</title><link>http://a.test/</link></channel></rss>';
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

beforeEach(async () => {
  peer = await new Peer().start();
  let n = 0;
  peer.route('GET', '/feed.xml', 200, () => FEED.replace('<title>t', `<title>t${n++}`));
  peer.route('GET', '/site', 200, {
    body: `<html><head><link rel="alternate" type="application/rss+xml" href="${'/feed.xml'}"></head></html>`,
    headers: { 'content-type': 'text/html' },
  });
  cloud = await startCloud();
  await cloud.cloud.idle(); // the start-up sweep done
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

/** The document is well-formed XML 1.0 (strict parser), and its text. */
async function wellFormed(path: string): Promise<string> {
  const text = await (await fetch(`${cloud.url}${path}`)).text();
  const read = readXml(text, { maxDepth: 64 });
  expect(read.ok ? 'well-formed' : read.problem).toBe('well-formed');
  return text;
}

it('a site named with U+0001 through /pingSiteForm is listed in changes.xml without it', async () => {
  const q = new URLSearchParams({ name: 'Evil\u0001\u0008 site', url: `${peer.url}/site` });
  const res = await fetch(`${cloud.url}/pingSiteForm?${q}`);
  expect(res.status).toBe(200);
  expect(await res.text()).not.toMatch(CONTROL);
  await cloud.cloud.idle();
  const xml = await wellFormed('/changes.xml');
  expect(xml).toContain('name="Evil site"');
});

it('&#1; in a weblogUpdates ping is refused as not well-formed; changes.xml stays readable', async () => {
  const body = `<?xml version="1.0"?><methodCall><methodName>weblogUpdates.extendedPing</methodName><params>
<param><value>Evil&#1; site</value></param><param><value>${peer.url}/site</value></param>
<param><value>${peer.url}/site</value></param><param><value>${peer.url}/feed.xml</value></param></params></methodCall>`;
  const res = await fetch(`${cloud.url}/RPC2`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body,
  });
  const answer = await res.text();
  expect(answer).toMatch(/<name>faultString<\/name><value><string>Bad XML-RPC message, not well-formed XML/);
  // A well-formed ping is listed as usual.
  await rpcCall(`${cloud.url}/RPC2`, 'weblogUpdates.extendedPing', [
    'Good site',
    `${peer.url}/site`,
    '',
    `${peer.url}/feed.xml`,
  ]);
  await cloud.cloud.idle();
  expect(await wellFormed('/changes.xml')).toContain('name="Good site"');
});

it('REST and WebSub fields, RSS Ping names, and saveRss feeds lose what XML cannot hold', async () => {
  // A REST ping of a URL with U+0001: the answer is readable XML, and so is the log.
  const ping = await postForm(`${cloud.url}/ping`, { url: `${peer.url}/feed.xml\u0001` });
  expect(readXml(ping.text, { maxDepth: 8 }).ok).toBe(true);
  const hub = await postForm(`${cloud.url}/websub`, { 'hub.mode': 'bogus\u0001' });
  expect([hub.status, hub.text]).toEqual([
    400,
    'hub.mode "bogus" is not supported (subscribe, unsubscribe or publish).',
  ]);

  const rssPing = await fetch(`${cloud.url}/rssPing`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: `<rss_ping version="2"><site_name>Evil&#1;</site_name><feed_uri>${peer.url}/feed.xml</feed_uri></rss_ping>`,
  });
  expect(rssPing.status).toBe(400);
  expect(await rssPing.text()).toMatch(/not a well-formed RSS Ping document/);

  await addAccount(cloud.cloud.store, 'alice', 'pw', cloud.clock.now());
  const saved = await rpcCall(`${cloud.url}/RPC2`, 'rssCloud.saveRss', [
    'alice',
    'pw',
    // U+0001 as a reference only: raw, it could not be sent over XML-RPC at all.
    '<rss version="2.0"><channel><title>Mine&#1;&#x8; &#65;&#xe9;</title></channel></rss>',
  ]);
  expect(saved.answer.kind).toBe('value');
  const feed = await wellFormed('/feeds/alice.xml');
  expect(feed).toContain('<title>Mine &#65;&#xe9;</title>');

  await cloud.cloud.idle();
  await wellFormed('/changes.xml');
  for (const page of ['/', '/viewLog'])
    expect(await (await fetch(`${cloud.url}${page}`)).text()).not.toMatch(CONTROL);
});
