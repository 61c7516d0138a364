import { addressRange, ipLiteral, isPublicAddress, refusedAddressReason } from './address-policy';

describe('webhook address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
    expect(refusedAddressReason(address, false)).toContain(range);
    expect(refusedAddressReason(address, true)).toBeNull();
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public unicast %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
    expect(refusedAddressReason(address, false)).toBeNull();
  });

  it('refuses what is not an address', () => {
    expect(refusedAddressReason('example.com', true)).toContain('not an IP address');
  });

  it('finds IP literals in URL hosts (WHATWG URL normalises numeric IPv4 forms)', () => {
    expect(ipLiteral(new URL('https://[::1]:8443/x').hostname)).toBe('::1');
    expect(ipLiteral(new URL('https://2130706433/').hostname)).toBe('127.0.0.1');
    expect(ipLiteral(new URL('https://0x7f.1/').hostname)).toBe('127.0.0.1');
    expect(ipLiteral('hooks.example.com')).toBeNull();
  });
});
