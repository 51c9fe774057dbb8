/**
 * Refuses connections to addresses a HostPolicy does not open. The check runs on the RESOLVED
 * address, inside the socket's own `lookup`, so a name that resolves to a public address when
 * checked and a private one when connecting (DNS rebinding) cannot slip through: the address that
 * was checked is the address that is dialled. IP literals skip DNS, so they are checked up front.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { TidingsError } from '../common/errors.ts';
import { type AddressClass, classifyAddress, isMetadataHostname, policyFlagFor } from './address-class.ts';
import { blockedHost, NetFailure } from './net-errors.ts';
import type { HostPolicy } from './types.ts';

export const DEFAULT_HOST_POLICY: HostPolicy = { allowLoopback: false, allowPrivate: false };

/** Whether `policy` lets a connection reach `address`; the class says why not. */
export function isAddressAllowed(
  address: string,
  policy: HostPolicy,
): { allowed: true; kind: AddressClass } | { allowed: false; kind: AddressClass } {
  const kind = classifyAddress(address);
  if (kind === 'public') return { allowed: true, kind };
  const flag = policyFlagFor(kind);
  return { allowed: flag !== null && policy[flag], kind };
}

/** The readable refusal for `host` resolving to `address`, or null when it is allowed. */
export function checkAddress(host: string, address: string, policy: HostPolicy): TidingsError | null {
  const verdict = isAddressAllowed(address, policy);
  return verdict.allowed ? null : blockedHost(host, address, verdict.kind, policy.howToAllow);
}

/**
 * Before any connection: URLs whose host is an IP literal (Node does not call `lookup` for
 * those), and cloud metadata host names (refused by name, whatever they resolve to).
 */
export function checkLiteralHost(url: URL, policy: HostPolicy): TidingsError | null {
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  if (isMetadataHostname(bare)) return blockedHost(bare, bare, 'metadata');
  return isIP(bare) ? checkAddress(bare, bare, policy) : null;
}

/**
 * A `lookup` for http.request / net.connect that resolves normally and drops refused addresses;
 * when none is left it fails with a NetFailure carrying 'http.blockedHost'.
 */
export function guardedLookup(policy: HostPolicy): LookupFunction {
  return (hostname, options, callback) => {
    if (isMetadataHostname(hostname)) {
      return callback(
        new NetFailure(blockedHost(hostname, hostname, 'metadata')) as NodeJS.ErrnoException,
        '',
        0,
      );
    }
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => isAddressAllowed(a.address, policy).allowed);
      if (allowed.length === 0) {
        const first = addresses[0];
        const refusal = first
          ? blockedHost(hostname, first.address, classifyAddress(first.address), policy.howToAllow)
          : blockedHost(hostname, hostname, 'invalid', policy.howToAllow);
        return callback(new NetFailure(refusal) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
