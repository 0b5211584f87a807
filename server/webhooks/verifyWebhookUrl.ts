import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
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

/** IPv6's global unicast space (RFC 4291 2.4): everything outside it is loopback, embedded IPv4
 * (mapped, compatible, translated), unique-local, link-local, multicast, or not allocated for
 * unicast at all (such as 5f00::/16, SRv6 SIDs). */
const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3')

/**
 * Whether an address is on the public internet: ipaddr.js's classification of the IANA
 * special-purpose registries says `unicast` (every other name it gives is a range no receiver of
 * ours lives in: private, loopback, link-local where clouds serve credentials, documentation,
 * benchmarking, 6to4, Teredo, NAT64, …), and an IPv6 address is within 2000::/3 besides. The
 * registries grow (3fff::/20 in 2024): the package is kept current rather than a list here, and the
 * /3 bound refuses whatever outside it the package has yet to name.
 */
export function isPublicAddress(address: string): boolean {
  // isIP first: ipaddr.js also reads IPv4 in octal, hex and fewer than four parts, which no resolver returns
  const family = isIP(address)
  if (family === 0 || !ipaddr.isValid(address)) return false
  const parsed = ipaddr.parse(address)
  if (parsed.range() !== 'unicast') return false
  return family === 4 || parsed.match(globalUnicastV6)
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
