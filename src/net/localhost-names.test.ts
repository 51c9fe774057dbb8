/** `<id>.localhost` reaches a loopback server through the one HTTP client, under the host policy. */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client.ts';
import { startServer, type TestServer } from './test-server.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('*.localhost names', () => {
  it('are dialled on loopback with their own Host header when loopback is allowed', async () => {
    server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`host=${req.headers.host}`);
    });
    const client = createHttpClient({ hostPolicy: { allowLoopback: true } });
    const port = new URL(server.url).port;
    const res = await client.request({ method: 'GET', url: `http://abc123.localhost:${port}/` });
    client.close();
    expect(res.ok).toBe(true);
    if (res.ok) expect(new TextDecoder().decode(res.value.body)).toBe(`host=abc123.localhost:${port}`);
  });

  it('are still refused where loopback is refused', async () => {
    server = await startServer((_req, res) => res.end('no'));
    const client = createHttpClient();
    const res = await client.request({ method: 'GET', url: `http://abc123.localhost:${server.port}/` });
    client.close();
    expect(res.ok).toBe(false);
    // Refused as loopback by the policy (not a DNS failure), and nothing reached the server.
    if (!res.ok) expect(res.error.code).toBe('http.blockedHost');
    expect(server.requests).toHaveLength(0);
  });
});
