import { describe, expect, test } from 'vitest'
import { isPublicAddress } from '../../server/webhooks/verifyWebhookUrl'

describe('isPublicAddress', () => {
  test.each([
    ['93.184.215.14'],
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    ['2a00:1450:4001:82b::200e'],
    ['2c0f:fb50:4003::1'],
  ])('default: %s, a global unicast address, is public', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  test.each([
    // IPv4: the special-purpose registry's ranges
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['172.16.0.1', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    // anycast services the classification names apart from unicast: no receiver of ours lives there
    ['192.31.196.1', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['192.88.99.1', 'deprecated 6to4 relay anycast'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::ffff:93.184.215.14', 'IPv4-mapped, even of a public address'],
    ['::ffff:0:5db8:d70e', 'IPv4-translated (SIIT)'],
    ['64:ff9b::5db8:d70e', 'NAT64'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['100::1', 'discard-only'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2002:7f00:1::1', '6to4'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['3fff:fff:ffff::1', 'documentation (RFC 9637), the end of 3fff::/20'],
    ['5f00::1', 'SRv6 SIDs (RFC 9602)'],
    ['4000::1', 'outside 2000::/3, not allocated for global unicast'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local, with a zone'],
    ['fec0::1', 'deprecated site-local'],
    ['ff02::1', 'multicast'],
    ['not an address', 'not an address'],
  ])('behavior: %s (%s) is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })
})
