import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses a webhook may be delivered to: public unicast only, so an app cannot make the
 * platform POST into its own network (cloud metadata at 169.254.169.254, VPC hosts, loopback
 * services). Used at registration for IP-literal hosts and at delivery for every address the host
 * resolves to. Every call does a fixed amount of work (an address is at most 45 characters).
 */

export type AddressClass = 'public' | 'loopback' | 'non-public';

/** IPv4 ranges that are not public unicast (IANA special-purpose registry), loopback apart. */
const refusedV4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT shared space
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation TEST-NET-2
  ['203.0.113.0', 24], // documentation TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/**
 * IPv6: only global unicast (2000::/3) can be public, which already leaves out ::, ::1, fc00::/7,
 * fe80::/10, ff00::/8, ::/96 (IPv4-compatible), 64:ff9b:1::/48 (local NAT64) and 100::/64. Inside
 * 2000::/3 these are refused too. 6to4 and Teredo wrap an IPv4 address that could be private; a
 * webhook target has no reason to use them, so they are refused whole rather than unwrapped.
 */
const refusedV6: readonly [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 segment identifiers
];

function blockListOf(ranges: readonly [string, number][], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const refusedV4List = blockListOf(refusedV4, 'ipv4');
const refusedV6List = blockListOf(refusedV6, 'ipv6');

function classifyV4(address: string): AddressClass {
  if (address.startsWith('127.')) return 'loopback';
  return refusedV4List.check(address, 'ipv4') ? 'non-public' : 'public';
}

/** The 8 groups of a valid IPv6 address (without zone), a trailing dotted IPv4 part included. */
function hextetsOf(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const [a = 0, b = 0, c = 0, d = 0] = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = `${text.slice(0, lastColon + 1)}0`; // a placeholder group, dropped below
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', rest] = text.split('::');
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  if (tail.length > 0) (rest === undefined ? left : right).pop();
  const groups = [
    ...left,
    ...new Array<number>(8 - left.length - right.length - tail.length).fill(0),
    ...right,
    ...tail,
  ];
  return groups;
}

function classifyV6(address: string): AddressClass {
  const groups = hextetsOf(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embeddedV4 = () => `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // IPv4-mapped (::ffff:a.b.c.d) and the well-known NAT64 prefix (64:ff9b::a.b.c.d) reach the IPv4 address inside.
  if (upperZero && g5 === 0xffff) return classifyV4(embeddedV4());
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyV4(embeddedV4());
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  if ((g0 & 0xe000) !== 0x2000) return 'non-public';
  return refusedV6List.check(address, 'ipv6') ? 'non-public' : 'public';
}

/** 'public', 'loopback' (127/8, ::1 and their mapped forms) or 'non-public' (anything else, and anything that is not an IP address). */
export function classifyAddress(raw: string): AddressClass {
  const address = raw.replace(/%.*$/s, '');
  const family = isIP(address);
  if (family === 4) return classifyV4(address);
  if (family === 6) return classifyV6(address);
  return 'non-public';
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

/** Public, or loopback where the local runtime allows it. */
export function isAllowedTargetAddress(address: string, allowsLoopback: boolean): boolean {
  const found = classifyAddress(address);
  return found === 'public' || (allowsLoopback && found === 'loopback');
}

/** The IP address a URL's hostname (as `new URL` normalizes it, IPv6 in brackets) names, if it is a literal. */
export function literalAddressOf(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** `localhost` and `*.localhost` (RFC 6761: always loopback), with or without the root's trailing dot. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
