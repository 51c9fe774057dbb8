import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import type { RunningServer } from '../net/serve.ts';
import { Scheduler } from '../poll/scheduler.ts';
import type { ActivityInput } from '../store/realtime.ts';
import { decodeMethodResponse, encodeMethodCall } from '../wire/xmlrpc.ts';
import { createReceiver, onlyUrlParam, peerOf, type Receiver } from './receiver.ts';
import { startReceiverServer, TUNNEL_SIDE_LIMITS } from './receiver-server.ts';

const TOKEN = 'tok_0123456789abcdef';
const FEED = 'http://feeds.example/a.xml?key=s3cret';
const OTHER = 'http://feeds.example/unknown.xml';
const ORIGIN = 'http://127.0.0.1:9';

interface Harness {
  receiver: Receiver;
  notified: string[];
  log: ActivityInput[];
}

function harness(subscribed = [FEED]): Harness {
  const notified: string[] = [];
  const log: ActivityInput[] = [];
  const receiver = createReceiver({
    token: TOKEN,
    isSubscribed: (url) => subscribed.includes(url),
    onNotify: (url) => {
      notified.push(url);
      return undefined;
    },
    log: (e) => log.push(e),
    maxBodyBytes: 1024,
    clock: new ManualClock('2026-01-01T00:00:00Z'),
  });
  return { receiver, notified, log };
}

const at = (h: Harness, query = '') => `${ORIGIN}${h.receiver.path}${query}`;
const local = { remoteAddress: '127.0.0.1' };

function form(url: string, body: string, type = 'application/x-www-form-urlencoded'): Request {
  return new Request(url, { method: 'POST', body, headers: { 'content-type': type } });
}

function rpc(url: string, xml: string): Request {
  return new Request(url, { method: 'POST', body: xml, headers: { 'content-type': 'text/xml' } });
}

