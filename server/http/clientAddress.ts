import { BlockList, isIP } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/** Which `X-Forwarded-For` entry is the client: the number of proxies of ours in front of the server
 * (TRUSTED_PROXY_HOPS; TRUST_PROXY=true is one), or the networks they are in (TRUSTED_PROXY_CIDRS).
 * No hops and no networks: the socket's peer is the client, and the header is never read. */
export type TrustedProxies = { hops: number } | { cidrs: readonly string[] }

/** An address as written, or null: an IP (v4 or v6), with or without a port or brackets. */
export function parseAddress(written: string): { address: string; family: 4 | 6 } | null {
  let text = written.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) text = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'))
  // a zone (fe80::1%eth0) names the server's interface, not the client
  text = text.replace(/%.*$/, '')
  const family = isIP(text)
  if (family === 4) return { address: text, family: 4 }
  if (family !== 6) return null
  // an IPv4 client reached over an IPv6 socket (::ffff:a.b.c.d) is the IPv4 client
  const groups = ipv6Groups(text)
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return { address: [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.'), family: 4 }
  }
  return { address: text.toLowerCase(), family: 6 }
}

/** The eight 16-bit groups of a valid IPv6 address (isIP said so). */
function ipv6Groups(address: string): number[] {
  let text = address
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)))
  const left = parse(head)
  if (tail === undefined) return left
  const right = parse(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/**
 * The key a client is counted under: an IPv4 address as it is, an IPv6 address by its /64. One
 * subscriber is routinely given a whole /64 (RFC 6177), so counting whole addresses would hand a
 * single client 2^64 separate limits.
 */
export function clientKeyOf(written: string): string | null {
  const parsed = parseAddress(written)
  if (!parsed) return null
  if (parsed.family === 4) return parsed.address
  const prefix = ipv6Groups(parsed.address).slice(0, 4).map((group) => group.toString(16))
  return `${prefix.join(':')}::/64`
}

/** A BlockList of the trusted networks; each CIDR was checked when the configuration was read. */
function networksOf(cidrs: readonly string[]): BlockList {
  const networks = new BlockList()
  for (const cidr of cidrs) {
    const [address = '', bits] = cidr.split('/')
    const parsed = parseAddress(address)
    if (!parsed) continue
    const type = parsed.family === 4 ? 'ipv4' : 'ipv6'
    networks.addSubnet(parsed.address, bits === undefined ? (parsed.family === 4 ? 32 : 128) : Number(bits), type)
  }
  return networks
}

/** Whether `cidr` is an address or a network in CIDR notation (for the configuration). */
export function isCidr(cidr: string): boolean {
  const [address = '', bits, ...rest] = cidr.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

/**
 * The address a request is counted under. With hops, the entry that many from the right of
 * `X-Forwarded-For`: each of our proxies appends the address it saw, so the entries to its right
 * were written by our own proxies and the one it names was seen by the outermost of them; anything
 * further left the client may have written itself. With networks, the right-most entry outside them,
 * and only when the peer itself is one of them. An entry that is not an address is never a key
 * (a forged header could otherwise mint keys at will): the peer is counted instead.
 */
export function clientAddress(trusted: TrustedProxies) {
  const networks = 'cidrs' in trusted && trusted.cidrs.length > 0 ? networksOf(trusted.cidrs) : null
  const hops = 'hops' in trusted ? trusted.hops : 0
  const isTrusted = (written: string) => {
    const parsed = parseAddress(written)
    return parsed !== null && networks!.check(parsed.address, parsed.family === 4 ? 'ipv4' : 'ipv6')
  }
  return function clientKey(c: Context): string {
    let peer = 'unknown'
    try {
      peer = getConnInfo(c).remote.address ?? 'unknown'
    } catch {
      // not on a Node socket (app.request in tests): the header alone, when trusted
    }
    const peerKey = clientKeyOf(peer) ?? peer
    if (hops === 0 && !networks) return peerKey
    const header = c.req.header('x-forwarded-for')
    if (!header) return peerKey
    const entries = header.split(',').map((entry) => entry.trim()).filter(Boolean)
    if (entries.length === 0) return peerKey
    let chosen: string
    if (networks) {
      if (peer !== 'unknown' && !isTrusted(peer)) return peerKey
      const index = entries.findLastIndex((entry) => !isTrusted(entry))
      chosen = entries[index === -1 ? 0 : index]!
    } else {
      // fewer entries than proxies: the request skipped one; the left-most is what the first saw
      chosen = entries[Math.max(0, entries.length - hops)]!
    }
    return clientKeyOf(chosen) ?? peerKey
  }
}
