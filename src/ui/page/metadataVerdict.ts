import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { InvoiceMetadata } from '../../../shared/metadata'
import { hashMetadata } from '../../../shared/metadataHash'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { mixesScripts, plainText } from '../../verify/plainText'
import { sameAddress } from '../../verify/sameAddress'

/** `verified`: the decrypted record is the one the merchant committed to on-chain, and every figure it
 * shows agrees with the chain: it bills what the chain says is owed (its amount in words and in base
 * units, and its lines adding up to it with their stated tax), by the chain's due date, in the pinned
 * token, on the pinned chain, to the merchant the chain pays. `unconfirmed`: the chain has not been
 * read yet. `differs`: which of those it fails (`fields`), and the party names that mix lookalike
 * alphabets (`names`, as shown). `withdrawn`: the chain disproved the service's invoice, so its
 * document is not shown at all. */
export type MetadataVerdict = { kind: 'verified' } | { kind: 'unconfirmed' } | { kind: 'withdrawn' } | { kind: 'differs'; fields: string[]; names: string[] }

// The page renders the verdict on every change of state (and every second while a permit counts down):
// the record's hash, the one costly part, is taken once per decrypted record
const hashes = new WeakMap<InvoiceMetadata, string>()

function metadataHash(metadata: InvoiceMetadata): string {
  let hash = hashes.get(metadata)
  if (hash === undefined) hashes.set(metadata, (hash = hashMetadata(metadata).toLowerCase()))
  return hash
}

/**
 * The record as the page shows it: every text with its hidden and direction-changing characters made
 * visible (`plainText`). Judged as the record the merchant committed to: its hash is the received
 * record's, whatever was made visible. The same object when there was nothing to show.
 */
export function readableMetadata(metadata: InvoiceMetadata): InvoiceMetadata {
  const shown = readable(metadata) as InvoiceMetadata
  if (shown !== metadata) hashes.set(shown, metadataHash(metadata))
  return shown
}

function readable(value: unknown): unknown {
  if (typeof value === 'string') return plainText(value)
  if (Array.isArray(value)) {
    const items = value.map(readable)
    return items.some((item, index) => item !== value[index]) ? items : value
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, readable(item)] as const)
    return entries.some(([key, item]) => item !== (value as Record<string, unknown>)[key]) ? Object.fromEntries(entries) : value
  }
  return value
}

/** "12.5" → 12500000 at 6 decimals; null when it has more digits than the token can hold (a figure
 * no payment can equal). */
function exactUnits(decimal: string, decimals: number): bigint | null {
  const [whole = '0', fraction = ''] = decimal.split('.')
  if (/[^0]/.test(fraction.slice(decimals))) return null
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
}

/** The lines' amounts with their stated tax, added up in base units; null when one cannot be paid exactly. */
function linesTotal(metadata: InvoiceMetadata, decimals: number): bigint | null {
  let total = 0n
  for (const item of metadata.lineItems) {
    for (const figure of item.taxAmount === undefined ? [item.amount] : [item.amount, item.taxAmount]) {
      const units = exactUnits(figure, decimals)
      if (units === null) return null
      total += units
    }
  }
  return total
}

/** The chain's due date (Unix seconds) as a UTC day, as the record writes it (ISO 8601, day first). */
function dueDay(dueAt: string): string {
  return new Date(Number(dueAt) * 1000).toISOString().slice(0, 10)
}

export function metadataVerdict(metadata: InvoiceMetadata, invoice: ShownInvoice, deployment: PinnedDeployment): MetadataVerdict {
  if (invoice.disproved) return { kind: 'withdrawn' }
  if (!invoice.confirmed) return { kind: 'unconfirmed' }
  const { token, merchant } = metadata
  const decimals = deployment.tokenDecimals
  const owed = BigInt(invoice.amount)
  const fields = [
    metadataHash(metadata) !== invoice.metaHash.toLowerCase() && 'metaHash',
    metadata.amountRaw !== owed.toString() && 'amount',
    // the amount the record shows in words must be the one it commits to in base units
    exactUnits(metadata.amount, decimals) !== owed && 'total shown',
    linesTotal(metadata, decimals) !== owed && 'line items',
    metadata.dueAt.slice(0, 10) !== dueDay(invoice.dueAt) && 'due date',
    !sameAddress(token.address, deployment.token) && 'token',
    (token.symbol !== deployment.tokenSymbol || token.decimals !== deployment.tokenDecimals) && 'token decimals or symbol',
    token.chainId !== deployment.chainId && 'chain',
    !(merchant.walletAddress && sameAddress(merchant.walletAddress, invoice.merchant)) && 'merchant',
  ].filter((field) => field !== false)
  const names = [metadata.merchant.name, metadata.payer.name].filter(mixesScripts)
  return fields.length === 0 && names.length === 0 ? { kind: 'verified' } : { kind: 'differs', fields, names }
}
