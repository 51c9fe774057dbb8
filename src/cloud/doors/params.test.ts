import { describe, expect, it } from 'vitest';
import { messages } from '../core/messages.ts';
import { restAnswer, wantsJson } from './answers.ts';
import {
  buildCallbackUrl,
  parseRestPing,
  parseRestPleaseNotify,
  parseRpcPing,
  parseRpcPleaseNotify,
  parseRpcSaveRss,
  sourceAddressOf,
} from './params.ts';

describe("the reference cloud's sentences, word for word (RSSCLOUD.md)", () => {
  it.each([
    [
      messages.missingParams(['port', 'path', 'protocol']),
      'The following parameters were missing from the request body: port, path, protocol.',
    ],
    [messages.missingParams(['url']), 'The following parameters were missing from the request body: url.'],
    [messages.noResources, 'No resources specified.'],
    [
      messages.invalidProtocol('soap'),
      "Can't accept the subscription because the protocol, <i>soap</i>, is unsupported.",
    ],
    [
      messages.subscriptionReadResource('http://a/rss.xml'),
      'The subscription was cancelled because there was an error reading the resource at URL http://a/rss.xml.',
    ],
    [
      messages.failedHandler,
      'The subscription was cancelled because the call failed when we tested the handler.',
    ],
    [
      messages.pingReadResource('http://a/rss.xml'),
      'The ping was cancelled because there was an error reading the resource at URL http://a/rss.xml.',
    ],
    [
      messages.subscribed,
      "Thanks for the registration. It worked. When the resource updates we'll notify you. Don't forget to re-register after 24 hours, your subscription will expire in 25. Keep on truckin!",
    ],
    [messages.pinged, 'Thanks for the ping.'],
    [messages.notEnoughParams('ping'), 'Can\'t call "ping" because there aren\'t enough parameters.'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('REST pleaseNotify', () => {
  const form = (o: Record<string, string>) => new URLSearchParams(o);

  it.each([
    [
      'with domain',
      {
        notifyProcedure: '',
        port: '5337',
        path: '/notify',
        protocol: 'http-post',
        domain: 'reader.example',
        url1: 'http://f/1',
        url2: 'http://f/2',
      },
      {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: 'http://reader.example:5337/notify',
        diffDomain: true,
        urls: ['http://f/1', 'http://f/2'],
      },
    ],
    [
      'without domain: the source address',
      { port: '80', path: 'notify', protocol: 'http-post', url1: 'http://f/1' },
      {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: 'http://192.0.2.7/notify',
        diffDomain: false,
        urls: ['http://f/1'],
      },
    ],
    [
      'https-post means https',
      { port: '8443', path: '/n', protocol: 'https-post', domain: 'r.example', url1: 'http://f/1' },
      {
        protocol: 'https-post',
        notifyProcedure: null,
        callbackUrl: 'https://r.example:8443/n',
        diffDomain: true,
        urls: ['http://f/1'],
      },
    ],
    [
      'port 443 means https',
      { port: '443', path: '/n', protocol: 'http-post', domain: 'r.example', url1: 'http://f/1' },
      {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: 'https://r.example/n',
        diffDomain: true,
        urls: ['http://f/1'],
      },
    ],
    [
      'xml-rpc keeps the procedure; protocol compared case-insensitively',
      {
        notifyProcedure: 'river.feedUpdated',
        port: '5337',
        path: '/RPC2',
        protocol: 'XML-RPC',
        url1: 'http://f/1',
        url1dup: 'http://f/1',
      },
      {
        protocol: 'xml-rpc',
        notifyProcedure: 'river.feedUpdated',
        callbackUrl: 'http://192.0.2.7:5337/RPC2',
        diffDomain: false,
        urls: ['http://f/1'],
      },
    ],
    [
      'an IPv6 source address is bracketed, a mapped IPv4 unwrapped',
      { port: '80', path: '/n', protocol: 'http-post', url: 'http://f/1' },
      {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: 'http://192.0.2.7/n',
        diffDomain: false,
        urls: ['http://f/1'],
      },
    ],
    [
      'a domain with a path smuggled in is no callback',
      { port: '80', path: '/n', protocol: 'http-post', domain: 'evil.example/x?', url1: 'http://f/1' },
      {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: null,
        diffDomain: true,
        urls: ['http://f/1'],
      },
    ],
    [
      'a bad port is no callback',
      { port: '99999', path: '/n', protocol: 'http-post', url1: 'http://f/1' },
      {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: null,
        diffDomain: false,
        urls: ['http://f/1'],
      },
    ],
  ])('%s', (_label, fields, expected) => {
    const source = _label.includes('IPv6') ? '::ffff:192.0.2.7' : '192.0.2.7';
    expect(parseRestPleaseNotify(form(fields), source)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [{ url1: 'x' }, messages.missingParams(['port', 'path', 'protocol'])],
    [{ port: '1', protocol: 'http-post', url1: 'x' }, messages.missingParams(['path'])],
    [{ port: '1', path: '/', protocol: 'soap', url1: 'x' }, messages.invalidProtocol('soap')],
    [{ port: '1', path: '/', protocol: '', url1: 'x' }, messages.invalidProtocol('')],
    [{ port: '1', path: '/', protocol: 'http-post' }, messages.noResources],
    [{ port: '1', path: '/', protocol: 'http-post', url1: '  ' }, messages.noResources],
  ])('refuses %j', (fields, message) => {
    expect(parseRestPleaseNotify(form(fields), '192.0.2.7')).toEqual({ ok: false, message });
  });

  it('brackets a plain IPv6 source', () => {
    const r = parseRestPleaseNotify(
      form({ port: '80', path: '/n', protocol: 'http-post', url1: 'u' }),
      '2001:db8::5',
    );
    expect(r.ok && r.value.callbackUrl).toBe('http://[2001:db8::5]/n');
  });
});

describe('XML-RPC parameters', () => {
  it('pleaseNotify with 5 and 6 parameters; a single url string is a list of one', () => {
    expect(parseRpcPleaseNotify(['', 5337, '/n', 'http-post', ['http://f/1']], '192.0.2.7')).toEqual({
      ok: true,
      value: {
        protocol: 'http-post',
        notifyProcedure: null,
        callbackUrl: 'http://192.0.2.7:5337/n',
        diffDomain: false,
        urls: ['http://f/1'],
      },
    });
    const six = parseRpcPleaseNotify(
      ['river.feedUpdated', '5337', '/RPC2', 'xml-rpc', 'http://f/1', 'r.example'],
      '192.0.2.7',
    );
    expect(six.ok && six.value).toEqual({
      protocol: 'xml-rpc',
      notifyProcedure: 'river.feedUpdated',
      callbackUrl: 'http://r.example:5337/RPC2',
      diffDomain: true,
      urls: ['http://f/1'],
    });
  });

  it('an empty domain parameter means none', () => {
    const r = parseRpcPleaseNotify(['', 80, '/n', 'http-post', ['u'], ''], '192.0.2.7');
    expect(r.ok && r.value.diffDomain).toBe(false);
  });

  it.each([
    [[], messages.notEnoughParams('pleaseNotify')],
    [['a', 1, '/p', 'http-post', ['u'], 'd', 'x'], messages.tooManyParams('pleaseNotify')],
    [['a', 1, '/p', 'soap', ['u']], messages.invalidProtocol('soap')],
  ])('pleaseNotify refuses %j', (params, message) => {
    expect(parseRpcPleaseNotify(params, '192.0.2.7')).toEqual({ ok: false, message });
  });

  it('ping and saveRss parameter counts', () => {
    expect(parseRpcPing([])).toEqual({ ok: false, message: messages.notEnoughParams('ping') });
    expect(parseRpcPing(['a', 'b'])).toEqual({ ok: false, message: messages.tooManyParams('ping') });
    expect(parseRpcPing([' http://f/1 '])).toEqual({ ok: true, value: 'http://f/1' });
    expect(parseRpcSaveRss(['a', 'b'])).toEqual({ ok: false, message: messages.notEnoughParams('saveRss') });
    expect(parseRpcSaveRss(['a', 'b', new TextEncoder().encode('<rss/>')])).toEqual({
      ok: true,
      value: { username: 'a', password: 'b', text: '<rss/>' },
    });
  });

  it('REST ping', () => {
    expect(parseRestPing(new URLSearchParams())).toEqual({
      ok: false,
      message: messages.missingParams(['url']),
    });
    expect(parseRestPing(new URLSearchParams('url=http%3A%2F%2Ff%2F1'))).toEqual({
      ok: true,
      value: 'http://f/1',
    });
  });
});

describe('callback address', () => {
  it.each([
    ['http-post', 'r.example', '80', '/n', 'http://r.example/n'],
    ['http-post', 'r.example', '443', '/n', 'https://r.example/n'],
    ['https-post', 'r.example', '8443', 'n', 'https://r.example:8443/n'],
    ['xml-rpc', '::1', '5337', '/RPC2', 'http://[::1]:5337/RPC2'],
    ['http-post', 'r.example', '0', '/n', null],
    ['http-post', 'r.example', 'eighty', '/n', null],
  ] as const)('%s %s:%s%s', (protocol, host, port, path, expected) => {
    expect(buildCallbackUrl(protocol, host, port, path)).toBe(expected);
  });

  it('X-Forwarded-For counts only behind a trusted proxy, and only its last entry', () => {
    const h = new Headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.4' });
    expect(sourceAddressOf('127.0.0.1', h, false)).toBe('127.0.0.1');
    expect(sourceAddressOf('127.0.0.1', h, true)).toBe('198.51.100.4');
    expect(sourceAddressOf('127.0.0.1', new Headers(), true)).toBe('127.0.0.1');
  });
});

describe('answer forms', () => {
  it.each([
    [null, false],
    ['*/*', false],
    ['application/json', true],
    ['application/json, text/plain, */*', true],
    ['text/xml, application/json', false],
    ['application/xml;q=0.5, application/json', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
  ])('Accept %s -> JSON %s', (accept, json) => {
    expect(wantsJson(accept)).toBe(json);
  });

  it('XML attributes are escaped', async () => {
    const res = restAnswer('notifyResult', { success: false, msg: messages.invalidProtocol('a"b&c') }, null);
    expect(await res.text()).toBe(
      '<?xml version="1.0"?>\n<notifyResult success="false" msg="Can\'t accept the subscription because the protocol, &lt;i&gt;a&quot;b&amp;c&lt;/i&gt;, is unsupported."/>',
    );
  });
});
