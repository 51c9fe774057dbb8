/**
 * A TCP proxy on loopback in front of a real server (tests of a database going away): `forward`
 * relays connections; `refuse` closes every connection and the port (connections are refused);
 * `blackhole` accepts connections and never answers (a network that drops packets). Not a test file.
 */
import net, { type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

export interface TcpProxy {
  port: number;
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.once('close', () => sockets.delete(s));
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        track(client);
        if (mode !== 'forward') return; // blackhole: held open, never answered
        const upstream = net.connect(targetPort, targetHost);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const stop = async () => {
    for (const s of sockets) s.destroy();
    const s = server;
    server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    async set(next) {
      mode = next;
      // Every connection open now ends, whatever comes next: the database "went away".
      await stop();
      if (next !== 'refuse') await listen();
    },
    close: stop,
  };
}