describe('createReceiver', () => {
  it('puts the token in its path and refuses weak tokens', () => {
    expect(harness().receiver.path).toBe(`/rsscloud/${TOKEN}/notify`);
    expect(() => createReceiver({ ...harnessDeps(), token: 'short' })).toThrow(/16 characters/);
    expect(() => createReceiver({ ...harnessDeps(), token: 'has a space in it ok?' })).toThrow();
  });

  const notifications: { name: string; request: (h: Harness) => Request }[] = [
    { name: 'form body', request: (h) => form(at(h), `url=${encodeURIComponent(FEED)}`) },
    {
      name: 'query string',
      request: (h) => new Request(at(h, `?url=${encodeURIComponent(FEED)}`), { method: 'POST' }),
    },
    {
      name: 'form body without a content type',
      request: (h) =>
        new Request(at(h), {
          method: 'POST',
          body: new TextEncoder().encode(`url=${encodeURIComponent(FEED)}`),
        }),
    },
    {
      name: 'form body sent as text/plain',
      request: (h) => form(at(h), `url=${encodeURIComponent(FEED)}`, 'text/plain'),
    },
    {
      name: 'form body with a charset',
      request: (h) =>
        form(at(h), `url=${encodeURIComponent(FEED)}`, 'application/x-www-form-urlencoded; charset=UTF-8'),
    },
  ];
  for (const { name, request } of notifications) {
    it(`queues a fetch for a REST notification (${name}) and answers 200`, async () => {
      const h = harness();
      const res = await h.receiver.handle(request(h), local);
      expect(res.status).toBe(200);
      expect(h.notified).toEqual([FEED]);
      expect(h.log).toHaveLength(1);
      expect(h.log[0]).toMatchObject({
        direction: 'in',
        procedure: 'notify',
        ok: true,
        result: 'fetch queued',
      });
      // Secrets in feed URLs never reach the log.
      expect(h.log[0]!.feedUrl).toBe('http://feeds.example/a.xml?key=***');
    });
  }

  const rpcBodies: { name: string; xml: string }[] = [
    { name: 'typed string', xml: encodeMethodCall('tidings.notify', [FEED]) },
    {
      name: 'untyped value',
      xml: `<?xml version="1.0"?><methodCall><methodName>tidings.notify</methodName><params><param><value>${FEED.replace(/&/g, '&amp;')}</value></param></params></methodCall>`,
    },
    {
      name: 'padded value and other case',
      xml: `\n<methodCall><methodName>Tidings.Notify</methodName><params><param><value><string>  ${FEED}\n</string></value></param></params></methodCall>`,
    },
  ];
  for (const { name, xml } of rpcBodies) {
    it(`queues a fetch for an XML-RPC notification (${name}) and answers boolean true`, async () => {
      const h = harness();
      const res = await h.receiver.handle(rpc(at(h), xml), local);
      expect(res.status).toBe(200);
      const decoded = decodeMethodResponse(await res.text());
      expect(decoded).toEqual({ ok: true, value: { kind: 'value', value: true } });
      expect(h.notified).toEqual([FEED]);
    });
  }

  it('recognises XML-RPC by its body even when the content type says otherwise', async () => {
    const h = harness();
    const res = await h.receiver.handle(
      form(at(h), encodeMethodCall('tidings.notify', [FEED]), 'text/plain'),
      local,
    );
    expect(res.status).toBe(200);
    expect(h.notified).toEqual([FEED]);
  });

  const refusals: { name: string; request: (h: Harness) => Request; status: number; result: RegExp }[] = [
    {
      name: 'REST for an unknown feed',
      request: (h) => form(at(h), `url=${OTHER}`),
      status: 404,
      result: /not subscribed/,
    },
    {
      name: 'XML-RPC for an unknown feed',
      request: (h) => rpc(at(h), encodeMethodCall('tidings.notify', [OTHER])),
      status: 404,
      result: /not subscribed/,
    },
    {
      name: 'XML-RPC of another procedure',
      request: (h) => rpc(at(h), encodeMethodCall('weblogUpdates.ping', [FEED])),
      status: 404,
      result: /not our notify procedure/,
    },
    {
      name: 'XML-RPC with two params',
      request: (h) => rpc(at(h), encodeMethodCall('tidings.notify', [FEED, FEED])),
      status: 400,
      result: /one string parameter/,
    },
    {
      name: 'XML-RPC with an int param',
      request: (h) => rpc(at(h), encodeMethodCall('tidings.notify', [5])),
      status: 400,
      result: /one string parameter/,
    },
    {
      name: 'malformed XML-RPC',
      request: (h) => rpc(at(h), '<methodCall><methodName>x</methodName'),
      status: 400,
      result: /not well-formed|could not be parsed/,
    },
    {
      name: 'XML-RPC with a DOCTYPE',
      request: (h) =>
        rpc(
          at(h),
          '<!DOCTYPE x [<!ENTITY a "b">]><methodCall><methodName>tidings.notify</methodName></methodCall>',
        ),
      status: 400,
      result: /DOCTYPE/,
    },
    { name: 'a POST without url', request: (h) => form(at(h), 'uri=x'), status: 400, result: /no url/ },
    {
      name: 'a body over the cap',
      request: (h) => form(at(h), `url=${'x'.repeat(2000)}`),
      status: 413,
      result: /413/,
    },
  ];
  for (const { name, request, status, result } of refusals) {
    it(`refuses ${name} with ${status}, logs it and fetches nothing`, async () => {
      const h = harness();
      const res = await h.receiver.handle(request(h), local);
      expect(res.status).toBe(status);
      expect(h.notified).toEqual([]);
      expect(h.log).toHaveLength(1);
      expect(h.log[0]!.ok).toBe(false);
      expect(h.log[0]!.result).toMatch(result);
    });
  }

  it('answers alike through a socket (the fast path) and as a Request handler', async () => {
    const challenge = `?url=${encodeURIComponent(FEED)}&challenge=${encodeURIComponent('aB3 +/=&ü')}`;
    const calls: ((h: Harness) => Request)[] = [
      ...notifications.map((n) => n.request),
      ...refusals.map((r) => r.request),
      (h) => new Request(at(h, challenge)),
      (h) => new Request(at(h, challenge), { method: 'HEAD' }),
      (h) => new Request(at(h, `?url=${OTHER}&challenge=abc`)),
      (h) => new Request(at(h), { method: 'PUT', body: 'x' }),
      (h) => form(at(h), `url=${encodeURIComponent(OTHER)}`),
    ];
    const direct = harness();
    const wired = harness();
    const server = await startReceiverServer({ receiver: wired.receiver });
    try {
      for (const call of calls) {
        const expected = await direct.receiver.handle(call(direct), local);
        const sent = call(wired);
        const body = sent.method === 'GET' || sent.method === 'HEAD' ? undefined : await sent.arrayBuffer();
        const url = new URL(sent.url);
        const got = await fetch(`${server.url}${url.pathname}${url.search}`, {
          method: sent.method,
          headers: sent.headers,
          body,
        });
        const what = `${sent.method} ${url.search} ${body ? new TextDecoder().decode(body).slice(0, 40) : ''}`;
        expect(got.status, what).toBe(expected.status);
        expect(got.headers.get('content-type'), what).toBe(expected.headers.get('content-type'));
        expect(got.headers.get('x-content-type-options'), what).toBe(
          expected.headers.get('x-content-type-options'),
        );
        expect(await got.text(), what).toBe(sent.method === 'HEAD' ? '' : await expected.text());
      }
    } finally {
      await server.close();
    }
    expect(wired.notified).toEqual(direct.notified);
    expect(wired.notified.length).toBeGreaterThan(0);
    const strip = (log: ActivityInput[]) => log.map(({ latencyMs: _, ...e }) => e);
    // Over the cap of every route, the socket layer answers the 413 before the receiver sees it.
    const receiverOnly = direct.log.filter((e) => !e.result.startsWith('413'));
    expect(strip(wired.log)).toEqual(strip(receiverOnly));
  });

  it('echoes a challenge exactly, only for a feed we asked about', async () => {
    const h = harness();
    const challenge = 'aB3 +/=&ü-xyz';
    const q = `?url=${encodeURIComponent(FEED)}&challenge=${encodeURIComponent(challenge)}`;
    const res = await h.receiver.handle(new Request(at(h, q)), local);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(challenge);
    expect(h.notified).toEqual([]); // a verification is not a notification

    const unknown = await h.receiver.handle(new Request(at(h, `?url=${OTHER}&challenge=abc`)), local);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('abc');
    const noChallenge = await h.receiver.handle(
      new Request(at(h, `?url=${encodeURIComponent(FEED)}`)),
      local,
    );
    expect(noChallenge.status).toBe(404);
    expect(h.log.map((e) => [e.procedure, e.ok])).toEqual([
      ['challenge', true],
      ['challenge', false],
      ['challenge', false],
    ]);
  });

  it('answers 404 to anything off its path or with another method, without logging strangers', async () => {
    const h = harness();
    const paths = [
      '/',
      '/rsscloud/',
      `/rsscloud/${TOKEN}x/notify`,
      `/rsscloud/${TOKEN.slice(1)}/notify`,
      '/api/river',
    ];
    for (const p of paths) {
      const res = await h.receiver.handle(form(`${ORIGIN}${p}`, `url=${encodeURIComponent(FEED)}`), local);
      expect(res.status).toBe(404);
    }
    expect((await h.receiver.handle(new Request(at(h), { method: 'PUT', body: 'x' }), local)).status).toBe(
      404,
    );
    expect(h.notified).toEqual([]);
    expect(h.log).toEqual([]);
  });

  it('names the peer: the socket, or the forwarded address when a local tunnel relays', () => {
    const req = (xff?: string) => new Request(ORIGIN, { headers: xff ? { 'x-forwarded-for': xff } : {} });
    expect(peerOf(req(), '203.0.113.9')).toBe('203.0.113.9');
    expect(peerOf(req('198.51.100.7, 10.0.0.1'), '127.0.0.1')).toBe('198.51.100.7');
    expect(peerOf(req('198.51.100.7'), '::ffff:127.0.0.1')).toBe('198.51.100.7');
    expect(peerOf(req('198.51.100.7'), '203.0.113.9')).toBe('203.0.113.9');
    expect(peerOf(req('not-an-ip'), '127.0.0.1')).toBe('127.0.0.1');
  });
});

