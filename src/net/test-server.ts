/**
 * Real HTTP servers on 127.0.0.1 for the net tests (never mocks): records what each request
 * carried and how many sockets were opened, and closes every socket on close().
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Sockets accepted so far (keep-alive reuse keeps this at 1). */
  connections(): number;
  close(): Promise<void>;
}

/** Return values are ignored (so `(req, res) => res.end()` is fine). */
export type TestHandler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export async function startServer(handler: TestHandler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      try {
        await handler(req, res, body);
      } catch {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that hangs up mid-answer (caps, timeouts) is expected here.
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
