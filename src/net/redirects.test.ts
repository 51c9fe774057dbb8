import { describe, expect, it } from 'vitest';
import { MoveTracker, mayKeepCredentials, methodAfterRedirect, resolveLocation } from './redirects.ts';

describe('redirect rules', () => {
  it.each([
    [[301], 'b'],
    [[308, 301], 'c'],
    [[301, 302, 301], 'b'],
    [[302, 301], null],
    [[307], null],
    [[303, 308], null],
  ])('hops %o move to %s', (statuses, expected) => {
    const t = new MoveTracker();
    for (const [i, s] of statuses.entries()) t.hop(s, new URL(`http://x/${'bcd'[i]}`));
    expect(t.movedTo?.pathname.slice(1) ?? null).toBe(expected);
  });

  it.each([
    ['http://a.test/feed', 'http://a.test/other', true],
    ['http://a.test/feed', 'https://a.test/feed', true],
    ['https://a.test/feed', 'http://a.test/feed', false],
    ['http://a.test/feed', 'http://b.test/feed', false],
    ['http://a.test/feed', 'http://a.test:8080/feed', false],
    ['http://a.test:8080/feed', 'https://a.test/feed', false],
    ['http://a.test/feed', 'http://sub.a.test/feed', false],
  ])('credentials from %s to %s: %s', (from, to, keep) => {
    expect(mayKeepCredentials(new URL(from), new URL(to))).toBe(keep);
  });

  it.each([
    [303, 'POST', 'GET', false],
    [303, 'HEAD', 'HEAD', true],
    [302, 'POST', 'GET', false],
    [301, 'GET', 'GET', true],
    [307, 'POST', 'POST', true],
    [308, 'POST', 'POST', true],
  ])('%s after %s -> %s (body kept %s)', (status, method, next, keepBody) => {
    expect(methodAfterRedirect(status, method)).toEqual({ method: next, keepBody });
  });

  it.each([
    ['http://a.test/x/y', 'z', 'http://a.test/x/z'],
    ['http://a.test/x/y', '/z', 'http://a.test/z'],
    ['http://a.test/x/y', '//b.test/z', 'http://b.test/z'],
    ['https://a.test/x', 'http://u:p@b.test/z#frag', 'http://b.test/z'],
  ])('Location %s + %s -> %s', (from, location, expected) => {
    const r = resolveLocation(new URL(from), location);
    expect('url' in r && r.url.href).toBe(expected);
  });

  it.each(['ftp://a.test/x', 'file:///etc/passwd', 'data:text/plain,hi', 'http://[bad'])(
    'refuses %s',
    (location) => {
      const r = resolveLocation(new URL('http://a.test/'), location);
      expect('error' in r && r.error.code).toBe('http.badRedirect');
    },
  );
});
