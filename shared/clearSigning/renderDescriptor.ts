import { getAddress, isAddress, keccak256, toHex, type Address } from 'viem'

/**
 * A small ERC-7730 (v2 schema) wallet, shared by the descriptors' tests and the devnet wallet's prompt
 * (src/wallet/devnetWallet.ts): it checks a descriptor's binding context against
 * an eth_signTypedData_v4 request and renders the screen a clear-signing wallet would show, following
 * the specification's formats. Only what our descriptors use is implemented; anything else throws, so a
 * descriptor that grows a feature this file does not know fails loudly instead of rendering wrong.
 *
 * Rendering choices the specification leaves to the wallet, fixed here so the expected lines are exact:
 * - `raw` integers: plain decimal digits, no grouping.
 * - `tokenAmount`: value / 10^decimals in the shortest exact decimal (the spec's "1 DAI" for 1000000 at
 *   6 decimals), a space, the token's ticker, unless the wallet writes amounts its own way
 *   (`formatAmount`); an unknown token shows the raw value and "(Unknown token)".
 * - `date` with timestamp encoding: RFC 3339 (the spec's recommendation) in UTC, to the second, `Z`,
 *   unless the wallet shows moments its own way (`formatDate`), as a wallet for people does.
 * - `addressName`: the trusted name when the wallet has one, else the full EIP-55 address.
 * - `unit`: value / 10^decimals in the shortest exact decimal, then its base with no space (100 at 2 decimals with base % is 1%).
 * - `visible: "optional"` fields are shown (this wallet can show them).
 */

export type TypedDataField = { name: string; type: string }

/** What eth_signTypedData_v4 hands the wallet, parsed: integers may be decimal strings. */
export type TypedDataRequest = {
  types: Record<string, readonly TypedDataField[]>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

export type Deployment = { chainId: number; address: string }

type VisibleRule = 'always' | 'never' | 'optional' | { ifNotIn?: unknown[]; mustBe?: unknown[] }

export type FieldFormat = {
  $id?: string
  path?: string
  value?: unknown
  label?: string
  format?: string
  params?: Record<string, unknown>
  visible?: VisibleRule
}

export type Descriptor = {
  $schema?: string
  context: { $id?: string; eip712?: { domain?: Record<string, unknown>; deployments?: Deployment[]; domainSeparator?: string } }
  metadata?: { owner?: string }
  display: {
    formats: Record<string, { intent?: string | Record<string, string>; interpolatedIntent?: string; fields?: FieldFormat[] }>
  }
}

export type WalletKnowledge = {
  /** Token metadata the wallet trusts, by chain and address. */
  tokens: { chainId: number; address: Address; ticker: string; decimals: number }[]
  /** Trusted local names for addresses (the spec's `local` source). */
  names?: Record<Address, string>
  /** The signer (`@.from`). */
  from: Address
  /** How this wallet shows a moment (Unix seconds) to its user; RFC 3339 in UTC without it. */
  formatDate?: (seconds: number) => string
  /** How this wallet writes an amount of a token it knows, in base units with its ticker, to its user
   * ("248,00 USDC" in German); the shortest exact decimal and the ticker without it. It must write
   * every base unit the message carries: a rounded amount is not what is signed. */
  formatAmount?: (amount: bigint, token: { ticker: string; decimals: number }) => string
  /** A proxy's implementation on a chain (an ERC-1967 slot read), or undefined when the address is not
   * a known proxy: how a wallet matches a per-user contract against a deployment of its implementation. */
  implementationOf?: (chainId: number, address: Address) => Address | undefined
}

export type Screen = { intent: string; interpolatedIntent: string | undefined; lines: string[] }

/** EIP-712 encodeType of `primaryType`: the primary struct, then the structs it references, sorted by name. */
export function encodeType(types: Record<string, readonly TypedDataField[]>, primaryType: string): string {
  const deps = new Set<string>()
  const walk = (name: string) => {
    for (const field of types[name] ?? []) {
      const base = field.type.replace(/(\[[0-9]*\])+$/, '')
      if (types[base] && base !== primaryType && !deps.has(base)) {
        deps.add(base)
        walk(base)
      }
    }
  }
  walk(primaryType)
  const struct = (name: string) => `${name}(${(types[name] ?? []).map((f) => `${f.type} ${f.name}`).join(',')})`
  return [primaryType, ...[...deps].sort()].map(struct).join('')
}

/** The struct members a format key (an encodeType string) declares, by struct name. */
export function parseEncodeType(key: string): { primaryType: string; types: Record<string, TypedDataField[]> } {
  const types: Record<string, TypedDataField[]> = {}
  const structs = [...key.matchAll(/([A-Za-z_$][A-Za-z0-9_$:]*)\(([^()]*)\)/g)]
  if (structs.map((m) => m[0]).join('') !== key) throw new Error(`Not an encodeType string: ${key}`)
  for (const [, name, members] of structs) {
    types[name!] = members === '' ? [] : members!.split(',').map((member) => {
      const [type, fieldName, ...rest] = member.split(' ')
      if (!type || !fieldName || rest.length > 0) throw new Error(`Malformed member "${member}" in ${key}`)
      return { type, name: fieldName }
    })
  }
  return { primaryType: structs[0]![1]!, types }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && isAddress(a, { strict: false }) && isAddress(b, { strict: false })) {
    return a.toLowerCase() === b.toLowerCase()
  }
  if ((typeof a === 'number' || typeof a === 'bigint' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'bigint' || typeof b === 'string')) {
    try {
      return BigInt(a) === BigInt(b)
    } catch {
      return a === b
    }
  }
  return a === b
}

