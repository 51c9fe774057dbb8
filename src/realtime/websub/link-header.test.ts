/** The Link header's hub and self, in the forms servers send (RFC 8288). */
import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from './link-header.ts';
import { checkSignature, signBody } from './signature.ts';

const BASE = 'https://blog.example/feed/';

describe('parseLinkHeader', () => {
  it.each([
    [
      'one header, two links',
      '<https://hub.example/>; rel="hub", <https://blog.example/feed>; rel="self"',
      ['https://hub.example/'],
      'https://blog.example/feed',
    ],
    [
      'unquoted rel, reversed order',
      '<https://blog.example/feed>; rel=self, <https://hub.example/>; rel=hub',
      ['https://hub.example/'],
      'https://blog.example/feed',
    ],
    [
      'relative targets',
      '</hub>; rel="hub", <atom>; rel="self"',
      ['https://blog.example/hub'],
      'https://blog.example/feed/atom',
    ],
    [
      'several rels in one link, other params',
      '<https://x.example/a,b>; type="text/html"; rel="hub self"',
      ['https://x.example/a,b'],
      'https://x.example/a,b',
    ],
    [
      'two hubs (joined headers), the first self kept',
      '<https://h1.example/>; rel="hub", <https://h2.example/>; rel="HUB", <https://s1.example/>; rel="self", <https://s2.example/>; rel="self"',
      ['https://h1.example/', 'https://h2.example/'],
      'https://s1.example/',
    ],
    [
      'other rels and schemes ignored',
      '<https://blog.example/>; rel="alternate", <ftp://hub.example/>; rel="hub"',
      [],
      null,
    ],
    [
      'commas, semicolons and escaped quotes inside a quoted parameter',
      '<https://hub.example/>; title="a, b; \\"c\\""; rel="hub", <https://blog.example/feed>; rel=self',
      ['https://hub.example/'],
      'https://blog.example/feed',
    ],
    [
      'the first rel counts (RFC 8288)',
      '<https://hub.example/>; rel="hub"; rel="self"',
      ['https://hub.example/'],
      null,
    ],
    ['an unclosed target', '<https://hub.example/; rel="hub"', [], null],
    ['nothing', '', [], null],
  ])('%s', (_name, header, hubs, self) => {
    expect(parseLinkHeader(header, BASE)).toEqual({ hubs, self });
  });
});

describe('checkSignature', () => {
  const body = new TextEncoder().encode('<rss/>');
  it.each(['sha1', 'sha256', 'sha384', 'sha512'] as const)('accepts %s', (method) => {
    expect(checkSignature(signBody(method, 's3cret', body), 's3cret', body)).toEqual({ ok: true, method });
    expect(checkSignature(signBody(method, 's3cret', body).toUpperCase(), 's3cret', body).ok).toBe(true);
  });
  it.each([
    [null, 'no X-Hub-Signature'],
    ['sha256', 'a malformed X-Hub-Signature'],
    ['sha256=zz', 'a malformed X-Hub-Signature'],
    ['md5=abcdef', 'an unknown signature method "md5"'],
    [signBody('sha256', 'other', body), 'a sha256 signature that does not match'],
    [signBody('sha1', 's3cret', body).slice(0, -2), 'a sha1 signature that does not match'],
  ])('refuses %s', (header, why) => {
    expect(checkSignature(header, 's3cret', body)).toEqual({ ok: false, why });
  });
});
