import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import type { RunningServer } from '../net/serve.ts';
import { freePort } from '../net/test-server.ts';
import type { ActivityInput } from '../store/realtime.ts';
import {
  type RealCloud,
  type ScriptedCloud,
  startRealCloud,
  startScriptedCloud,
  xmlAnswer,
} from '../testing/clouds.ts';
import { type FeedHost, rssFeed, startFeedHost } from '../testing/feed-host.ts';
import { waitFor } from '../testing/wait.ts';
import { encodeFault, encodeMethodResponse } from '../wire/xmlrpc.ts';
import { createReceiver, type Receiver } from './receiver.ts';
import { startReceiverServer } from './receiver-server.ts';
import {
  type Callback,
  callbackProtocol,
  cloudEndpoint,
  parseRestAnswer,
  requestNotification,
  SOAP_MESSAGE,
} from './subscriber.ts';

const SUBSCRIBED_MSG =
  "Thanks for the registration. It worked. When the resource updates we'll notify you. Don't forget to re-register after 24 hours, your subscription will expire in 25. Keep on truckin!";

let http: HttpClient;
let feeds: FeedHost;
let cloud: RealCloud;
let receiver: Receiver;
let receiverServer: RunningServer;
const inbox: string[] = [];
const calls: ActivityInput[] = [];
let feedUrl: string;

beforeAll(async () => {
  http = createHttpClient({ hostPolicy: { allowLoopback: true } });
  feeds = await startFeedHost();
  feedUrl = `${feeds.url}/feed.xml`;
  feeds.set('/feed.xml', rssFeed('Cloudy', [{ title: 'One', guid: '1' }]));
  cloud = await startRealCloud();
  receiver = createReceiver({
    token: 'subscriber-test-token-0001',
    isSubscribed: (url) => url === feedUrl,
    onNotify: (url) => {
      inbox.push(url);
      return undefined;
    },
    log: (e) => calls.push(e),
  });
  receiverServer = await startReceiverServer({ receiver });
});

afterAll(async () => {
  await receiverServer.close();
  await cloud.close();
  await feeds.close();
  http.close();
});

const direct = (host: string | null = '127.0.0.1'): Callback => ({
  scheme: 'http',
  host,
  port: receiverServer.port,
  path: receiver.path,
});
const opts = { notifyProcedure: 'tidings.notify' };

