import { describe, expect, it } from 'vitest';
import { judgeFeed } from './feed-verdict.ts';
import { parseFeed } from './parse.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const RSS = '<rss version="2.0"><channel><title>T</title><item><title>A</title></item></channel></rss>';

describe('judgeFeed', () => {
  it('takes a body that parses for a feed', () => {
    expect(judgeFeed(bytes(RSS), 'text/html')).toEqual({ kind: 'feed' });
  });

  it.each([
    ['its first tag', '<?xml version="1.0"?><rss version="2.0"><channel><title>T</channel>', 'text/xml'],
    ['its type', 'not a feed at all', 'application/rss+xml; charset=utf-8'],
    ['its JSON Feed version', '{"version": "https://jsonfeed.org/version/1.1", "items": [', null],
  ])('calls a body broken, with the parser’s reason, when %s says it is a feed', (_, body, type) => {
    const parsed = parseFeed(bytes(body), { contentType: type });
    expect(parsed.kind).toBe('error');
    expect(judgeFeed(bytes(body), type)).toEqual({
      kind: 'broken',
      reason: parsed.kind === 'error' && parsed.error.message,
    });
  });

  it('calls a web page that does not parse no feed', () => {
    expect(judgeFeed(bytes('<!doctype html><html><body>hi</body></html>'), 'text/html')).toEqual({
      kind: 'notFeed',
    });
  });
});
