/**
 * The fast lane for raw routes (lean-lane.ts) answers as node:http would, hands every other
 * request to node:http with its bytes intact, and holds no socket node would have closed.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RawHandler, type RunningServer, serve } from './serve.ts';

const open: RunningServer[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const raw: RawHandler = (req) => {
  if (!req.url.startsWith('/raw')) return null;
  if (req.url === '/raw/throw') throw new Error('boom');
  return {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: `raw ${req.url} ${Buffer.from(req.body ?? []).toString()} from ${req.remoteAddress}`,
  };
};

async function start(opts: { keepAliveTimeoutMs?: number } = {}) {
  const errors: unknown[] = [];
  const server = await serve(async (req) => new Response(`web ${new URL(req.url).pathname}`), {
    raw,
    maxBodyBytes: 64,
    onError: (e) => errors.push(e),
    limits: opts.keepAliveTimeoutMs ? { keepAliveTimeoutMs: opts.keepAliveTimeoutMs } : {},
  });
  open.push(server);
  let nodeRequests = 0;
  server.server.on('request', () => nodeRequests++);
  return { server, errors, nodeRequests: () => nodeRequests };
}

/** A raw socket that collects whole answers (Content-Length framed). */
function client(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buf = '';
  const answers: { head: string; body: string }[] = [];
  const waiters: (() => void)[] = [];
  socket.on('data', (d) => {
    buf += d.toString('latin1');
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) break;
      const head = buf.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buf.length < end + 4 + length) break;
      answers.push({ head, body: buf.slice(end + 4, end + 4 + length) });
      buf = buf.slice(end + 4 + length);
      for (const w of waiters.splice(0)) w();
    }
  });
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  return {
    socket,
    answers,
    closed,
    send: (text: string) => socket.write(text),
    async wait(n: number) {
      while (answers.length < n) await new Promise<void>((r) => waiters.push(r));
      return answers;
    },
  };
}

const post = (path: string, body = 'hi', extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
/** The answer's head without its Date, names lower-cased, in order. */
const shape = (head: string) =>
  head
    .split('\r\n')
    .filter((l) => !/^date:/i.test(l))
    .map((l) => (l.includes(':') ? l.replace(/^[^:]+/, (n) => n.toLowerCase()) : l));

describe('the fast lane for raw routes', () => {
  it('answers a plain raw request itself, exactly as node:http answers the same route', async () => {
    const { server, nodeRequests } = await start();
    const lane = client(server.port);
    lane.send(post('/raw/a'));
    const [fast] = await lane.wait(1);
    expect(nodeRequests()).toBe(0); // node:http never saw it

    // The same request behind one that needs node (Expect): node answers both.
    const slow = client(server.port);
    slow.send(post('/raw/a', 'hi', 'Expect: 100-continue\r\n'));
    await new Promise((r) => setTimeout(r, 10));
    slow.send(post('/raw/a'));
    const answers = (await slow.wait(2)).filter((a) => a.body.startsWith('raw'));
    const viaNode = answers.at(-1)!;
    expect(nodeRequests()).toBeGreaterThan(0);

    expect(fast!.body).toBe('raw /raw/a hi from 127.0.0.1');
    expect(fast!.body).toBe(viaNode.body);
    expect(shape(fast!.head).sort()).toEqual(shape(viaNode.head).sort());
    expect(fast!.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    lane.socket.destroy();
    slow.socket.destroy();
  });

  it('answers requests sent together in order, and hands the connection over at the first one it does not take', async () => {
    const { server, nodeRequests } = await start();
    const c = client(server.port);
    c.send(post('/raw/1') + post('/raw/2'));
    await c.wait(2);
    c.send(post('/web/3'));
    await c.wait(3);
    c.send(post('/raw/4'));
    const answers = await c.wait(4);
    expect(answers.map((a) => a.body)).toEqual([
      'raw /raw/1 hi from 127.0.0.1',
      'raw /raw/2 hi from 127.0.0.1',
      'web /web/3',
      'raw /raw/4 hi from 127.0.0.1',
    ]);
    expect(nodeRequests()).toBe(2); // the web request and the raw one after it
    c.socket.destroy();
  });

  it('a request split across packets goes to node:http whole', async () => {
    const { server } = await start();
    const c = client(server.port);
    const text = post('/raw/split', 'body!');
    c.send(text.slice(0, 20));
    await new Promise((r) => setTimeout(r, 20));
    c.send(text.slice(20));
    const [answer] = await c.wait(1);
    expect(answer!.body).toBe('raw /raw/split body! from 127.0.0.1');
    c.socket.destroy();
  });

  it("leaves what is not plain to node's own answers: a body over the cap, chunked, a bad header", async () => {
    const { server } = await start();
    const big = client(server.port);
    big.send(post('/raw/big', 'x'.repeat(100)));
    expect((await big.wait(1))[0]!.head).toMatch(/^HTTP\/1\.1 413/);

    const chunked = client(server.port);
    chunked.send('POST /raw/c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n');
    expect((await chunked.wait(1))[0]!.body).toBe('raw /raw/c ok from 127.0.0.1');

    const bad = client(server.port);
    bad.send('POST /raw/b HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\nContent-Length: 2\r\n\r\nhi');
    await bad.closed;
    expect(bad.answers.map((a) => a.head.split('\r\n')[0])).toEqual(['HTTP/1.1 400 Bad Request']);
    // What node refuses stays refused: no Host, a control character in the target.
    for (const text of [
      'POST /raw/h HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi',
      'POST /raw/\x01 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi',
    ]) {
      const refused = client(server.port);
      refused.send(text);
      await refused.closed;
      expect(refused.answers[0]?.head.split('\r\n')[0], JSON.stringify(text)).toBe(
        'HTTP/1.1 400 Bad Request',
      );
      expect(refused.answers.some((a) => a.body.startsWith('raw'))).toBe(false);
    }
    for (const c of [big, chunked]) c.socket.destroy();
  });

  it('a raw handler that throws answers 500 and is reported', async () => {
    const { server, errors } = await start();
    const c = client(server.port);
    c.send(post('/raw/throw'));
    const [answer] = await c.wait(1);
    expect(answer!.head).toMatch(/^HTTP\/1\.1 500/);
    expect(errors).toHaveLength(1);
    c.socket.destroy();
  });

  it('closes a lane socket left idle, and close() ends the ones still open', async () => {
    const { server } = await start({ keepAliveTimeoutMs: 200 });
    const idle = client(server.port);
    idle.send(post('/raw/idle'));
    await idle.wait(1);
    await idle.closed; // closed by the server after keepAliveTimeoutMs

    const kept = client(server.port);
    kept.send(post('/raw/kept'));
    await kept.wait(1);
    await server.close();
    open.splice(open.indexOf(server), 1);
    await kept.closed;
  });
});