describe('requestNotification against the real cloud', () => {
  const cases: {
    name: string;
    protocol: 'http-post' | 'xml-rpc';
    host: string | null;
    verify: string;
    notify: string;
  }[] = [
    {
      name: 'http-post with domain',
      protocol: 'http-post',
      host: '127.0.0.1',
      verify: 'challenge',
      notify: 'notify',
    },
    {
      name: 'http-post without domain',
      protocol: 'http-post',
      host: null,
      verify: 'notify',
      notify: 'notify',
    },
    {
      name: 'xml-rpc with domain',
      protocol: 'xml-rpc',
      host: '127.0.0.1',
      verify: 'tidings.notify',
      notify: 'tidings.notify',
    },
    {
      name: 'xml-rpc without domain',
      protocol: 'xml-rpc',
      host: null,
      verify: 'tidings.notify',
      notify: 'tidings.notify',
    },
  ];
  for (const c of cases) {
    it(`subscribes via ${c.name}, is verified, then notified on a change`, async () => {
      calls.length = 0;
      inbox.length = 0;
      const result = await requestNotification(
        http,
        cloud.element(c.protocol),
        feedUrl,
        direct(c.host),
        opts,
      );
      expect(result).toMatchObject({ ok: true, protocol: c.protocol, unsupported: false });
      expect(result.message).toBe(
        c.protocol === 'xml-rpc' ? 'The cloud accepted the request.' : SUBSCRIBED_MSG,
      );
      expect(result.procedure).toBe(c.protocol === 'xml-rpc' ? 'rssCloud.pleaseNotify' : 'pleaseNotify');
      expect(result.latencyMs).toBeGreaterThanOrEqual(0);
      // The cloud verified us before answering.
      expect(calls.map((e) => [e.procedure, e.ok])).toEqual([[c.verify, true]]);
      inbox.length = 0;

      // The writer changes the feed and pings: the cloud notifies us, in the form we asked for.
      feeds.set('/feed.xml', rssFeed('Cloudy', [{ title: `New ${c.name}`, guid: c.name }]));
      expect(await cloud.ping(feedUrl)).toContain('Thanks for the ping.');
      await waitFor(() => inbox.length > 0);
      expect(inbox).toEqual([feedUrl]);
      expect(calls.at(-1)).toMatchObject({ procedure: c.notify, ok: true, result: 'fetch queued' });
    });
  }

  it("keeps the cloud's reason when it cannot read the feed", async () => {
    const missing = `${feeds.url}/missing.xml`;
    const result = await requestNotification(http, cloud.element('http-post'), missing, direct(), opts);
    expect(result.ok).toBe(false);
    expect(result.message).toBe(
      `The subscription was cancelled because there was an error reading the resource at URL ${missing}.`,
    );
    const rpc = await requestNotification(http, cloud.element('xml-rpc'), missing, direct(), opts);
    expect(rpc).toMatchObject({ ok: false, message: result.message });
  });

  it('fails with the reference message when our receiver does not vouch for the feed', async () => {
    const other = `${feeds.url}/other.xml`;
    feeds.set('/other.xml', rssFeed('Other', []));
    const result = await requestNotification(http, cloud.element('http-post'), other, direct(), opts);
    expect(result).toMatchObject({
      ok: false,
      message: 'The subscription was cancelled because the call failed when we tested the handler.',
    });
  });
});

