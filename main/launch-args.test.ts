import { describe, expect, it } from 'vitest';
import { feedLinkTarget, parseLaunchArgs } from './launch-args.ts';

describe('feed: and feeds: links', () => {
  it.each([
    ['feed://example.com/rss.xml', 'http://example.com/rss.xml'],
    ['feed:https://example.com/rss.xml', 'https://example.com/rss.xml'],
    ['feed:http://example.com/a?b=1', 'http://example.com/a?b=1'],
    ['feed://https://example.com/rss', 'https://example.com/rss'],
    ['FEED://Example.com/Feed', 'http://example.com/Feed'],
    ['feeds://example.com/rss', 'https://example.com/rss'],
    ['feed:example.com/rss', 'http://example.com/rss'],
    ['feed://localhost:8080/x.xml', 'http://localhost:8080/x.xml'],
    ['feed:127.0.0.1:5337/feed', 'http://127.0.0.1:5337/feed'],
  ])('%s -> %s', (link, url) => {
    expect(feedLinkTarget(link)).toEqual({ ok: true, url });
  });

  it.each([
    ['feed:javascript:alert(1)', /only http and https/i],
    ['feed:file:///etc/passwd', /only http and https/i],
    ['feed://', /not a web address/i],
    ['feed:data:text/html,hi', /only http and https/i],
    [`feed://example.com/${'a'.repeat(5000)}`, /too long/i],
  ])('refuses %s with a sentence', (link, reason) => {
    const r = feedLinkTarget(link);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('parseLaunchArgs', () => {
  const packaged = { cwd: '/home/ann/Downloads', skip: 1 };

  it('reads --subscribe (both forms), feed: links and .opml files; ignores Chromium switches', () => {
    const argv = [
      '/opt/Tidings/tidings',
      '--no-sandbox',
      '--subscribe',
      'https://scripting.com/rss.xml',
      '--subscribe=feed://daringfireball.net/feeds/main',
      '--user-data-dir=/tmp/x',
      'feeds://example.org/atom',
      'blogroll.OPML',
      '/abs/subs.opml',
      'notes.txt',
    ];
    expect(parseLaunchArgs(argv, packaged)).toEqual([
      { kind: 'subscribe', url: 'https://scripting.com/rss.xml' },
      { kind: 'subscribe', url: 'http://daringfireball.net/feeds/main' },
      { kind: 'subscribe', url: 'https://example.org/atom' },
      { kind: 'import', path: '/home/ann/Downloads/blogroll.OPML' },
      { kind: 'import', path: '/abs/subs.opml' },
    ]);
  });

  it('skips the program itself: the executable when packaged, electron and the app folder in development', () => {
    const dev = ['/x/electron', '/work/tidings', 'feed://a.example/rss'];
    expect(parseLaunchArgs(dev, { cwd: '/', skip: 2 })).toEqual([
      { kind: 'subscribe', url: 'http://a.example/rss' },
    ]);
    // The app folder is not mistaken for a request.
    expect(parseLaunchArgs(['/x/electron', '/work/tidings'], { cwd: '/', skip: 2 })).toEqual([]);
  });

  it('passes a bare host to the core (autodiscovery completes it)', () => {
    expect(parseLaunchArgs(['t', '--subscribe', 'scripting.com'], packaged)).toEqual([
      { kind: 'subscribe', url: 'scripting.com' },
    ]);
  });

  it('says what is wrong instead of dropping a broken request', () => {
    expect(parseLaunchArgs(['t', '--subscribe'], packaged)).toEqual([
      { kind: 'invalid', input: '--subscribe', reason: '--subscribe needs an address.' },
    ]);
    expect(parseLaunchArgs(['t', '--subscribe', '--hidden'], packaged)[0]).toMatchObject({ kind: 'invalid' });
    const [bad] = parseLaunchArgs(['t', '--subscribe', 'ftp://example.com/feed'], packaged);
    expect(bad).toMatchObject({ kind: 'invalid', input: 'ftp://example.com/feed' });
    expect(parseLaunchArgs(['t', 'feed:javascript:alert(1)'], packaged)[0]).toMatchObject({
      kind: 'invalid',
    });
  });

  it('collapses the same request given twice', () => {
    expect(
      parseLaunchArgs(['t', 'feed://a.example/rss', '--subscribe', 'http://a.example/rss'], packaged),
    ).toEqual([{ kind: 'subscribe', url: 'http://a.example/rss' }]);
  });
});
