import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { InvoiceMetadata } from '../../../shared/metadata'
import { hashMetadata } from '../../../shared/metadataHash'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { sameAddress } from '../../verify/sameAddress'

/** `verified`: the decrypted record is the one the merchant committed to on-chain, and it bills what
 * the chain says is owed, in the pinned token, on the pinned chain, to the merchant the chain pays.
 * `unconfirmed`: the chain has not been read yet. `differs`: which of those it fails. */
export type MetadataVerdict = { kind: 'verified' } | { kind: 'unconfirmed' } | { kind: 'differs'; fields: string[] }

// The page renders the verdict on every change of state (and every second while a permit counts down):
// the record's hash, the one costly part, is taken once per decrypted record
const hashes = new WeakMap<InvoiceMetadata, string>()

function metadataHash(metadata: InvoiceMetadata): string {
  let hash = hashes.get(metadata)
  if (hash === undefined) hashes.set(metadata, (hash = hashMetadata(metadata).toLowerCase()))
  return hash
}

export function metadataVerdict(metadata: InvoiceMetadata, invoice: ShownInvoice, deployment: PinnedDeployment): MetadataVerdict {
  if (!invoice.confirmed) return { kind: 'unconfirmed' }
  const { token, merchant } = metadata
  const fields = [
    metadataHash(metadata) !== invoice.metaHash.toLowerCase() && 'metaHash',
    metadata.amountRaw !== BigInt(invoice.amount).toString() && 'amount',
    !sameAddress(token.address, deployment.token) && 'token',
    (token.symbol !== deployment.tokenSymbol || token.decimals !== deployment.tokenDecimals) && 'token decimals or symbol',
    token.chainId !== deployment.chainId && 'chain',
    !(merchant.walletAddress && sameAddress(merchant.walletAddress, invoice.merchant)) && 'merchant',
  ].filter((field) => field !== false)
  return fields.length === 0 ? { kind: 'verified' } : { kind: 'differs', fields }
}