/**
 * The format entry that applies to `request`, or why none does. The wallet MUST check every binding
 * constraint before formatting: the domain's listed values, a deployment matching the domain's chainId
 * and verifyingContract (or the implementation that verifyingContract proxies to), and the type hash of
 * the format key equal to the message's.
 */
export function bindDescriptor(descriptor: Descriptor, request: TypedDataRequest, wallet: WalletKnowledge): { key: string } | { refused: string } {
  const eip712 = descriptor.context.eip712
  if (!eip712) return { refused: 'not an EIP-712 descriptor' }
  if (eip712.domainSeparator !== undefined) throw new Error('domainSeparator binding is not implemented here')
  for (const [name, value] of Object.entries(eip712.domain ?? {})) {
    if (!sameValue(request.domain[name], value)) return { refused: `domain ${name} is ${String(request.domain[name])}, not ${String(value)}` }
  }
  if (eip712.deployments) {
    const { chainId, verifyingContract } = request.domain
    if (chainId === undefined || typeof verifyingContract !== 'string') return { refused: 'the domain lacks chainId or verifyingContract' }
    const chain = Number(chainId)
    const matches = (address: string) => eip712.deployments!.some((d) => d.chainId === chain && sameValue(d.address, address))
    const implementation = wallet.implementationOf?.(chain, getAddress(verifyingContract))
    if (!matches(verifyingContract) && !(implementation && matches(implementation))) {
      return { refused: `${verifyingContract} on chain ${chain} is no listed deployment nor a proxy of one` }
    }
  }
  const typeHash = keccak256(toHex(encodeType(request.types, request.primaryType)))
  const key = Object.keys(descriptor.display.formats).find((k) => keccak256(toHex(k)) === typeHash)
  if (!key) return { refused: `no format for ${encodeType(request.types, request.primaryType)}` }
  return { key }
}

/** A path's type and value in the message, or a container value (`@.`). Only member names are used by
 * our descriptors; array and slice selectors throw. */
export function resolvePath(path: string, request: TypedDataRequest, wallet: WalletKnowledge): { type: string; value: unknown } {
  if (path.startsWith('@.')) {
    const name = path.slice(2)
    if (name === 'to') return { type: 'address', value: request.domain.verifyingContract }
    if (name === 'from') return { type: 'address', value: wallet.from }
    if (name === 'chainId') return { type: 'uint256', value: request.domain.chainId }
    if (name === 'value') return { type: 'uint256', value: 0n }
    throw new Error(`Unknown container path ${path}`)
  }
  if (path.startsWith('$.')) throw new Error(`Descriptor paths are not implemented here: ${path}`)
  const segments = (path.startsWith('#.') ? path.slice(2) : path).split('.')
  let type = request.primaryType
  let value: unknown = request.message
  for (const segment of segments) {
    if (segment.startsWith('[')) throw new Error(`Array selectors are not implemented here: ${path}`)
    const field = request.types[type]?.find((f) => f.name === segment)
    if (!field) throw new Error(`${path} names no field of ${request.primaryType}`)
    type = field.type
    value = (value as Record<string, unknown>)[segment]
  }
  return { type, value }
}

