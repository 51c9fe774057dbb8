/**
 * Who called, for servers the tunnel relays (the receiver, the sync doors): through a tunnel every
 * request comes from loopback (the tunnel client's socket), and the tunnel server in front names
 * the caller in X-Forwarded-For. Any other socket is the caller itself.
 *
 * Which entry counts is the caller's choice:
 * - 'first', the client's own claim of where it came from: enough for an activity log;
 * - 'last', the one the nearest proxy (our tunnel server) appended: the one a rate limit may count
 *   (entries before it are the caller's word, forged at will).
 */
import { isIP } from 'node:net';

export function forwardedPeer(
  forwardedFor: string | null | undefined,
  remoteAddress: string,
  entry: 'first' | 'last',
): string {
  const address = remoteAddress.startsWith('::ffff:') ? remoteAddress.slice(7) : remoteAddress;
  const loopback = address === '::1' || address.startsWith('127.');
  const forwarded =
    entry === 'first'
      ? forwardedFor?.split(',')[0]?.trim()
      : forwardedFor
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .at(-1);
  if (loopback && forwarded && isIP(forwarded)) return forwarded;
  return address || 'unknown';
}
