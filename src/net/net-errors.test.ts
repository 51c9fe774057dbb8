import { describe, expect, it } from 'vitest';
import { mapNetError, NetFailure, statusError, tooLarge } from './net-errors.ts';

const url = new URL('https://feeds.example.com:8443/rss?token=abc');
const err = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('mapNetError', () => {
  it.each([
    [
      err('ECONNREFUSED'),
      'http.connectionRefused',
      'Could not connect to feeds.example.com:8443: connection refused.',
    ],
    [
      err('ECONNRESET'),
      'http.connectionReset',
      'The connection to feeds.example.com:8443 was closed before the answer was complete.',
    ],
    [err('ENOTFOUND'), 'http.dnsFailed', 'Could not find feeds.example.com: no such host name.'],
    [
      err('EAI_AGAIN'),
      'http.dnsFailed',
      'Could not look up feeds.example.com: the name server did not answer (try again later).',
    ],
    [
      err('ETIMEDOUT'),
      'http.connectTimeout',
      'Could not connect to feeds.example.com:8443: the connection timed out.',
    ],
    [
      err('EHOSTUNREACH'),
      'http.unreachable',
      'Could not reach feeds.example.com:8443: the network has no route to it.',
    ],
    [
      err('CERT_HAS_EXPIRED'),
      'http.tls',
      'The secure connection to feeds.example.com:8443 failed: its certificate has expired.',
    ],
    [
      err('DEPTH_ZERO_SELF_SIGNED_CERT'),
      'http.tls',
      'The secure connection to feeds.example.com:8443 failed: its certificate is self-signed.',
    ],
    [
      err('ERR_TLS_CERT_ALTNAME_INVALID'),
      'http.tls',
      'The secure connection to feeds.example.com:8443 failed: its certificate is for a different name.',
    ],
    [
      err('ERR_SSL_WRONG_VERSION_NUMBER'),
      'http.tls',
      'The secure connection to feeds.example.com:8443 failed: the TLS handshake did not succeed.',
    ],
    [
      err('ERR_INVALID_CHAR'),
      'http.badHeader',
      'A header for feeds.example.com:8443 contains characters HTTP does not allow.',
    ],
    [
      err('HPE_INVALID_CONSTANT'),
      'http.protocol',
      'feeds.example.com:8443 sent an answer that is not valid HTTP.',
    ],
    [
      new AggregateError([err('ECONNREFUSED')]),
      'http.connectionRefused',
      'Could not connect to feeds.example.com:8443: connection refused.',
    ],
    [new Error('weird'), 'http.failed', 'The request to feeds.example.com:8443 failed.'],
    ['a string', 'http.failed', 'The request to feeds.example.com:8443 failed.'],
  ])('%o -> %s', (error, code, message) => {
    const e = mapNetError(error, url);
    expect(e.code).toBe(code);
    expect(e.message).toBe(message);
    expect(e.args?.url).toBe('https://feeds.example.com:8443/rss?token=***');
    expect(e.cause).toBe(error);
  });

  it('passes NetFailures through unchanged', () => {
    const inner = tooLarge(url, 1024);
    expect(mapNetError(new NetFailure(inner), url)).toBe(inner);
    expect(inner.message).toBe(
      'The response from https://feeds.example.com:8443/rss?token=*** is larger than 1 KiB, the most Tidings reads.',
    );
  });

  it.each([
    [404, 'The server answered 404 Not Found.'],
    [451, 'The server answered 451 Unavailable For Legal Reasons.'],
    [599, 'The server answered 599.'],
  ])('status %s reads "%s"', (status, message) => {
    const e = statusError(status, url);
    expect(e.code).toBe('http.status');
    expect(e.message).toBe(message);
    expect(e.args).toEqual({
      status,
      url: 'https://feeds.example.com:8443/rss?token=***',
      host: 'feeds.example.com:8443',
    });
  });
});
