/**
 * A real HTTP + WebSocket server on 127.0.0.1 for the transport tests. The renderer's tsconfig has
 * no Node types on purpose (browser code), so Node's modules are loaded through non-literal dynamic
 * imports and described by the few members used here.
 */

interface NodeRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): void;
  on(event: 'end', listener: () => void): void;
}
interface NodeResponse {
  writeHead(status: number, headers?: Record<string, string>): void;
  end(body?: string): void;
}
interface NodeServer {
  listen(port: number, host: string, callback: () => void): void;
  address(): { port: number } | string | null;
  close(callback: () => void): void;
  closeAllConnections(): void;
  on(event: 'upgrade', listener: (req: NodeRequest, socket: unknown, head: unknown) => void): void;
}
interface NodeHttp {
  createServer(handler: (req: NodeRequest, res: NodeResponse) => void): NodeServer;
}
interface WsSocket {
  send(data: string): void;
  on(event: 'close', listener: () => void): void;
  terminate(): void;
  close(): void;
}
interface WsServer {
  handleUpgrade(req: NodeRequest, socket: unknown, head: unknown, done: (ws: WsSocket) => void): void;
  close(): void;
}
interface WsModule {
  WebSocketServer: new (options: { noServer: true }) => WsServer;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoopbackServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** URLs the event socket was opened with, in order. */
  socketUrls: string[];
  /** Resolves when the n-th (1-based) event socket has connected. */
  socketCount(n: number): Promise<void>;
  /** Sends a raw text frame to every open event socket. */
  broadcast(text: string): void;
  /** Cuts every open event socket, as a crashed server would. */
  dropSockets(): void;
  /** Refuses further socket upgrades with this status (e.g. 401). */
  refuseUpgrades(status: number): void;
  close(): Promise<void>;
}

export async function startLoopbackServer(
  handler: (request: RecordedRequest) => Reply | Promise<Reply>,
): Promise<LoopbackServer> {
  const http = (await import('node:http' as string)) as NodeHttp;
  const ws = (await import('ws' as string)) as WsModule;
  const requests: RecordedRequest[] = [];
  const socketUrls: string[] = [];
  const sockets = new Set<WsSocket>();
  const waiters: { n: number; resolve: () => void }[] = [];
  let refuseStatus = 0;

  const server = http.createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = new TextDecoder().decode(concat(chunks));
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      void Promise.resolve(handler(recorded)).then((reply) => {
        res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
        res.end(reply.body ?? '');
      });
    });
  });
  const wss = new ws.WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (refuseStatus) {
      (socket as { end(text: string): void }).end(
        `HTTP/1.1 ${refuseStatus} Refused\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      socketUrls.push(req.url ?? '');
      for (const waiter of waiters.filter((w) => socketUrls.length >= w.n)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    socketUrls,
    socketCount: (n) =>
      socketUrls.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    broadcast(text) {
      for (const socket of sockets) socket.send(text);
    },
    dropSockets() {
      for (const socket of sockets) socket.terminate();
      sockets.clear();
    },
    refuseUpgrades(status) {
      refuseStatus = status;
    },
    close() {
      for (const socket of sockets) socket.terminate();
      wss.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
