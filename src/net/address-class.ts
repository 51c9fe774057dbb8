/**
 * What kind of address an IP is, for the host guard (STYLE §8: outbound calls to user-supplied
 * URLs refuse private hosts). Pure functions, no DNS: the cloud reuses them to vet callback
 * addresses. IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16) IPv6 addresses are judged by the IPv4 address they carry.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'uniqueLocal'
  /** A cloud provider's instance-metadata service (never reachable: credentials live there). */
  | 'metadata'
  | 'multicast'
  | 'unspecified'
  | 'reserved'
  | 'invalid';

/**
 * The classes a HostPolicy flag opens; the rest of the non-public ones are never reachable.
 * Link-local (169.254.0.0/16, fe80::/10) is never opened (issue 9): no feed lives there, and
 * cloud metadata services (169.254.169.254) do, with the machine's credentials.
 */
export function policyFlagFor(kind: AddressClass): 'allowLoopback' | 'allowPrivate' | null {
  switch (kind) {
    case 'loopback':
    case 'unspecified': // connecting to 0.0.0.0 or :: reaches this machine
      return 'allowLoopback';
    case 'private':
    case 'uniqueLocal':
      return 'allowPrivate';
    default:
      return null;
  }
}

/** Classifies an IP address string (IPv6 may be written with or without brackets or a zone). */
export function classifyAddress(address: string): AddressClass {
  let ip = address.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone !== -1) ip = ip.slice(0, zone);
  if (isIPv4(ip)) return classifyIPv4(ip.split('.').map(Number) as [number, number, number, number]);
  if (isIPv6(ip)) {
    const words = parseIPv6(ip);
    return words ? classifyIPv6(words) : 'invalid';
  }
  return 'invalid';
}

/**
 * Host names of instance-metadata services (GCP, Azure, AWS, Alibaba, OpenStack...). Their
 * addresses are link-local or listed in METADATA_V4/V6; the names are refused before any lookup,
 * so a local DNS answer cannot map them somewhere "allowed".
 */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.packet.net',
  'metadata.platformequinix.com',
]);
/** Metadata services outside link-local: Alibaba Cloud (in 100.64/10), Oracle's is link-local. */
const METADATA_V4 = new Set(['100.100.100.200']);

/** Whether a host name (not an address) names a cloud metadata service. */
export function isMetadataHostname(hostname: string): boolean {
  const h = hostname.trim().toLowerCase().replace(/\.$/, '');
  return METADATA_NAMES.has(h);
}

function classifyIPv4([a, b, c, d]: [number, number, number, number]): AddressClass {
  if (METADATA_V4.has(`${a}.${b}.${c}.${d}`)) return 'metadata';
  if (a === 0) return 'unspecified'; // 0.0.0.0/8 "this network"
  if (a === 127) return 'loopback';
  if (a === 10) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT, RFC 6598
  if (a === 198 && (b === 18 || b === 19)) return 'private'; // benchmarking, RFC 2544
  if (a === 169 && b === 254) return 'linkLocal';
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved'; // 240/4 and the broadcast address
  return 'public';
}

function classifyIPv6(w: number[]): AddressClass {
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  const v4 = (hi: number, lo: number) =>
    classifyIPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff] as [number, number, number, number]);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && w[7] === 1) return 'loopback';
  if (zeroUpTo(5) && w[5] === 0xffff) return v4(w[6]!, w[7]!); // IPv4-mapped
  if (zeroUpTo(6)) return v4(w[6]!, w[7]!); // IPv4-compatible (deprecated)
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return v4(w[6]!, w[7]!);
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!); // 6to4
  const first = w[0]!;
  // AWS's IPv6 metadata service, fd00:ec2::254 (inside unique-local, which a setting may open).
  if (first === 0xfd00 && w[1] === 0x0ec2 && w.slice(2, 7).every((x) => x === 0) && w[7] === 0x254) {
    return 'metadata';
  }
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if ((first & 0xffc0) === 0xfe80) return 'linkLocal';
  if ((first & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((first & 0xfe00) === 0xfc00) return 'uniqueLocal';
  if (first === 0x2001 && w[1] === 0x0db8) return 'reserved'; // documentation
  return 'public';
}

/** Eight 16-bit words, or null. Accepts `::` compression and a trailing dotted IPv4. */
function parseIPv6(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const maybeV4 = text.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    if (!isIPv4(maybeV4)) return null;
    const [a, b, c, d] = maybeV4.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    // "::1.2.3.4" -> "::" + tail; "::ffff:1.2.3.4" -> "::ffff" + tail
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => Number.parseInt(h, 16)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fixed = head.length + rest.length + tail.length;
  if (halves.length === 1 && fixed !== 8) return null;
  if (fixed > 8) return null;
  const words = [...head, ...new Array(halves.length === 2 ? 8 - fixed : 0).fill(0), ...rest, ...tail];
  return words.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? words : null;
}
