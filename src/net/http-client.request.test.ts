import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client-types.ts';
import { startServer, type TestServer } from './test-server.ts';

let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startServer((req, res, body) => {
    const path = req.url ?? '/';
    if (path === '/form') {
      const form = new URLSearchParams(body);
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
      res.end(
        JSON.stringify({
          method: req.method,
          type: req.headers['content-type'],
          form: Object.fromEntries(form),
        }),
      );
    } else if (path === '/see-other') {
      res.writeHead(303, { location: '/echo' }).end();
    } else if (path === '/temporary') {
      res.writeHead(307, { location: '/echo' }).end();
    } else if (path === '/echo') {
      res.end(`${req.method} ${body}`);
    } else if (path === '/fault') {
      res.writeHead(500, { 'content-type': 'text/xml' }).end('<methodResponse><fault/></methodResponse>');
    } else if (path === '/gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync('squeezed'));
    } else {
      res.writeHead(200, { 'x-path': path }).end('hello');
    }
  });
  client = createHttpClient({
    version: '1.2.3',
    projectUrl: 'https://t.example',
    hostPolicy: { allowLoopback: true },
  });
});

afterAll(async () => {
  client.close();
  await server.close();
});

afterEach(() => {
  server.requests.length = 0;
});

describe('request()', () => {
  it('POSTs a form and reads the answer', async () => {
    const r = await client.request({
      method: 'POST',
      url: `${server.url}/form`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        url: 'http://example.com/feed.xml',
        port: '5337',
        path: '/notify',
      }).toString(),
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe(200);
    expect(r.value.headers['content-type']).toBe('application/json');
    expect(r.value.headers['set-cookie']).toBe('a=1, b=2');
    expect(r.value.finalUrl).toBe(`${server.url}/form`);
    expect(JSON.parse(Buffer.from(r.value.body).toString())).toEqual({
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      form: { url: 'http://example.com/feed.xml', port: '5337', path: '/notify' },
    });
    const seen = server.requests[0]!.headers;
    expect(seen['user-agent']).toBe('Tidings/1.2.3 (+https://t.example)');
    expect(seen['content-length']).toBe(String(server.requests[0]!.body.length));
  });

  it('sends a Uint8Array body as is', async () => {
    const r = await client.request({
      method: 'POST',
      url: `${server.url}/echo`,
      body: new TextEncoder().encode('bytes'),
    });
    expect(r.ok && Buffer.from(r.value.body).toString()).toBe('POST bytes');
  });

  it('returns a 3xx as is by default', async () => {
    const r = await client.request({ method: 'POST', url: `${server.url}/see-other`, body: 'x' });
    expect(r.ok && r.value.status).toBe(303);
    expect(r.ok && r.value.headers.location).toBe('/echo');
    expect(server.requests).toHaveLength(1);
  });

  it('follows redirects when asked: 303 turns a POST into a GET, 307 keeps it', async () => {
    const a = await client.request({
      method: 'POST',
      url: `${server.url}/see-other`,
      body: 'payload',
      maxRedirects: 1,
    });
    expect(a.ok && Buffer.from(a.value.body).toString()).toBe('GET ');
    expect(a.ok && a.value.finalUrl).toBe(`${server.url}/echo`);
    const b = await client.request({
      method: 'POST',
      url: `${server.url}/temporary`,
      body: 'payload',
      maxRedirects: 1,
    });
    expect(b.ok && Buffer.from(b.value.body).toString()).toBe('POST payload');
  });

  it('an error status is still a response (XML-RPC faults ride on them)', async () => {
    const r = await client.request({ method: 'POST', url: `${server.url}/fault`, body: '<methodCall/>' });
    expect(r.ok && r.value.status).toBe(500);
    expect(r.ok && Buffer.from(r.value.body).toString()).toContain('<fault/>');
  });

  it('HEAD has no body', async () => {
    const r = await client.request({ method: 'HEAD', url: `${server.url}/anything` });
    expect(r.ok && r.value.headers['x-path']).toBe('/anything');
    expect(r.ok && r.value.body.length).toBe(0);
  });

  it('decompresses what the server compressed', async () => {
    const r = await client.request({ method: 'GET', url: `${server.url}/gzip` });
    expect(r.ok && Buffer.from(r.value.body).toString()).toBe('squeezed');
  });

  it.each([
    ['mailto:someone@example.com', 'http.badUrl'],
    ['http://169.254.169.254/latest/meta-data', 'http.blockedHost'],
    ['http://[fd00::1]/RPC2', 'http.blockedHost'],
  ])('%s fails as a value (%s), never a throw', async (url, code) => {
    const r = await client.request({ method: 'GET', url });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe(code);
  });
});
