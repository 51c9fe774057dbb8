import { mkdirSync } from 'node:fs';
import { expect, test } from './support/fixtures.ts';
import { rssFeed } from './support/servers.ts';

test('a new user subscribes to a feed and sees its river', async ({ page, host, tidings }) => {
  host.set(
    '/feed.xml',
    rssFeed('Loopback News', [
      {
        title: 'First light',
        guid: 'a1',
        description: 'The <b>first</b> item.',
        date: new Date('2026-11-20T10:00:00Z'),
      },
      {
        title: 'Second wind',
        guid: 'a2',
        description: 'The second item.',
        date: new Date('2026-11-20T11:00:00Z'),
      },
    ]),
  );
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/feed.xml`);
  await page.getByTestId('add-feed-submit').click();

  const river = page.getByTestId('river');
  await expect(river.getByTestId('river-group').first()).toContainText('Loopback News');
  await expect(river.getByTestId('river-item')).toHaveCount(2);
  await expect(river).toContainText('Second wind');
  await expect(page.getByTestId('feed-list')).toContainText('Loopback News');
  // The token left the address bar once read.
  expect(new URL(page.url()).searchParams.get('token')).toBeNull();

  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/river.png', fullPage: true });
});

test('subscribing by site URL finds the feed through autodiscovery', async ({ page, host, tidings }) => {
  host.set('/', {
    body: '<html><head><title>Site</title><link rel="alternate" type="application/rss+xml" href="/news.rss"></head><body>hi</body></html>',
    type: 'text/html',
  });
  host.set(
    '/news.rss',
    rssFeed('Discovered Feed', [
      { title: 'Found me', guid: 'd1', description: 'x', date: new Date('2026-11-20T09:00:00Z') },
    ]),
  );
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(host.url);
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('river')).toContainText('Found me');
});

test('hostile item HTML is sanitised before it reaches the DOM', async ({ page, host, tidings }) => {
  host.set(
    '/evil.xml',
    rssFeed('Evil Feed', [
      {
        title: 'Click me',
        guid: 'e1',
        description:
          '<p>safe text</p><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><a href="javascript:window.__pwned=3">js link</a><iframe src="http://127.0.0.1/"></iframe>',
        date: new Date('2026-11-20T09:00:00Z'),
      },
    ]),
  );
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/evil.xml`);
  await page.getByTestId('add-feed-submit').click();
  const item = page.getByTestId('river-item').first();
  await expect(item).toContainText('safe text');
  expect(await item.locator('script, iframe, [onerror]').count()).toBe(0);
  expect(await item.locator('a[href^="javascript:"]').count()).toBe(0);
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('a private feed is read with the login given when subscribing, and the login never comes back', async ({
  page,
  host,
  tidings,
}) => {
  host.set('/private.xml', {
    body: rssFeed('Members Only', [
      { title: 'For members', guid: 'm1', date: new Date('2026-11-20T09:00:00Z') },
    ]),
    basicAuth: { username: 'reader', password: 'open-sesame' },
  });
  await page.goto(tidings.openUrl);
  await page.getByTestId('add-feed-input').fill(`${host.url}/private.xml`);
  await page.getByTestId('add-feed-login').locator('summary').click();
  await page.getByTestId('add-feed-username').fill('reader');
  await page.getByTestId('add-feed-password').fill('open-sesame');
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: 'test-results/screenshots/add-private-feed.png' });
  await page.getByTestId('add-feed-submit').click();
  await expect(page.getByTestId('river')).toContainText('For members');

  const base = new URL(tidings.openUrl);
  const auth = { authorization: `Bearer ${base.searchParams.get('token')}` };
  const feeds = await (
    await fetch(`${base.origin}/api/listFeeds`, { method: 'POST', headers: auth, body: '{"args":[]}' })
  ).text();
  expect(feeds).toContain('"hasCredentials":true');
  expect(feeds).not.toContain('open-sesame');
  const opml = await (
    await fetch(`${base.origin}/api/exportOpml`, { method: 'POST', headers: auth, body: '{"args":[]}' })
  ).text();
  expect(opml).toContain('private.xml');
  expect(opml).not.toContain('open-sesame');
});

test('the API refuses calls without the token', async ({ request, tidings }) => {
  const base = new URL(tidings.openUrl);
  const res = await request.post(`${base.origin}/api/listFeeds`, { data: { args: [] } });
  expect(res.status()).toBe(401);
  const ok = await request.post(`${base.origin}/api/listFeeds`, {
    data: { args: [] },
    headers: { authorization: `Bearer ${base.searchParams.get('token')}` },
  });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ result: [] });
});
