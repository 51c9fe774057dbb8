import http from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client-types.ts';
import { type Handler, type RunningServer, readForm, serve } from './serve.ts';

let client: HttpClient;

beforeAll(() => {
  client = createHttpClient({ hostPolicy: { allowLoopback: true } });
});
afterAll(() => client.close());

/** Runs `fn` against a served handler and always closes the server. */
async function withServer(
  handler: Handler,
  fn: (s: RunningServer) => Promise<void>,
  opts?: Parameters<typeof serve>[1],
): Promise<void> {
  const s = await serve(handler, opts);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

const text = (body: Uint8Array) => Buffer.from(body).toString('utf8');

/**
 * POSTs `size` bytes over a raw socket, writing all of it before reading anything, then returns
 * what came back (or the error that ended the socket, as text).
 */
function uploadThenRead(port: number, size: number, declared: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let failed: string | null = null;
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      failed ??= `socket error ${e.code}`;
    });
    socket.on('close', () => resolve(failed ?? Buffer.concat(received).toString('latin1')));
    socket.pause(); // nothing is read until the whole body is written
    socket.once('connect', async () => {
      const head = declared ? `content-length: ${size}` : 'transfer-encoding: chunked';
      socket.write(`POST / HTTP/1.1\r\nhost: x\r\n${head}\r\n\r\n`);
      const piece = Buffer.alloc(64 * 1024, 120);
      for (let sent = 0; sent < size && !socket.destroyed; sent += piece.length) {
        const chunk = declared
          ? piece
          : Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
      }
      if (!declared && !socket.destroyed) socket.write('0\r\n\r\n');
      socket.resume();
    });
  });
}

