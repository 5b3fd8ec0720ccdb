import { blockedReason } from './outbound-http';

describe('outbound address policy', () => {
  it.each([
    ['169.254.169.254', false, 'a link-local or metadata address'],
    ['169.254.169.254', true, 'a link-local or metadata address'],
    ['fe80::1', true, 'a link-local or metadata address'],
    ['fd00:ec2::254', true, 'a link-local or metadata address'],
    ['::ffff:169.254.169.254', true, 'a link-local or metadata address'],
    ['0.0.0.0', true, 'an unspecified, multicast or reserved address'],
    ['224.0.0.1', true, 'an unspecified, multicast or reserved address'],
    ['127.0.0.1', false, 'a loopback or private address'],
    ['10.1.2.3', false, 'a loopback or private address'],
    ['172.20.0.5', false, 'a loopback or private address'],
    ['192.168.1.10', false, 'a loopback or private address'],
    ['::1', false, 'a loopback or private address'],
    ['fd12:3456::1', false, 'a loopback or private address'],
    ['127.0.0.1', true, null],
    ['10.1.2.3', true, null],
    ['172.32.0.1', false, null],
    ['93.184.216.34', false, null],
    ['2606:2800:220:1::', false, null],
  ])('%s (private allowed: %s) → %s', (address, allowPrivate, reason) => {
    expect(blockedReason(address, allowPrivate)).toBe(reason);
  });
});