function harnessDeps() {
  return { token: TOKEN, isSubscribed: () => true, onNotify: () => undefined, log: () => {} };
}

describe('the receiver on a socket', () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('serves the receiver and its mounts, 404 for everything else, and caps bodies', async () => {
    const h = harness();
    const mounted: string[] = [];
    server = await startReceiverServer({
      receiver: h.receiver,
      extra: [
        {
          prefix: '/cloud',
          maxBodyBytes: 64 * 1024,
          handle: async (req) => {
            mounted.push(`${req.method} ${new URL(req.url).pathname} ${await req.text()}`);
            return new Response('cloud');
          },
        },
      ],
    });
    expect(server.host).toBe('127.0.0.1');
    const post = (path: string, body: string) =>
      fetch(`${server!.url}${path}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    expect((await post(h.receiver.path, `url=${encodeURIComponent(FEED)}`)).status).toBe(200);
    expect(h.notified).toEqual([FEED]);
    const big = await post(h.receiver.path, `url=${'x'.repeat(4000)}`);
    expect(big.status).toBe(413);
    const cloud = await post('/cloud/ping', `url=${'y'.repeat(4000)}`);
    expect(await cloud.text()).toBe('cloud');
    expect(mounted).toEqual([`POST /ping url=${'y'.repeat(4000)}`]);
    for (const path of ['/', '/api/river', '/index.html', '/cloudy', '/rsscloud/x/notify']) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    }
    // A body too large for every route is refused at the socket.
    expect((await post('/cloud/ping', 'z'.repeat(70 * 1024))).status).toBe(413);
    expect(h.notified).toEqual([FEED]);
  });

  it('reads a path with dot segments as URL parsing does, as before the fast path', async () => {
    const h = harness();
    server = await startReceiverServer({ receiver: h.receiver });
    const body = `url=${encodeURIComponent(FEED)}`;
    // fetch() would normalise the path itself: write the request by hand.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server!.port, '127.0.0.1', () => {
        socket.end(
          `POST /rsscloud/x/../${TOKEN}/./notify HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(h.notified).toEqual([FEED]);
  });

  it('refuses mount prefixes that would shadow the receiver', () => {
    const h = harness();
    const handle = async () => new Response('');
    expect(() =>
      startReceiverServer({ receiver: h.receiver, extra: [{ prefix: '/rsscloud', handle }] }),
    ).toThrow();
    expect(() =>
      startReceiverServer({ receiver: h.receiver, extra: [{ prefix: 'cloud', handle }] }),
    ).toThrow();
  });

  it('coalesces a burst of notifications for a feed being fetched into one follow-up fetch', async () => {
    const clock = new ManualClock();
    let runs = 0;
    let release: () => void = () => {};
    const scheduler = new Scheduler({
      clock,
      hostOf: () => 'feeds.example',
      run: () => {
        runs++;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    scheduler.start();
    const receiver = createReceiver({
      token: TOKEN,
      isSubscribed: (url) => url === FEED,
      onNotify: () => {
        scheduler.fetchNow(1);
        return undefined;
      },
      log: () => {},
    });
    server = await startReceiverServer({ receiver });
    const notify = () =>
      fetch(`${server!.url}${receiver.path}`, {
        method: 'POST',
        body: `url=${encodeURIComponent(FEED)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }).then((r) => r.status);

    expect(await notify()).toBe(200);
    expect(runs).toBe(1); // the first fetch is running (and held)
    const statuses = await Promise.all(Array.from({ length: 20 }, notify));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(runs).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(2); // exactly one follow-up
    release();
    await scheduler.idle();
    expect(runs).toBe(2);
    await scheduler.stop();
  });

  it("on the tunnel's own port, an idle connection opened ahead of its request is kept, not closed after 5 s", async () => {
    // The localtunnel client connects before the tunnel server has a request for the socket; a
    // request sent on a connection we were closing was lost (receiver-server.ts).
    const h = harness();
    const plain = await startReceiverServer({ receiver: h.receiver });
    const tunnelSide = await startReceiverServer({ receiver: h.receiver, limits: TUNNEL_SIDE_LIMITS });
    try {
      const open = (port: number) =>
        new Promise<{ socket: ReturnType<typeof connect>; closed: () => boolean }>((resolve) => {
          let closed = false;
          const socket = connect(port, '127.0.0.1', () => resolve({ socket, closed: () => closed }));
          socket.on('close', () => {
            closed = true;
          });
          socket.on('error', () => undefined);
        });
      const early = await open(plain.port);
      const ahead = await open(tunnelSide.port);
      await new Promise((r) => setTimeout(r, 6_500)); // past the default 5 s keep-alive
      expect(early.closed()).toBe(true);
      expect(ahead.closed()).toBe(false);
      const body = `url=${encodeURIComponent(FEED)}`;
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        ahead.socket.on('data', (chunk) => {
          text += chunk.toString('latin1');
          if (text.includes('\r\n\r\n')) resolve(text);
        });
        ahead.socket.on('error', reject);
        ahead.socket.write(
          `POST /rsscloud/${TOKEN}/notify HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(h.notified).toEqual([FEED]);
      ahead.socket.destroy();
    } finally {
      await Promise.all([plain.close(), tunnelSide.close()]);
    }
  });
});

describe('onlyUrlParam, the fast read of a notification body', () => {
  const bodies = [
    `url=${encodeURIComponent('https://example.com/feed.xml?a=1&b=ü')}`,
    'url=http://example.com/a+b%2Bc',
    'url=http%3A%2F%2Fexample.com%2F%E2%82%AC',
    'url=',
    'url=%zz',
    'url=%E2%82',
    'url=%FF',
    'url=a&url=b',
    'url=a=b',
    'uri=x',
    'url',
    ' url=x',
    'URL=x',
    'url=caf\u00e9',
    'url=%00%09x',
  ];

  it('reads what URLSearchParams reads, or leaves the body to it', () => {
    let fast = 0;
    for (const text of bodies) {
      const got = onlyUrlParam(Buffer.from(text));
      if (got === null) continue;
      fast++;
      expect(got, text).toBe(new URLSearchParams(text).get('url'));
    }
    expect(fast).toBeGreaterThanOrEqual(4); // the plain forms take the fast read
  });

  it('leaves bodies with more parameters, odd escapes or raw non-ASCII to the general parser', () => {
    for (const text of ['url=a&url=b', 'url=a=b', 'url=%zz', 'url=%FF', 'url=caf\u00e9', 'uri=x'])
      expect(onlyUrlParam(Buffer.from(text)), text).toBeNull();
  });
});