describe('serve()', () => {
  it('turns requests into Web Requests and writes Responses back', async () => {
    let seen: { method: string; url: string; type: string | null; body: string; remote: string } | null =
      null;
    await withServer(
      async (req, info) => {
        seen = {
          method: req.method,
          url: req.url,
          type: req.headers.get('content-type'),
          body: await req.text(),
          remote: info.remoteAddress,
        };
        const headers = new Headers({ 'content-type': 'text/plain', 'x-answer': '42' });
        headers.append('set-cookie', 'a=1');
        headers.append('set-cookie', 'b=2');
        return new Response('created', { status: 201, headers });
      },
      async (s) => {
        expect(s.host).toBe('127.0.0.1');
        expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
        const r = await client.request({
          method: 'POST',
          url: `${s.url}/notify?x=1`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'url=http%3A%2F%2Fexample.com%2Ffeed',
        });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.value.status).toBe(201);
        expect(text(r.value.body)).toBe('created');
        expect(r.value.headers['x-answer']).toBe('42');
        expect(r.value.headers['set-cookie']).toBe('a=1, b=2');
        expect(seen).toEqual({
          method: 'POST',
          url: `${s.url}/notify?x=1`,
          type: 'application/x-www-form-urlencoded',
          body: 'url=http%3A%2F%2Fexample.com%2Ffeed',
          remote: '127.0.0.1',
        });
      },
    );
  });

  it('answers 413 to a body over the cap (declared or streamed)', async () => {
    let calls = 0;
    await withServer(
      () => {
        calls++;
        return new Response('ok');
      },
      async (s) => {
        const big = await client.request({ method: 'POST', url: s.url, body: 'x'.repeat(2048) });
        expect(big.ok && big.value.status).toBe(413);
        const streamed = await postChunked(`${s.url}/`, 4, 1024);
        expect(streamed).toBe(413);
        const small = await client.request({ method: 'POST', url: s.url, body: 'x'.repeat(1000) });
        expect(small.ok && small.value.status).toBe(200);
        expect(calls).toBe(1);
      },
      { maxBodyBytes: 1024 },
    );
  });

  it('lets a client that uploads far past the cap read the 413 instead of a reset', async () => {
    // Cut off mid-upload, the client saw its connection reset before it could read the answer.
    await withServer(
      () => new Response('ok'),
      async (s) => {
        for (const size of [3 * 1024 * 1024, 8 * 1024 * 1024]) {
          const res = await fetch(`${s.url}/`, { method: 'POST', body: Buffer.alloc(size, 120) });
          expect([size, res.status, await res.text()]).toEqual([size, 413, 'Payload Too Large']);
        }
        // Streamed with no declared length, past the cap as well.
        expect(await postChunked(`${s.url}/`, 64, 64 * 1024)).toBe(413);
        // A client that reads only once it has sent everything (curl, most libraries).
        for (const declared of [true, false]) {
          expect(await uploadThenRead(s.port, 4 * 1024 * 1024, declared)).toMatch(
            /^HTTP\/1\.1 413 Payload Too Large\r\n/,
          );
        }
      },
      { maxBodyBytes: 1024 * 1024 },
    );
  });

  it('turns a handler exception into a 500 and keeps serving', async () => {
    const errors: unknown[] = [];
    await withServer(
      (req) => {
        if (new URL(req.url).pathname === '/boom') throw new Error('secret internals');
        return new Response('fine');
      },
      async (s) => {
        const boom = await client.request({ method: 'GET', url: `${s.url}/boom` });
        expect(boom.ok && boom.value.status).toBe(500);
        expect(boom.ok && text(boom.value.body)).toBe('Internal Server Error');
        const next = await client.request({ method: 'GET', url: `${s.url}/next` });
        expect(next.ok && text(next.value.body)).toBe('fine');
        expect(errors).toHaveLength(1);
      },
      { onError: (e) => errors.push(e) },
    );
  });

  it('a rejected promise from the handler is a 500 too', async () => {
    await withServer(
      async () => Promise.reject(new Error('nope')),
      async (s) => {
        const r = await client.request({ method: 'GET', url: s.url });
        expect(r.ok && r.value.status).toBe(500);
      },
    );
  });

  it('HEAD gets headers without a body', async () => {
    await withServer(
      () => new Response('body here', { headers: { 'x-h': 'yes' } }),
      async (s) => {
        const r = await client.request({ method: 'HEAD', url: s.url });
        expect(r.ok && r.value.headers['x-h']).toBe('yes');
        expect(r.ok && r.value.body.length).toBe(0);
      },
    );
  });

  it('a raw handler answers its routes from plain values; null hands the call to the Web handler', async () => {
    const rawSeen: string[] = [];
    await withServer(
      () => new Response('web'),
      async (s) => {
        const post = await fetch(`${s.url}/fast/x?y=1`, { method: 'POST', body: 'url=a' });
        expect(post.status).toBe(202);
        expect(post.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(post.headers.get('content-length')).toBe(String(Buffer.byteLength('déjà')));
        expect(await post.text()).toBe('déjà');
        const head = await fetch(`${s.url}/fast/h`, { method: 'HEAD' });
        expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength('déjà')));
        expect(await head.text()).toBe('');
        expect(await (await fetch(`${s.url}/other`)).text()).toBe('web');
        // Over the cap the socket layer answers 413 before the raw handler sees anything.
        expect((await fetch(`${s.url}/fast/big`, { method: 'POST', body: 'z'.repeat(200) })).status).toBe(
          413,
        );
      },
      {
        maxBodyBytes: 100,
        raw: (req) => {
          rawSeen.push(`${req.method} ${req.url} ${req.body?.toString('utf8') ?? '-'} ${req.remoteAddress}`);
          if (!req.url.startsWith('/fast/')) return null;
          return { status: 202, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'déjà' };
        },
      },
    );
    expect(rawSeen).toEqual([
      'POST /fast/x?y=1 url=a 127.0.0.1',
      'HEAD /fast/h - 127.0.0.1',
      'GET /other - 127.0.0.1',
    ]);
  });

  it('close() also closes idle keep-alive connections', async () => {
    const s = await serve(() => new Response('ok'));
    const agent = new http.Agent({ keepAlive: true });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(s.url, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      });
      expect(status).toBe(200);
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
      await s.close(); // would wait for the keep-alive timeout if idle sockets stayed open
      expect(s.server.listening).toBe(false);
    } finally {
      agent.destroy();
    }
  });
});

describe('readForm()', () => {
  it.each([
    {
      name: 'query only',
      req: () => new Request('http://h/notify?url=http%3A%2F%2Fa%2Ffeed&x=1'),
      want: [
        ['url', 'http://a/feed'],
        ['x', '1'],
      ],
    },
    {
      name: 'query and urlencoded body',
      req: () =>
        new Request('http://h/pleaseNotify?domain=d', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body: 'url1=http%3A%2F%2Fb%2Frss&port=80',
        }),
      want: [
        ['domain', 'd'],
        ['url1', 'http://b/rss'],
        ['port', '80'],
      ],
    },
    {
      name: 'a non-form body is ignored',
      req: () =>
        new Request('http://h/?a=1', {
          method: 'POST',
          headers: { 'content-type': 'text/xml' },
          body: 'b=2',
        }),
      want: [['a', '1']],
    },
  ])('$name', async ({ req, want }) => {
    expect([...(await readForm(req()))]).toEqual(want);
  });
});

/** Sends a chunked POST (no Content-Length) of `count` chunks of `size` bytes; resolves the status. */
function postChunked(url: string, count: number, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    for (let i = 0; i < count; i++) req.write(Buffer.alloc(size, 0x62));
    req.end();
  });
}