function decimalString(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

function formatField(field: FieldFormat, request: TypedDataRequest, wallet: WalletKnowledge): string {
  if (field.path === undefined) throw new Error(`Field ${field.label ?? '?'} has no path`)
  const { type, value } = resolvePath(field.path, request, wallet)
  const params = field.params ?? {}
  const chainId = Number(request.domain.chainId)
  switch (field.format ?? 'raw') {
    case 'raw':
      if (/^u?int/.test(type)) return BigInt(value as string).toString()
      if (type === 'address') return getAddress(value as string)
      return String(value)
    case 'tokenAmount': {
      const tokenAddress = params.tokenPath !== undefined ? resolvePath(params.tokenPath as string, request, wallet).value : params.token
      const amount = BigInt(value as string)
      const native = ([] as unknown[]).concat(params.nativeCurrencyAddress ?? []).some((address) => sameValue(address, tokenAddress))
      const written = (token: { ticker: string; decimals: number }) => (wallet.formatAmount ? wallet.formatAmount(amount, token) : `${decimalString(amount, token.decimals)} ${token.ticker}`)
      if (native) return written({ ticker: 'ETH', decimals: 18 })
      const token = wallet.tokens.find((t) => t.chainId === chainId && sameValue(t.address, tokenAddress))
      if (!token) return `${amount} (Unknown token)`
      // the spec's own example shows a value equal to the threshold as the message, so: at or above
      if (params.threshold !== undefined && amount >= BigInt(params.threshold as string)) return `${(params.message as string | undefined) ?? 'Unlimited'} ${token.ticker}`
      return written(token)
    }
    case 'date': {
      if (params.encoding !== 'timestamp') throw new Error(`Date encoding ${String(params.encoding)} is not implemented here`)
      const seconds = Number(BigInt(value as string))
      return wallet.formatDate ? wallet.formatDate(seconds) : new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    }
    case 'addressName': {
      const address = getAddress(value as string)
      return wallet.names?.[address] ?? address
    }
    case 'unit': {
      // ERC-7730's unit: the value scaled down by `decimals`, followed by its base (100 with 2 decimals and % is 1%)
      const decimals = Number(params.decimals ?? 0)
      return `${decimalString(BigInt(value as string), decimals)}${(params.base as string | undefined) ?? ''}`
    }
    default:
      throw new Error(`Format ${field.format} is not implemented here`)
  }
}

function isShown(field: FieldFormat, request: TypedDataRequest, wallet: WalletKnowledge): boolean {
  const rule = field.visible ?? 'always'
  if (rule === 'always' || rule === 'optional') return true
  if (rule === 'never') return false
  const { value } = resolvePath(field.path!, request, wallet)
  if (rule.mustBe) {
    if (!rule.mustBe.some((allowed) => sameValue(value, allowed))) throw new Error(`${field.path} must be one of ${rule.mustBe.join(', ')}`)
    return false
  }
  if (rule.ifNotIn) return !rule.ifNotIn.some((hidden) => sameValue(value, hidden))
  throw new Error(`Unknown visibility rule for ${field.path}`)
}

function interpolate(template: string, fields: FieldFormat[], request: TypedDataRequest, wallet: WalletKnowledge): string {
  return template.replace(/\{\{|\}\}|\{([^{}]+)\}/g, (token, path: string | undefined) => {
    if (token === '{{') return '{'
    if (token === '}}') return '}'
    const field = fields.find((f) => f.path === path)
    // an interpolated path MUST be a formatted field that is always visible
    if (!field || (field.visible !== undefined && field.visible !== 'always')) throw new Error(`{${path}} is not an always-visible field`)
    return formatField(field, request, wallet)
  })
}

/** What the wallet shows for `request` under `descriptor`: the intent, then "Label: value" per shown field. */
export function renderDescriptor(descriptor: Descriptor, request: TypedDataRequest, wallet: WalletKnowledge): Screen {
  const bound = bindDescriptor(descriptor, request, wallet)
  if ('refused' in bound) throw new Error(`The descriptor does not apply: ${bound.refused}`)
  const format = descriptor.display.formats[bound.key]!
  if (typeof format.intent !== 'string') throw new Error('Only a plain string intent is implemented here')
  const fields = format.fields ?? []
  const lines = fields.filter((field) => isShown(field, request, wallet)).map((field) => `${field.label}: ${formatField(field, request, wallet)}`)
  let interpolatedIntent: string | undefined
  if (format.interpolatedIntent !== undefined) {
    try {
      interpolatedIntent = interpolate(format.interpolatedIntent, fields, request, wallet)
    } catch {
      // the spec's fallback: a failed interpolation shows the plain intent, never a part of the sentence
      interpolatedIntent = undefined
    }
  }
  return { intent: format.intent, interpolatedIntent, lines }
}
