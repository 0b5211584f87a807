import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { CodedError } from '../../shared/codedError'

/** Why a URL is refused: not an http(s) URL fit to call, a host that does not resolve (in time), or
 * one that resolves (in part) off the public internet. */
export type WebhookUrlRefusal = 'invalid' | 'unresolved' | 'not_public'

/** A webhook URL the server will not call: not http(s), or its host resolves (in part) to an address
 * that is not on the public internet. Said at registration and at each delivery. */
export class WebhookUrlRefusedError extends CodedError<{ reason: WebhookUrlRefusal }> {
  override name = 'WebhookUrlRefusedError'
  readonly code = 'WEBHOOK_URL_REFUSED'
}

/** Resolves a host name to every address it has. */
export type HostLookup = (hostname: string) => Promise<{ address: string; family: number }[]>

export type VerifyWebhookUrlDependencies = {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: loopback and private networks too (the devnet, a merchant trying it locally). */
  allowPrivate: boolean
  lookup?: HostLookup
  /** How long the host's resolution may take: a resolver that never answers must not hold a
   * registration or a delivery pass. */
  lookupTimeoutMs?: number
}

/** Where the request goes: the URL and the one address it was checked at, to connect to no other. */
export type WebhookDestination = { url: URL; address: string; family: 4 | 6 }

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/** Addresses that are not the public internet's (IANA special-purpose registries): the server's own
 * host, its networks, link-local (cloud metadata), documentation, multicast and reserved ranges, and
 * IPv6 forms that embed or translate to IPv4 ones. */
const nonPublic = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) nonPublic.addSubnet(network, prefix, 'ipv6')

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) reaches the IPv4 address inside; BlockList reads an ipv6 rule
 * for it as covering every IPv4 address, so it is recognised by its canonical spelling instead. */
function isMapped(address: string): boolean {
  // ::ffff:0:0/96 mapped, ::ffff:0:0:0/96 SIIT-translated and ::/96 IPv4-compatible: each carries an
  // IPv4 address in its last 32 bits that some stacks still route to.
  return /^\[::(ffff:(0:)?)?([0-9a-f]{1,4}:)?[0-9a-f]{1,4}\]$/.test(new URL(`http://[${address}]`).hostname)
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (family === 6 && isMapped(address)) return false
  return !nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * The URL a webhook may be sent to, with the address to send it to, or a WebhookUrlRefusedError
 * saying why not. Every address the host resolves to must be public, not just the first: a
 * resolver's answer order is the host owner's to choose. The caller connects to the address returned,
 * so a second resolution (DNS rebinding) cannot send the request elsewhere.
 */
export async function verifyWebhookUrl(text: string, { allowPrivate, lookup = systemLookup, lookupTimeoutMs = 2_000 }: VerifyWebhookUrlDependencies): Promise<WebhookDestination> {
  const invalid = { details: { reason: 'invalid' } } as const
  if (!URL.canParse(text)) throw new WebhookUrlRefusedError('the webhook URL is not a URL', invalid)
  const url = new URL(text)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookUrlRefusedError('the webhook URL must be http or https', invalid)
  if (url.username || url.password) throw new WebhookUrlRefusedError('the webhook URL must not carry a user name or password: put a token in its path or query instead', invalid)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: { address: string; family: number }[]
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }]
  } else {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), lookupTimeoutMs) })
    let answer: { address: string; family: number }[] | 'timeout'
    try {
      answer = await Promise.race([lookup(host), timedOut])
    } catch {
      answer = []
    } finally {
      clearTimeout(timer)
    }
    const unresolved = { details: { reason: 'unresolved' } } as const
    if (answer === 'timeout') throw new WebhookUrlRefusedError(`the webhook URL's host ${host} did not resolve within ${lookupTimeoutMs} ms`, unresolved)
    addresses = answer
    if (addresses.length === 0) throw new WebhookUrlRefusedError(`the webhook URL's host ${host} does not resolve`, unresolved)
  }
  if (!allowPrivate) {
    const hidden = addresses.filter(({ address }) => !isPublicAddress(address))
    if (hidden.length > 0) {
      throw new WebhookUrlRefusedError(
        `the webhook URL's host ${host} resolves to ${hidden.map(({ address }) => address).join(', ')}, which is not a public address: use a URL reachable on the internet`,
        { details: { reason: 'not_public' } },
      )
    }
  }
  const { address, family } = addresses[0]!
  return { url, address, family: family === 6 ? 6 : 4 }
}
