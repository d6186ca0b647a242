import { isPrivateAddress } from '../src/private-addresses.js';

describe('isPrivateAddress', () => {
  it('refuses private, loopback, link-local, shared, reserved and documentation ranges, and non-addresses', () => {
    for (const a of [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.20.0.1',
      '192.0.0.8',
      '192.168.1.1',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      '::FFFF:10.0.0.1',
      'localhost',
      '',
    ])
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
  });

  it('lets public addresses through, IPv4 written inside IPv6 included', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34'])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });
});
