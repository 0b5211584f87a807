import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { InvoiceMetadata } from '../../../shared/metadata'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { lineAddsUp } from '../../verify/lineAddsUp'
import { nameFinding, type NameFinding } from '../../verify/nameFinding'
import { receivedRecord } from './readableMetadata'

/** A party name that is not confirmed (`name` as shown), and why. */
export type NameNotConfirmed = { name: string; finding: NameFinding }

/** `verified`: the decrypted record is the one the merchant committed to on-chain, and every figure it
 * shows agrees with the chain and with itself: it bills what the chain says is owed (its amount in
 * words and in base units, and its lines adding up to it with their stated tax, each line its quantity
 * times its unit price), by the chain's due date, in the pinned token, on the pinned chain, to the
 * merchant the chain pays, under names that read as what they are. `unconfirmed`: the chain has not
 * been read yet, or the check has not arrived. `differs`: which of those it fails (`fields`), and the
 * party names that may pass for others (`names`). `withdrawn`: the chain disproved the service's
 * invoice, so its document is not shown at all. */
export type MetadataVerdict = { kind: 'verified' } | { kind: 'unconfirmed' } | { kind: 'withdrawn' } | { kind: 'differs'; fields: string[]; names: NameNotConfirmed[] }

type RecordFindings = { names: NameNotConfirmed[]; linesAddUp: boolean }

// The page renders the verdict on every change of state (and every second while a permit counts down):
// what depends on the record alone is found once per received record
const findings = new WeakMap<InvoiceMetadata, RecordFindings>()

function findingsOf(shown: InvoiceMetadata): RecordFindings {
  const received = receivedRecord(shown)
  let found = findings.get(received)
  if (!found) {
    const names = [
      { name: shown.merchant.name, finding: nameFinding(received.merchant.name) },
      { name: shown.payer.name, finding: nameFinding(received.payer.name) },
    ].filter((name): name is NameNotConfirmed => name.finding !== null)
    found = { names, linesAddUp: received.lineItems.every(lineAddsUp) }
    findings.set(received, found)
  }
  return found
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

/** Two spellings of one address, in either case. Not sameAddress.ts: viem's checksum would take its
 * keccak out of the page's first chunk into one it shares with the verifiers, a request of its own
 * before the page can start (test/size/payPageSize.test.ts). */
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** The verdict on a record as the page shows it (readableMetadata.ts), judged as the record received:
 * `hash` is the received record's (hashMetadata, taken by the page for the same reason), and so are
 * the names, whatever was made visible. */
export function metadataVerdict(metadata: InvoiceMetadata, hash: string, invoice: ShownInvoice, deployment: PinnedDeployment): MetadataVerdict {
  if (invoice.disproved) return { kind: 'withdrawn' }
  if (!invoice.confirmed) return { kind: 'unconfirmed' }
  const { token, merchant } = metadata
  const decimals = deployment.tokenDecimals
  const owed = BigInt(invoice.amount)
  const { names, linesAddUp } = findingsOf(metadata)
  const fields = [
    hash.toLowerCase() !== invoice.metaHash.toLowerCase() && 'metaHash',
    metadata.amountRaw !== owed.toString() && 'amount',
    // the amount the record shows in words must be the one it commits to in base units
    exactUnits(metadata.amount, decimals) !== owed && 'total shown',
    linesTotal(metadata, decimals) !== owed && 'line items',
    !linesAddUp && 'quantity × unit price',
    metadata.dueAt.slice(0, 10) !== dueDay(invoice.dueAt) && 'due date',
    !sameAddress(token.address, deployment.token) && 'token',
    (token.symbol !== deployment.tokenSymbol || token.decimals !== deployment.tokenDecimals) && 'token decimals or symbol',
    token.chainId !== deployment.chainId && 'chain',
    !(merchant.walletAddress && sameAddress(merchant.walletAddress, invoice.merchant)) && 'merchant',
  ].filter((field) => field !== false)
  return fields.length === 0 && names.length === 0 ? { kind: 'verified' } : { kind: 'differs', fields, names }
}
