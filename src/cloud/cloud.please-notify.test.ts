/**
 * The reference cloud's own pleaseNotify test list (rsscloud-server apps/e2e/test/please-notify.js),
 * row by row, against this cloud on loopback: for each callback protocol (http-post, https-post,
 * xml-rpc) and each way of asking (XML-RPC, REST with an XML answer, REST with a JSON answer).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Peer, postForm, restXml, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import type { XmlRpcValue } from '../wire/xmlrpc.ts';
import { messages } from './core/messages.ts';

// The https-post rows need an HTTPS subscriber; its certificate is a self-signed one from
// testdata/. This process (vitest runs each file in its own fork) accepts it.
type Asking = 'XML-RPC' | 'REST-XML' | 'REST-JSON';
const PROTOCOLS = ['http-post', 'https-post', 'xml-rpc'] as const;
const ASKING: Asking[] = ['XML-RPC', 'REST-XML', 'REST-JSON'];

let peer: Peer;
let cloud: TestCloud;

beforeEach(async () => {
  peer = await new Peer().start(true);
  cloud = await startCloud();
});

afterEach(async () => {
  await cloud.close();
  await peer.close();
});

interface Ask {
  protocol: (typeof PROTOCOLS)[number];
  path: string;
  domain?: string;
  notifyProcedure: string | false;
  urls: string[];
}

async function pleaseNotify(asking: Asking, a: Ask) {
  const port = a.protocol === 'https-post' ? peer.securePort : peer.port;
  if (asking === 'XML-RPC') {
    const params: XmlRpcValue[] = [a.notifyProcedure, port, a.path, a.protocol, a.urls];
    if (a.domain) params.push(a.domain);
    return rpcCall(`${cloud.url}/RPC2`, 'rssCloud.pleaseNotify', params);
  }
  const form: Record<string, string | number | boolean> = {
    port,
    path: a.path,
    notifyProcedure: a.notifyProcedure,
    protocol: a.protocol,
  };
  a.urls.forEach((u, i) => {
    form[`url${i + 1}`] = u;
  });
  if (a.domain) form.domain = a.domain;
  return postForm(`${cloud.url}/pleaseNotify`, form, asking === 'REST-JSON' ? 'application/json' : undefined);
}

/** An http-post subscriber on the peer, its callback at `path`, asks for `urls`. */
function askHttpPost(asking: Asking, path: string, urls: string[], domain?: string) {
  return pleaseNotify(asking, {
    protocol: 'http-post',
    path,
    notifyProcedure: false,
    urls,
    ...(domain ? { domain } : {}),
  });
}