describe('requestNotification, the forms a scripted cloud answers', () => {
  let scripted: ScriptedCloud;
  beforeAll(async () => {
    scripted = await startScriptedCloud(() => xmlAnswer(true, 'ok'));
  });
  afterAll(() => scripted.close());

  const callback: Callback = { scheme: 'https', host: 'abc.loca.lt', port: 443, path: '/rsscloud/t/notify' };

  it('sends the REST form in the documented order, with domain, https-post for an https callback', async () => {
    scripted.answer(() => xmlAnswer(true, 'Registered & verified'));
    const result = await requestNotification(
      http,
      scripted.element('http-post'),
      'http://f.example/a?x=1&y=2',
      callback,
      opts,
    );
    expect(result).toMatchObject({ ok: true, message: 'Registered & verified' });
    const req = scripted.requests.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/pleaseNotify');
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(req.accept).toMatch(/^text\/xml/);
    expect(req.body).toBe(
      'notifyProcedure=&port=443&path=%2Frsscloud%2Ft%2Fnotify&protocol=https-post&url1=http%3A%2F%2Ff.example%2Fa%3Fx%3D1%26y%3D2&domain=abc.loca.lt',
    );
  });

  it('names our notify procedure only when it asks for xml-rpc callbacks', async () => {
    scripted.answer(() => xmlAnswer(true, 'ok'));
    const http80: Callback = { scheme: 'http', host: 'me.example', port: 80, path: '/n' };
    await requestNotification(http, scripted.element('http-post'), 'http://f/a', http80, opts);
    expect(new URLSearchParams(scripted.requests.at(-1)!.body).get('notifyProcedure')).toBe('');
    expect(new URLSearchParams(scripted.requests.at(-1)!.body).get('protocol')).toBe('http-post');

    scripted.answer(
      () => new Response(encodeMethodResponse(true), { headers: { 'content-type': 'text/xml' } }),
    );
    const rpc = await requestNotification(http, scripted.element('xml-rpc'), 'http://f/a', http80, opts);
    expect(rpc.ok).toBe(true);
    const body = scripted.requests.at(-1)!.body;
    expect(body).toContain('<methodName>rssCloud.pleaseNotify</methodName>');
    expect(body).toContain('<string>tidings.notify</string>');
    expect(body).toContain('<i4>80</i4>');
    expect(body).toContain('<string>xml-rpc</string>');
    expect(body).toContain('<array><data><value><string>http://f/a</string></value></data></array>');
    expect(body).toContain('<string>me.example</string>');

    // An https callback over XML-RPC asks for https-post (and so no procedure), without domain 5 params.
    await requestNotification(
      http,
      scripted.element('xml-rpc'),
      'http://f/a',
      { ...callback, host: null },
      opts,
    );
    const https = scripted.requests.at(-1)!.body;
    expect(https).toContain('<string>https-post</string>');
    expect(https.match(/<param>/g)).toHaveLength(5);
    expect(https).toContain('<param><value><string></string></value></param>');
  });

  interface Answer {
    name: string;
    reply: () => Response;
    ok: boolean;
    message: string | RegExp;
  }
  /** One test an answer: the cloud's reply to a request over `protocol` reads as `ok`, saying `message`. */
  function readsEach(protocol: 'http-post' | 'xml-rpc', prefix: string, list: Answer[]): void {
    for (const a of list) {
      it(`reads ${prefix}${a.name}`, async () => {
        scripted.answer(a.reply);
        const result = await requestNotification(
          http,
          scripted.element(protocol),
          'http://f/a',
          callback,
          opts,
        );
        expect(result.ok).toBe(a.ok);
        if (typeof a.message === 'string') expect(result.message).toBe(a.message);
        else expect(result.message).toMatch(a.message);
      });
    }
  }

  const answers: Answer[] = [
    {
      name: 'a JSON success',
      reply: () => Response.json({ success: true, msg: 'Thanks (JSON)' }),
      ok: true,
      message: 'Thanks (JSON)',
    },
    {
      name: 'a JSON refusal',
      reply: () => Response.json({ success: false, msg: 'Nope.' }),
      ok: false,
      message: 'Nope.',
    },
    {
      name: 'an XML refusal with markup in its message',
      reply: () =>
        xmlAnswer(false, "Can't accept the subscription because the protocol, <i>soap</i>, is unsupported."),
      ok: false,
      message: "Can't accept the subscription because the protocol, <i>soap</i>, is unsupported.",
    },
    {
      name: 'an XML answer with single quotes and a BOM',
      reply: () => new Response("\uFEFF<?xml version='1.0'?><notifyResult success='TRUE' msg='fine'/>"),
      ok: true,
      message: 'fine',
    },
    {
      name: 'HTTP 500',
      reply: () => new Response('boom', { status: 500 }),
      ok: false,
      message: 'The cloud answered HTTP 500.',
    },
    {
      name: 'an unreadable body',
      reply: () => new Response('<html>hello</html>'),
      ok: false,
      message: /could not be read: "<html>hello<\/html>"/,
    },
    {
      name: 'a DOCTYPE',
      reply: () => new Response('<!DOCTYPE x [<!ENTITY e "x">]><notifyResult success="true" msg="&e;"/>'),
      ok: false,
      message: /could not be read/,
    },
  ];
  readsEach('http-post', '', answers);

  const rpcAnswers: Answer[] = [
    {
      name: 'a fault',
      reply: () =>
        new Response(encodeFault(4, 'Can\'t call "pleaseNotify" because there aren\'t enough parameters.')),
      ok: false,
      message: 'Can\'t call "pleaseNotify" because there aren\'t enough parameters.',
    },
    {
      name: 'boolean false',
      reply: () => new Response(encodeMethodResponse(false)),
      ok: false,
      message: /answered false/,
    },
    { name: 'not XML-RPC', reply: () => new Response('hello'), ok: false, message: /could not be read/ },
    {
      name: 'HTTP 404',
      reply: () => new Response('', { status: 404 }),
      ok: false,
      message: 'The cloud answered HTTP 404.',
    },
  ];
  readsEach('xml-rpc', 'an XML-RPC ', rpcAnswers);

  it('sends nothing for soap or an unknown protocol, and says why', async () => {
    const before = scripted.requests.length;
    const soap = await requestNotification(http, scripted.element('SOAP'), 'http://f/a', callback, opts);
    expect(soap).toMatchObject({ ok: false, unsupported: true, message: SOAP_MESSAGE, endpoint: '' });
    const odd = await requestNotification(
      http,
      scripted.element('carrier-pigeon'),
      'http://f/a',
      callback,
      opts,
    );
    expect(odd).toMatchObject({ ok: false, unsupported: true });
    expect(odd.message).toMatch(/"carrier-pigeon", which rssCloud does not define/);
    expect(scripted.requests.length).toBe(before);
  });

  it('reports an unreachable cloud as a readable failure (retryable, not unsupported)', async () => {
    const port = await freePort();
    const element = {
      domain: '127.0.0.1',
      port,
      path: '/pleaseNotify',
      registerProcedure: '',
      protocol: 'http-post',
    };
    const result = await requestNotification(http, element, 'http://f/a', callback, opts);
    expect(result.ok).toBe(false);
    expect(result.unsupported).toBe(false);
    expect(result.message.length).toBeGreaterThan(10);
  });
});

