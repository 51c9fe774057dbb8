import { describe, expect, it } from 'vitest';
import { type AddressClass, classifyAddress, isMetadataHostname, policyFlagFor } from './address-class.ts';
import { checkLiteralHost, isAddressAllowed } from './host-guard.ts';

describe('classifyAddress', () => {
  it.each<[string, AddressClass]>([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.10', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2606:4700::1111', 'public'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['2002:7f00:1::', 'loopback'],
    ['localhost', 'invalid'],
    ['1.2.3', 'invalid'],
    ['1::2::3', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('host policy', () => {
  const closed = { allowLoopback: false, allowPrivate: false };
  const open = { allowLoopback: true, allowPrivate: true };
  it.each([
    ['8.8.8.8', closed, true],
    ['127.0.0.1', closed, false],
    ['127.0.0.1', { allowLoopback: true, allowPrivate: false }, true],
    ['10.0.0.1', { allowLoopback: true, allowPrivate: false }, false],
    ['10.0.0.1', open, true],
    ['fd00::1', open, true],
    ['224.0.0.1', open, false],
    ['255.255.255.255', open, false],
  ])('%s with %o -> allowed %s', (address, policy, allowed) => {
    expect(isAddressAllowed(address, policy).allowed).toBe(allowed);
  });

  it('maps classes to the flag that opens them', () => {
    expect(policyFlagFor('loopback')).toBe('allowLoopback');
    expect(policyFlagFor('uniqueLocal')).toBe('allowPrivate');
    expect(policyFlagFor('multicast')).toBeNull();
  });

  it('checks IP-literal hosts without DNS', () => {
    expect(checkLiteralHost(new URL('http://[::1]:8080/'), closed)?.code).toBe('http.blockedHost');
    expect(checkLiteralHost(new URL('http://example.com/'), closed)).toBeNull();
    expect(checkLiteralHost(new URL('http://8.8.8.8/'), closed)).toBeNull();
  });
});

describe('cloud metadata and link-local (issue 9)', () => {
  const open = { allowLoopback: true, allowPrivate: true };
  it.each([
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:169.254.169.254', 'linkLocal'],
  ] as const)('%s is %s and refused even with every flag on', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
    expect(isAddressAllowed(address, open).allowed).toBe(false);
  });

  it('knows the metadata services by name', () => {
    for (const name of [
      'metadata.google.internal',
      'METADATA.google.internal.',
      'metadata',
      'instance-data',
    ]) {
      expect(isMetadataHostname(name)).toBe(true);
    }
    expect(isMetadataHostname('metadata.example.com')).toBe(false);
  });

  it('still opens private and unique-local ranges with allowPrivate', () => {
    expect(isAddressAllowed('192.168.1.10', open).allowed).toBe(true);
    expect(isAddressAllowed('fd12::1', open).allowed).toBe(true);
  });
});
