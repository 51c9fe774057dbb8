import { describe, expect, it } from 'vitest';
import { isSecretParam, maskUrl } from './mask.ts';

describe('maskUrl', () => {
  it.each([
    ['https://example.com/feed.xml', 'https://example.com/feed.xml'],
    ['https://user:hunter2@example.com/feed', 'https://user:***@example.com/feed'],
    ['https://user@example.com/feed', 'https://user@example.com/feed'],
    ['https://e.com/f?token=abc&page=2', 'https://e.com/f?token=***&page=2'],
    ['https://e.com/f?KEY=abc', 'https://e.com/f?KEY=***'],
    [
      'https://e.com/f?apikey=1&api_key=2&password=3&pass=4',
      'https://e.com/f?apikey=***&api_key=***&password=***&pass=***',
    ],
    [
      'https://e.com/f?secret=1&sig=2&signature=3&auth=4',
      'https://e.com/f?secret=***&sig=***&signature=***&auth=***',
    ],
    [
      'https://e.com/cb?access_token=1&code=2&state=ok',
      'https://e.com/cb?access_token=***&code=***&state=ok',
    ],
    [
      'https://e.com/f?client_secret=s&private-token=t',
      'https://e.com/f?client_secret=***&private-token=***',
    ],
    [
      'https://e.com/f?monkey=banana&keyword=rss&passage=1',
      'https://e.com/f?monkey=banana&keyword=rss&passage=1',
    ],
    ['https://e.com/f?q=a%20b+c&token=x#top', 'https://e.com/f?q=a%20b+c&token=***#top'],
    ['https://e.com/cb#access_token=abc&type=bearer', 'https://e.com/cb#access_token=***&type=bearer'],
    ['https://e.com/f?token=&flag', 'https://e.com/f?token=&flag'],
    ['https://e.com/f?to%6Ben=x', 'https://e.com/f?to%6Ben=***'],
    ['https://u:p@e.com/f?token=1', 'https://u:***@e.com/f?token=***'],
  ])('%s -> %s', (input, expected) => {
    expect(maskUrl(input)).toBe(expected);
  });

  it.each([
    ['not a url ?token=abc', 'not a url ?token=***'],
    ['//user:pw@host/x', '//user:***@host/x'],
    ['', ''],
  ])('masks text that is not a URL by pattern: %s', (input, expected) => {
    expect(maskUrl(input)).toBe(expected);
  });

  it('never throws on garbage', () => {
    expect(() => maskUrl('http://[bad')).not.toThrow();
  });

  it.each([
    ['token', true],
    ['Access_Token', true],
    ['x-api-key', true],
    ['page', false],
    ['monkey', false],
  ])('isSecretParam(%s) = %s', (name, secret) => {
    expect(isSecretParam(name)).toBe(secret);
  });
});