describe('cloudEndpoint and callbackProtocol', () => {
  const el = (over: object) => ({
    domain: 'rpc.rsscloud.io',
    port: 5337,
    path: '/pleaseNotify',
    registerProcedure: '',
    protocol: 'http-post',
    ...over,
  });
  const table: [object, string | null][] = [
    [{}, 'http://rpc.rsscloud.io:5337/pleaseNotify'],
    [{ protocol: 'HTTP-POST' }, 'http://rpc.rsscloud.io:5337/pleaseNotify'],
    [{ protocol: 'https-post', port: 443 }, 'https://rpc.rsscloud.io/pleaseNotify'],
    [{ protocol: 'https-post', port: 8443 }, 'https://rpc.rsscloud.io:8443/pleaseNotify'],
    [{ port: 443 }, 'https://rpc.rsscloud.io/pleaseNotify'],
    [{ protocol: 'xml-rpc', port: 443, path: '/RPC2' }, 'https://rpc.rsscloud.io/RPC2'],
    [{ protocol: 'xml-rpc', port: 80, path: 'RPC2' }, 'http://rpc.rsscloud.io/RPC2'],
    [{ domain: '::1', port: 5337 }, 'http://[::1]:5337/pleaseNotify'],
    [{ domain: '' }, null],
    [{ port: 0 }, null],
    [{ port: 70000 }, null],
    [{ domain: 'bad host' }, null],
    [{ protocol: 'soap' }, null],
  ];
  for (const [over, expected] of table) {
    it(`${JSON.stringify(over)} -> ${expected}`, () => {
      const r = cloudEndpoint(el(over));
      if (expected === null) expect(r.ok).toBe(false);
      else expect(r).toMatchObject({ ok: true, url: expected });
    });
  }

  it('asks https-post for https callbacks, else mirrors xml-rpc or http-post', () => {
    const cb = (scheme: 'http' | 'https'): Callback => ({ scheme, host: 'h', port: 1, path: '/' });
    expect(callbackProtocol('http-post', cb('https'))).toBe('https-post');
    expect(callbackProtocol('xml-rpc', cb('https'))).toBe('https-post');
    expect(callbackProtocol('xml-rpc', cb('http'))).toBe('xml-rpc');
    expect(callbackProtocol('https-post', cb('http'))).toBe('http-post');
  });

  it('parseRestAnswer reads both forms and nothing else', () => {
    expect(parseRestAnswer('<notifyResult success="true" msg="a &amp; b"/>')).toEqual({
      success: true,
      msg: 'a & b',
    });
    expect(parseRestAnswer('{"success":"false","msg":"x"}')).toEqual({ success: false, msg: 'x' });
    expect(parseRestAnswer('<result msg="no success attribute"/>')).toBeNull();
    expect(parseRestAnswer('{"msg":"x"}')).toBeNull();
    expect(parseRestAnswer('')).toBeNull();
    expect(parseRestAnswer('OK')).toBeNull();
  });
});
