/**
 * e2e never leaves the machine: playwright.config.ts gives Chromium host-resolver rules under
 * which every name fails to resolve except loopback's (127.0.0.1, localhost, *.localhost, the
 * last for the tunnel's <id>.localhost hosts). This checks the rules are in force, so a fixture
 * that links example.com can never fetch it.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { expect, test } from '@playwright/test';
import { startServer, type TestServer } from '../src/net/test-server.ts';

let server: TestServer;
test.beforeAll(async () => {
  server = await startServer((_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end('loopback answers');
  });
});
test.afterAll(() => server.close());

test('loopback names load: 127.0.0.1, localhost and a tunnel-style <id>.localhost', async ({ page }) => {
  for (const host of ['127.0.0.1', 'localhost', 'brave-otter-12.localhost']) {
    const res = await page.goto(`http://${host}:${server.port}/`);
    expect(res?.status(), host).toBe(200);
    await expect(page.locator('body')).toHaveText('loopback answers');
  }
});

test('any other name does not resolve, even one the system resolves to loopback', async ({ page }) => {
  await expect(page.goto('http://example.com/')).rejects.toThrow(/ERR_NAME_NOT_RESOLVED/);
  // The machine's own name usually resolves to 127.0.0.1 through /etc/hosts: without the rules
  // Chromium would load our loopback server by it, so this fails if the rules are not applied.
  const name = hostname();
  const local = await lookup(name, { family: 4 }).catch(() => null);
  test.skip(local?.address !== '127.0.0.1', `${name} does not resolve to 127.0.0.1 here`);
  await expect(page.goto(`http://${name}:${server.port}/`)).rejects.toThrow(/ERR_NAME_NOT_RESOLVED/);
  expect(server.requests.every((r) => r.headers.host !== `${name}:${server.port}`)).toBe(true);
});
