import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackServer, type Reply, startLoopbackServer } from '../test-support/loopback-server';
import { ApiError } from './api-error';
import { createHttpClient } from './http-client';
import type { ConnectionState, RendererClient } from './types';

let server: LoopbackServer | null = null;
let client: RendererClient | null = null;

afterEach(async () => {
  client?.close();
  client = null;
  await server?.close();
  server = null;
});

async function setup(handler: (url: string) => Reply, token: string | null = 'tok-123') {
  server = await startLoopbackServer((req) => handler(req.url));
  client = createHttpClient({ baseUrl: server.baseUrl, token, backoff: () => 10 });
  return { server, client };
}

function reachState(c: RendererClient, target: ConnectionState): Promise<void> {
  if (c.connection() === target) return Promise.resolve();
  return new Promise((resolve) => {
    const off = c.onConnection((state) => {
      if (state === target) {
        off();
        resolve();
      }
    });
  });
}

describe('browser transport: commands', () => {
  it('posts {args} with the bearer token to /api/<method>', async () => {
    const { server, client } = await setup(() => ({
      status: 200,
      body: '{"result":{"groups":[],"nextCursor":null}}',
    }));
    const page = await client.river({ feedId: 3, limit: 20 });
    await client.refresh();
    await client.markRead([1, 2], true);

    expect(page).toEqual({ groups: [], nextCursor: null });
    expect(server.requests.map((r) => [r.method, r.url, JSON.parse(r.body)])).toEqual([
      ['POST', '/api/river', { args: [{ feedId: 3, limit: 20 }] }],
      ['POST', '/api/refresh', { args: [] }],
      ['POST', '/api/markRead', { args: [[1, 2], true] }],
    ]);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok-123');
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
  });

  const answers: {
    name: string;
    reply: Reply;
    result?: unknown;
    error?: { code: string; message: RegExp };
  }[] = [
    { name: 'a result', reply: { status: 200, body: '{"result":[1,2]}' }, result: [1, 2] },
    { name: 'a null result', reply: { status: 200, body: '{"result":null}' }, result: null },
    { name: 'an empty 204', reply: { status: 204 }, result: undefined },
    {
      name: 'an error body',
      reply: {
        status: 400,
        body: '{"error":{"code":"feed.not_found","message":"No feed found at x.example"}}',
      },
      error: { code: 'feed.not_found', message: /^No feed found at x\.example$/ },
    },
    { name: 'a bare 500', reply: { status: 500, body: 'oops' }, error: { code: 'http.500', message: /500/ } },
    {
      name: 'an unreadable 200',
      reply: { status: 200, body: '<html>' },
      error: { code: 'bad_response', message: /read/ },
    },
  ];
  for (const answer of answers) {
    it(`maps ${answer.name}`, async () => {
      const { client } = await setup(() => answer.reply);
      const outcome = client.listFeeds();
      if (answer.error) {
        const err = await outcome.then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe(answer.error.code);
        expect((err as ApiError).message).toMatch(answer.error.message);
      } else {
        expect(await outcome).toEqual(answer.result);
      }
    });
  }

  it('turns a 401 into the unauthorized state and stops calling the server', async () => {
    const { server, client } = await setup((url) =>
      url.startsWith('/api/')
        ? { status: 401, body: '{"error":{"code":"unauthorized","message":"bad token"}}' }
        : { status: 404 },
    );
    server.refuseUpgrades(401);
    await expect(client.listFeeds()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    expect(client.connection()).toBe('unauthorized');
    const before = server.requests.length;
    await expect(client.progress()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(server.requests.length).toBe(before);
  });

  it('is unauthorized without a token and sends nothing', async () => {
    const { server, client } = await setup(() => ({ status: 200, body: '{"result":[]}' }), null);
    expect(client.connection()).toBe('unauthorized');
    await expect(client.listFeeds()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(server.requests).toEqual([]);
    expect(server.socketUrls).toEqual([]);
  });

  it('reports an unreachable server as a network error', async () => {
    const { server, client } = await setup(() => ({ status: 200 }));
    await server.close();
    await expect(client.listFeeds()).rejects.toMatchObject({ code: 'network' });
  });
});

describe('browser transport: events', () => {
  it('opens /api/events with the token and delivers events by name', async () => {
    const { server, client } = await setup(() => ({ status: 200, body: '{"result":null}' }));
    const river: unknown[] = [];
    const notices: unknown[] = [];
    client.on('river.changed', (p) => river.push(p));
    client.on('notice', (p) => notices.push(p));
    await reachState(client, 'open');
    expect(server.socketUrls).toEqual(['/api/events?token=tok-123']);

    const delivered = new Promise<void>((resolve) => client.on('notice', () => resolve()));
    server.broadcast('not json');
    server.broadcast('{"payload":{}}');
    server.broadcast('{"event":"river.changed","payload":{"feedId":4,"newItems":2}}');
    server.broadcast('{"event":"notice","payload":{"level":"info","message":"hi"}}');
    await delivered;

    expect(river).toEqual([{ feedId: 4, newItems: 2 }]);
    expect(notices).toEqual([{ level: 'info', message: 'hi' }]);
  });

  it('reconnects after the socket drops and says so', async () => {
    const { server, client } = await setup(() => ({
      status: 200,
      body: '{"result":{"active":0,"queued":0}}',
    }));
    const states: ConnectionState[] = [];
    client.onConnection((s) => states.push(s));
    await reachState(client, 'open');
    server.dropSockets();
    await reachState(client, 'reconnecting');
    await server.socketCount(2);
    await reachState(client, 'open');
    expect(states).toEqual(['open', 'reconnecting', 'open']);

    const got = new Promise<unknown>((resolve) => client.on('progress', resolve));
    server.broadcast('{"event":"progress","payload":{"active":1,"queued":2}}');
    expect(await got).toEqual({ active: 1, queued: 2 });
  });

  it('stops reconnecting when the token is refused', async () => {
    const { server, client } = await setup((url) =>
      url.startsWith('/api/') ? { status: 401 } : { status: 404 },
    );
    server.refuseUpgrades(401);
    await reachState(client, 'unauthorized');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/progress']);
  });
});
