/**
 * `*.localhost` names are loopback (RFC 6761 §6.3: resolvers SHOULD answer them with the loopback
 * address), as browsers already treat them. getaddrinfo here answers ENOTFOUND for
 * `<id>.localhost`, which is exactly what a localtunnel server on this machine hands out: without
 * this, one Tidings could not read a feed another Tidings hosts behind a local tunnel server.
 * The name is resolved as plain `localhost`, so the host policy still decides (loopback stays
 * refused wherever loopback is).
 */
import type { LookupFunction } from 'node:net';

const LOCALHOST_SUBDOMAIN = /\.localhost\.?$/i;

export function resolveLocalhostNames(inner: LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    inner(LOCALHOST_SUBDOMAIN.test(hostname) ? 'localhost' : hostname, options, callback);
}