/** The answer is exactly the reference cloud's, in the form that was asked for. */
function expectAnswer(
  asking: Asking,
  res: Awaited<ReturnType<typeof pleaseNotify>>,
  success: boolean,
  msg: string,
) {
  expect(res.status).toBe(200);
  if ('answer' in res) {
    if (success) expect(res.answer).toEqual({ kind: 'value', value: true });
    else expect(res.answer).toEqual({ kind: 'fault', faultCode: 4, faultString: msg });
  } else if (asking === 'REST-JSON') {
    expect(res.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({ success, msg });
  } else {
    expect(res.contentType).toMatch(/^text\/xml/);
    expect(res.text).toBe(restXml('notifyResult', success, msg));
  }
}

for (const protocol of PROTOCOLS) {
  for (const asking of ASKING) {
    const rpc = protocol === 'xml-rpc';
    const handlerPath = rpc ? '/RPC2' : '/feedupdated';
    const notifyProcedure = rpc ? 'river.feedUpdated' : false;
    /** Asks this way for `feed`, the callback at `path` with this protocol (a `domain` means a challenge). */
    const ask = (feed: string, path: string, domain?: string) =>
      pleaseNotify(asking, { protocol, path, notifyProcedure, urls: [feed], ...(domain ? { domain } : {}) });
    /** The xml-rpc subscriber got one test call, for `feed`. */
    const expectOneTestCall = (feed: string) => {
      expect(peer.rpcHits('river.feedUpdated')).toHaveLength(1);
      expect(peer.rpcHits('river.feedUpdated')[0]!.rpc!.params[0]).toBe(feed);
    };
    /** The feed at /rss.xml answers `status`; the handler takes the test notification. Returns the feed. */
    const feedAndHandler = (status: number, body: string): string => {
      peer.route('GET', '/rss.xml', status, body);
      peer.route('POST', handlerPath, 200, 'Thanks for the update! :-)');
      peer.rpc('river.feedUpdated', true);
      return `${peer.url}/rss.xml`;
    };

    describe(`pleaseNotify ${asking} to ${protocol}`, () => {
      it('accepts a pleaseNotify for a new resource (with domain: challenge)', async () => {
        const feed = `${peer.url}/rss.xml`;
        peer.route('GET', '/rss.xml', 200, '<RSS Feed />');
        peer.route('GET', handlerPath, 200, (r) => r.query.challenge ?? '');
        peer.rpc('river.feedUpdated', true);

        const res = await ask(feed, handlerPath, '127.0.0.1');
        expectAnswer(asking, res, true, messages.subscribed);

        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        if (rpc) expectOneTestCall(feed);
        else {
          const challenges = peer.hits('GET', handlerPath);
          expect(challenges).toHaveLength(1);
          expect(challenges[0]!.query.url).toBe(feed);
          expect(challenges[0]!.query.challenge).toMatch(/^[A-Za-z0-9]{20}$/);
        }
        const resource = await cloud.cloud.store.getResource(feed);
        expect(resource?.lastHash).toMatch(/^[0-9a-f]{64}$/);
        expect(resource?.lastSize).toBe('<RSS Feed />'.length);
        const scheme = protocol === 'https-post' ? 'https' : 'http';
        const port = protocol === 'https-post' ? peer.securePort : peer.port;
        expect(
          await cloud.cloud.store.getSubscription(feed, `${scheme}://127.0.0.1:${port}${handlerPath}`),
        ).toBeDefined();
      });

      it('accepts a pleaseNotify without domain for a new resource (test notification)', async () => {
        const feed = feedAndHandler(200, '<RSS Feed />');
        const res = await ask(feed, handlerPath);
        expectAnswer(asking, res, true, messages.subscribed);

        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        if (rpc) expectOneTestCall(feed);
        else {
          expect(peer.hits('POST', handlerPath)).toHaveLength(1);
          expect(peer.hits('POST', handlerPath)[0]!.form.url).toBe(feed);
        }
      });

      it('rejects a pleaseNotify for a bad resource', async () => {
        const feed = feedAndHandler(404, 'Not Found');
        const res = await ask(feed, handlerPath);
        expectAnswer(asking, res, false, messages.subscriptionReadResource(feed));

        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(peer.rpcHits('river.feedUpdated')).toHaveLength(0);
        expect(peer.hits('POST', handlerPath)).toHaveLength(0);
        expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(0);
      });

      if (rpc) return; // the reference has no redirect rows for xml-rpc

      it('accepts a pleaseNotify for a redirected subscriber (with domain)', async () => {
        const feed = `${peer.url}/rss.xml`;
        peer.route('GET', '/rss.xml', 200, '<RSS Feed />');
        peer.route('GET', '/redirect', 302, () => ({ location: '/feedupdated' }));
        peer.route('GET', '/feedupdated', 200, (r) => r.query.challenge ?? '');

        const res = await ask(feed, '/redirect', '127.0.0.1');
        expectAnswer(asking, res, true, messages.subscribed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        expect(peer.hits('GET', '/feedupdated')).toHaveLength(1);
      });

      it('accepts a pleaseNotify without domain for a redirected subscriber', async () => {
        const feed = `${peer.url}/rss.xml`;
        peer.route('GET', '/rss.xml', 200, '<RSS Feed />');
        peer.route('POST', '/redirect', 302, () => ({ location: '/feedupdated' }));
        peer.route('POST', '/feedupdated', 200, 'Thanks for the update! :-)');

        const res = await ask(feed, '/redirect');
        expectAnswer(asking, res, true, messages.subscribed);
        expect(peer.hits('GET', '/rss.xml')).toHaveLength(1);
        // The redirect is followed with the same POST and body (as the reference cloud does).
        expect(peer.hits('POST', '/feedupdated')).toHaveLength(1);
        expect(peer.hits('POST', '/feedupdated')[0]!.form.url).toBe(feed);
      });
    });
  }
}

describe('pleaseNotify verification and parameters', () => {
  it.each([
    ['the challenge with a trailing newline', (c: string) => `${c}\n`],
    ['a different string', () => 'nope'],
    ['an empty body', () => ''],
    ['the challenge inside a page', (c: string) => `<p>${c}</p>`],
  ])('refuses a subscriber that answers the challenge with %s', async (_label, echo) => {
    const feed = `${peer.url}/rss.xml`;
    peer.route('GET', '/rss.xml', 200, '<rss/>');
    peer.route('GET', '/cb', 200, (r) => echo(r.query.challenge ?? ''));
    const res = await askHttpPost('REST-JSON', '/cb', [feed], '127.0.0.1');
    expectAnswer('REST-JSON', res, false, messages.failedHandler);
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(0);
  });

  it('refuses a handler that answers the test notification with an error status', async () => {
    peer.route('GET', '/rss.xml', 200, '<rss/>');
    peer.route('POST', '/cb', 500, 'broken');
    const res = await askHttpPost('REST-XML', '/cb', [`${peer.url}/rss.xml`]);
    expectAnswer('REST-XML', res, false, messages.failedHandler);
  });

  it('refuses an xml-rpc handler that answers the test call with a fault', async () => {
    peer.route('GET', '/rss.xml', 200, '<rss/>');
    const res = await pleaseNotify('XML-RPC', {
      protocol: 'xml-rpc',
      path: '/RPC2',
      notifyProcedure: 'river.unknown',
      urls: [`${peer.url}/rss.xml`],
    });
    expectAnswer('XML-RPC', res, false, messages.failedHandler);
  });

  it('follows at most 5 redirects of a callback', async () => {
    peer.route('GET', '/rss.xml', 200, '<rss/>');
    for (let i = 0; i < 7; i++) peer.route('POST', `/r${i}`, 302, () => ({ location: `/r${i + 1}` }));
    peer.route('POST', '/r6', 200, 'ok');
    const six = await askHttpPost('REST-JSON', '/r0', [`${peer.url}/rss.xml`]);
    expectAnswer('REST-JSON', six, false, messages.failedHandler);
    const five = await askHttpPost('REST-JSON', '/r1', [`${peer.url}/rss.xml`]);
    expectAnswer('REST-JSON', five, true, messages.subscribed);
  });

  it('accepts when some of several resources are readable, and subscribes only those', async () => {
    peer.route('GET', '/good.xml', 200, '<rss/>');
    peer.route('GET', '/bad.xml', 404, 'gone');
    peer.route('POST', '/cb', 200, 'ok');
    const res = await askHttpPost('REST-XML', '/cb', [`${peer.url}/good.xml`, `${peer.url}/bad.xml`]);
    expectAnswer('REST-XML', res, true, messages.subscribed);
    expect((await cloud.cloud.store.allSubscriptions()).map((s) => s.feedUrl)).toEqual([
      `${peer.url}/good.xml`,
    ]);
  });

  it.each([
    [{ path: '/cb', protocol: 'http-post', url1: 'x' }, messages.missingParams(['port'])],
    [{ protocol: 'http-post', url1: 'x' }, messages.missingParams(['port', 'path'])],
    [{ url1: 'x' }, messages.missingParams(['port', 'path', 'protocol'])],
    [{ port: 80, path: '/cb', protocol: 'http-post' }, messages.noResources],
    [{ port: 80, path: '/cb', protocol: 'soap', url1: 'x' }, messages.invalidProtocol('soap')],
  ])('REST answers %j with the reference message', async (form, msg) => {
    const xml = await postForm(`${cloud.url}/pleaseNotify`, form);
    expect(xml.text).toBe(restXml('notifyResult', false, msg));
    const json = await postForm(`${cloud.url}/pleaseNotify`, form, 'application/json');
    expect(JSON.parse(json.text)).toEqual({ success: false, msg });
  });

  it.each([
    [['a', 1, '/p', 'http-post'], messages.notEnoughParams('pleaseNotify')],
    [['a', 1, '/p', 'http-post', ['u'], 'd', 'extra'], messages.tooManyParams('pleaseNotify')],
    [['', 1, '/p', 'soap', ['u']], messages.invalidProtocol('soap')],
    [['', 1, '/p', 'http-post', []], messages.noResources],
  ])('XML-RPC answers %j with fault 4 and the reference message', async (params, msg) => {
    const res = await rpcCall(`${cloud.url}/RPC2`, 'rssCloud.pleaseNotify', params as XmlRpcValue[]);
    expect(res.answer).toEqual({ kind: 'fault', faultCode: 4, faultString: msg });
  });

  it('accepts the 2003 name xmlStorageSystem.rssPleaseNotify', async () => {
    peer.route('GET', '/rss.xml', 200, '<rss/>');
    peer.route('POST', '/cb', 200, 'ok');
    const res = await rpcCall(`${cloud.url}/RPC2`, 'xmlStorageSystem.rssPleaseNotify', [
      '',
      peer.port,
      '/cb',
      'http-post',
      [`${peer.url}/rss.xml`],
    ]);
    expect(res.answer).toEqual({ kind: 'value', value: true });
    expect(await cloud.cloud.store.allSubscriptions()).toHaveLength(1);
  });
});
