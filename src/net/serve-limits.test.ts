/**
 * serve()'s time limits and connection caps with real sockets on loopback (short limits so the
 * test is quick; the defaults are the same code with longer numbers). Linux routes all of
 * 127.0.0.0/8 to lo, so 127.0.0.2.. stand for other peers.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { waitFor } from '../testing/wait.ts';
import { type RunningServer, type ServeLimits, serve } from './serve.ts';

const open: net.Socket[] = [];
let server: RunningServer | null = null;

afterEach(async () => {
  for (const s of open.splice(0)) s.destroy();
  await server?.close();
  server = null;
});

async function start(limits: Partial<ServeLimits>): Promise<RunningServer> {
  server = await serve(() => new Response('ok'), { limits: { checkIntervalMs: 100, ...limits } });
  return server;
}

/** A raw socket from `from`, resolved once connected (`closed` tells when the server closed it). */
function connect(s: RunningServer, from = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({
      host: '127.0.0.1',
      port: s.port,
      localAddress: from,
    });
    open.push(socket);
    socket.on('error', () => {});
    socket.resume(); // read, so the server's FIN is seen and 'close' comes
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** One whole GET on a fresh connection from `from`: the status line, or the error. */
function get(s: RunningServer, from: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: s.port, localAddress: from });
    open.push(socket);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
    });
    socket.on('close', () => resolve(data.split('\r\n')[0] || 'closed without an answer'));
    socket.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  });
}

describe('serve() limits', () => {
  it('destroys a socket that never sends its headers, and one that sends them too slowly', async () => {
    const s = await start({ headersTimeoutMs: 400, requestTimeoutMs: 2_000 });
    const silent = await connect(s);
    const slow = await connect(s);
    slow.write('GET / HTTP/1.1\r\n');
    const drip = setInterval(() => slow.writable && slow.write('X-a: b\r\n'), 100);
    try {
      await waitFor(() => silent.closed === true && slow.closed === true, 3_000, 'both sockets closed');
    } finally {
      clearInterval(drip);
    }
    expect(s.connections().open).toBe(0);
  });

  it('closes a silent connection without an answer, and answers 408 to one that began a request', async () => {
    // A tunnel client opens connections before it has requests for them: a 408 written on one of
    // them became the answer to the next request sent through it.
    const s = await start({ headersTimeoutMs: 400, requestTimeoutMs: 2_000 });
    const heard = new Map<net.Socket, string>();
    const silent = await connect(s);
    const begun = await connect(s);
    for (const socket of [silent, begun]) {
      heard.set(socket, '');
      socket.on('data', (d: Buffer) => heard.set(socket, heard.get(socket) + d.toString()));
    }
    begun.write('GET / HTTP/1.1\r\n');
    await waitFor(() => silent.closed === true && begun.closed === true, 3_000, 'both sockets closed');
    expect(heard.get(silent)).toBe('');
    expect(heard.get(begun)).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a request whose body trickles in past the request timeout', async () => {
    const s = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const socket = await connect(s);
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    const drip = setInterval(() => socket.writable && socket.write('a'), 100);
    try {
      await waitFor(() => socket.closed === true, 3_000, 'the trickling socket to close');
    } finally {
      clearInterval(drip);
    }
    expect(s.connections().open).toBe(0);
  });

  it('destroys a socket after a bad request even when the client never closes its side', async () => {
    const s = await start({});
    // allowHalfOpen: this client keeps its side open after the server's FIN, as an attacker would.
    const socket = net.connect({ host: '127.0.0.1', port: s.port, allowHalfOpen: true });
    open.push(socket);
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    socket.on('error', () => {});
    await new Promise((r) => socket.once('connect', r));
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await waitFor(() => answer.length > 0, 2_000, 'the answer');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    await waitFor(() => s.connections().open === 0, 2_000, 'the server to let go of the socket');
    const held = await new Promise<number>((r) => s.server.getConnections((_e, n) => r(n)));
    expect(held).toBe(0);
  });

  it('closes a keep-alive connection left idle after its request', async () => {
    const s = await start({ keepAliveTimeoutMs: 300 });
    const socket = await connect(s);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitFor(() => socket.closed === true, 3_000, 'the idle socket to close');
    expect(s.connections().open).toBe(0);
  });

  it('caps connections per peer and keeps serving other peers', async () => {
    const s = await start({ maxConnectionsPerPeer: 5, maxConnections: 50 });
    const held = await Promise.all(Array.from({ length: 8 }, () => connect(s, '127.0.0.1')));
    await waitFor(() => held.filter((x) => x.closed).length === 3, 2_000, 'three refused');
    expect(s.connections()).toMatchObject({ open: 5, refusedPerPeer: 3 });
    expect(await get(s, '127.0.0.2')).toBe('HTTP/1.1 200 OK');
  });

  it('at the total cap, evicts the oldest idle connection so a whole request is still served', async () => {
    const s = await start({ maxConnectionsPerPeer: 3, maxConnections: 9 });
    const held: net.Socket[] = [];
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      for (let i = 0; i < 3; i++) held.push(await connect(s, from));
    }
    await waitFor(() => s.connections().open === 9, 2_000, 'nine open');
    expect(await get(s, '127.0.0.2')).toBe('HTTP/1.1 200 OK');
    expect(s.connections().evicted).toBe(1);
    await waitFor(() => held[0]!.closed, 2_000, 'the oldest idle socket to be closed');
  });

  it('a request still sending its body is not busy: at the cap it is evicted for a whole request', async () => {
    const s = await start({ maxConnectionsPerPeer: 1, maxConnections: 3 });
    const trickling: net.Socket[] = [];
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      const socket = await connect(s, from);
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nab');
      trickling.push(socket);
    }
    await waitFor(() => s.connections().open === 3, 2_000, 'three open');
    expect(await get(s, '127.0.0.2')).toBe('HTTP/1.1 200 OK');
    expect(s.connections()).toMatchObject({ evicted: 1, refusedFull: 0 });
    await waitFor(() => trickling[0]!.closed, 2_000, 'the oldest trickling socket to be closed');
  });

  it('a socket taken over by an upgrade (WebSocket) outlives the timeouts and is never evicted', async () => {
    const s = await start({
      headersTimeoutMs: 300,
      requestTimeoutMs: 400,
      idleTimeoutMs: 300,
      keepAliveTimeoutMs: 300,
      maxConnections: 3,
      maxConnectionsPerPeer: 3,
    });
    const wss = new WebSocketServer({ noServer: true });
    s.server.on('upgrade', (req, socket, head) => {
      s.keep(socket);
      wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', (m) => ws.send(`echo ${m}`)));
    });
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/`);
    try {
      await new Promise((r) => ws.once('open', r));
      // Newcomers at the cap evict idle sockets, never the WebSocket.
      for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) await connect(s, from);
      await waitFor(() => s.connections().evicted === 1, 2_000, 'one idle socket evicted');
      await new Promise((r) => setTimeout(r, 1_000));
      expect(ws.readyState).toBe(WebSocket.OPEN);
      ws.send('still there');
      const answer = await new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
      expect(answer).toBe('echo still there');
    } finally {
      ws.close();
      wss.close();
    }
  });
});
