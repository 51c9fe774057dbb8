/**
 * What a public server owes itself: the receiver, `tidings cloud` and browser mode are reachable
 * from the internet (through the tunnel or a public bind), and a client that connects and then
 * sends nothing, or one header byte a minute, must not hold a socket for ever. Issue 10 measured
 * 1,000 half-sent requests kept 130 s and more, and 20,000 of them making the whole process
 * (API included) answer every connection with a reset, out of file descriptors.
 *
 * So every server built by serve() gets:
 * - time limits: the request's headers within `headersTimeoutMs`, the whole request within
 *   `requestTimeoutMs`, no socket silent longer than `idleTimeoutMs`, keep-alive `keepAliveTimeoutMs`;
 *   node checks the first two every `checkIntervalMs` and we destroy what it reports.
 * - a cap per peer address: one address past `maxConnectionsPerPeer` has its new socket destroyed
 *   at once (one attacker cannot take the room of everyone else);
 * - a total cap: at `maxConnections`, a new connection evicts the oldest one that is not busy
 *   (still sending its headers or its body, or idle between keep-alive requests), so a newcomer
 *   who sends a whole request at once is served even while thousands of slow sockets come from
 *   many addresses; only a connection whose whole request is being answered is busy, and when
 *   every one is, the newcomer is refused.
 * Refused sockets are destroyed, never just end()ed (end() waits for a peer that never closes).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ServeLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerPeer: number;
  checkIntervalMs: number;
}

export const DEFAULT_SERVE_LIMITS: ServeLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  // Well under a 20,000 descriptor limit, and room for every browser tab and tunnel socket.
  maxConnections: 1_024,
  // One aggregator registering many feeds at once (the cloud's tests do 250) stays under it.
  maxConnectionsPerPeer: 256,
  checkIntervalMs: 1_000,
};

export function resolveLimits(partial: Partial<ServeLimits> | undefined): ServeLimits {
  const l = { ...DEFAULT_SERVE_LIMITS, ...partial };
  // node refuses a headers timeout longer than the request timeout.
  l.requestTimeoutMs = Math.max(l.requestTimeoutMs, l.headersTimeoutMs);
  l.maxConnectionsPerPeer = Math.min(l.maxConnectionsPerPeer, l.maxConnections);
  return l;
}

/** A counter of what the guard did: for tests and diagnostics. */
export interface ConnectionStats {
  open: number;
  peers: number;
  refusedPerPeer: number;
  evicted: number;
  refusedFull: number;
}

interface Tracked {
  peer: string;
  /** Whole requests being answered on it now; a busy socket is never evicted. */
  busy: number;
  /** Taken over (a WebSocket): exempt from eviction. */
  kept: boolean;
}

export interface ConnectionGuard {
  stats(): ConnectionStats;
  /** The socket's request was received whole and is being answered; call the result when done. */
  busy(socket: Duplex): () => void;
  /** A socket an upgrade handler took over (WebSocket): never evicted. */
  keep(socket: Duplex): void;
}

/** `::ffff:1.2.3.4` and `1.2.3.4` are one peer. */
const peerOf = (address: string | undefined) => (address ?? '').replace(/^::ffff:/i, '');

export function guardConnections(server: Server, limits: ServeLimits): ConnectionGuard {
  // Insertion order is age order: the first non-busy entry is the oldest eviction candidate.
  const sockets = new Map<Socket, Tracked>();
  const perPeer = new Map<string, number>();
  const stats = { refusedPerPeer: 0, evicted: 0, refusedFull: 0 };

  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // No 'timeout' listener on the server: node destroys a socket silent this long.
  server.timeout = limits.idleTimeoutMs;

  // Before http's own listener, so a refused socket never gets a parser.
  server.prependListener('connection', (socket: Socket) => {
    const peer = peerOf(socket.remoteAddress);
    const count = perPeer.get(peer) ?? 0;
    if (count >= limits.maxConnectionsPerPeer) {
      stats.refusedPerPeer++;
      socket.destroy();
      return;
    }
    if (sockets.size >= limits.maxConnections && !evictOne()) {
      stats.refusedFull++;
      socket.destroy();
      return;
    }
    perPeer.set(peer, count + 1);
    sockets.set(socket, { peer, busy: 0, kept: false });
    socket.once('close', () => {
      if (!sockets.delete(socket)) return;
      const left = (perPeer.get(peer) ?? 1) - 1;
      if (left > 0) perPeer.set(peer, left);
      else perPeer.delete(peer);
    });
  });

  function evictOne(): boolean {
    for (const [socket, t] of sockets) {
      if (t.busy > 0 || t.kept) continue;
      stats.evicted++;
      socket.destroy(); // its 'close' (later) would find it gone: settle the counts now
      sockets.delete(socket);
      const left = (perPeer.get(t.peer) ?? 1) - 1;
      if (left > 0) perPeer.set(t.peer, left);
      else perPeer.delete(t.peer);
      return true;
    }
    return false;
  }

  return {
    stats: () => ({ open: sockets.size, peers: perPeer.size, ...stats }),
    busy: (socket) => {
      const t = sockets.get(socket as Socket);
      if (!t) return () => {};
      t.busy++;
      let done = false;
      return () => {
        if (!done) t.busy--;
        done = true;
      };
    },
    keep: (socket) => {
      const t = sockets.get(socket as Socket);
      if (t) t.kept = true;
    },
  };
}

/**
 * Answers a refused or timed-out request with `status` and closes the socket for good: end()
 * sends the answer, and the socket is destroyed once it is flushed or after a short grace.
 */
export function refuseSocket(socket: Duplex, status: string): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const grace = setTimeout(() => socket.destroy(), 500);
  grace.unref();
  socket.once('close', () => clearTimeout(grace));
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}
