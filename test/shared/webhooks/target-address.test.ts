import {
  classifyAddress,
  isAllowedTargetAddress,
  isLocalhostName,
  isPublicAddress,
  literalAddressOf,
} from '../../../shared/webhooks/target-address';

/** Each refused range: its first, an inner and its last address where that matters. */
const nonPublic: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', '"this network" 0/8'],
  ['10.0.0.0', 'private 10/8'],
  ['10.0.0.5', 'private 10/8'],
  ['10.255.255.255', 'private 10/8'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['169.254.169.254', 'link-local (metadata)'],
  ['169.254.0.1', 'link-local'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12'],
  ['192.0.0.8', '192.0.0/24'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.0.1', 'private 192.168/16'],
  ['192.168.255.254', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'v6 unspecified'],
  ['fe80::1', 'v6 link-local'],
  ['fe80::1%eth0', 'v6 link-local with a zone'],
  ['febf::1', 'v6 link-local'],
  ['fc00::1', 'unique-local'],
  ['fd00::1', 'unique-local'],
  ['fdff:ffff::1', 'unique-local'],
  ['ff02::1', 'v6 multicast'],
  ['ff0e::1', 'v6 multicast'],
  ['2001:db8::1', 'v6 documentation'],
  ['3fff::1', 'v6 documentation (RFC 9637)'],
  ['2002:a00:1::1', '6to4 (of 10.0.0.1)'],
  ['2002:808:808::1', '6to4 (refused whole)'],
  ['2001:0:4136:e378::1', 'Teredo'],
  ['2001:2::1', 'v6 benchmarking'],
  ['::a00:1', 'IPv4-compatible (deprecated)'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['100::1', 'v6 discard'],
  ['fec0::1', 'site-local (deprecated)'],
  ['::ffff:10.0.0.5', 'IPv4-mapped private'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local (hex)'],
  ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
  ['0:0:0:0:0:ffff:192.168.1.1', 'IPv4-mapped, long form'],
  ['64:ff9b::10.0.0.5', 'NAT64 of private'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of link-local'],
  ['not-an-ip', 'not an address'],
  ['', 'empty'],
  ['1.2.3', 'incomplete'],
  ['0x7f.1', 'a notation only URL parses'],
];

const loopback = [
  '127.0.0.1',
  '127.1.2.3',
  '127.255.255.255',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '64:ff9b::127.0.0.1',
];

const publicAddresses = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.215.14',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '9.255.255.255',
  '11.0.0.0',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:82a::200e',
  '2001:200::1',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
];

describe('classifyAddress', () => {
  it.each(nonPublic)('refuses %s (%s)', (address) => {
    expect(classifyAddress(address)).toBe('non-public');
    expect(isAllowedTargetAddress(address, true)).toBe(false);
  });

  it.each(loopback)('calls %s loopback: refused deployed, allowed in the local runtime', (address) => {
    expect(classifyAddress(address)).toBe('loopback');
    expect(isAllowedTargetAddress(address, false)).toBe(false);
    expect(isAllowedTargetAddress(address, true)).toBe(true);
  });

  it.each(publicAddresses)('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
    expect(isAllowedTargetAddress(address, false)).toBe(true);
  });
});

describe('the host of a URL', () => {
  // new URL turns these IPv4 notations into the dotted quad, so the literal seen is the address connected to.
  it.each([
    ['http://2130706433/', '127.0.0.1', 'loopback'],
    ['http://0x7f.1/', '127.0.0.1', 'loopback'],
    ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
    ['http://127.1/', '127.0.0.1', 'loopback'],
    ['https://0/', '0.0.0.0', 'non-public'],
    ['https://0xa9fea9fe/', '169.254.169.254', 'non-public'],
    ['https://10.0.0.5./', '10.0.0.5', 'non-public'],
    ['https://%31%30.0.0.1/', '10.0.0.1', 'non-public'],
    ['https://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe', 'non-public'],
    ['https://[fd00::1]:8443/', 'fd00::1', 'non-public'],
    ['https://[::1]/', '::1', 'loopback'],
    ['https://8.8.8.8/', '8.8.8.8', 'public'],
    ['https://[2606:4700::1111]/', '2606:4700::1111', 'public'],
  ])('%s is the literal %s (%s)', (url, literal, expected) => {
    const found = literalAddressOf(new URL(url).hostname);

    expect(found).toBe(literal);
    expect(classifyAddress(found ?? '')).toBe(expected);
  });

  it('finds no literal in a hostname', () => {
    expect(literalAddressOf(new URL('https://hooks.example.com/').hostname)).toBeUndefined();
    expect(literalAddressOf(new URL('https://10.0.0.5.nip.io/').hostname)).toBeUndefined();
  });

  it('knows localhost names, with or without the trailing dot, and nothing that merely contains them', () => {
    expect(['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.localhost.'].map(isLocalhostName)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['localhost.example.com', 'mylocalhost', 'example.com'].map(isLocalhostName)).toEqual([false, false, false]);
  });

  it('classifies in bounded time whatever the input size', () => {
    const long = `${'1'.repeat(100_000)}%${'a'.repeat(100_000)}`;
    const started = process.cpuUsage();
    for (let index = 0; index < 100; index += 1) classifyAddress(long);
    const { user, system } = process.cpuUsage(started);

    expect(classifyAddress(long)).toBe('non-public');
    expect((user + system) / 1000).toBeLessThan(2000);
  });
});
