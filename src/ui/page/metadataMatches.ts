import { hashMetadata, type InvoiceMetadata } from '../../shared/metadata'
import type { WireInvoice } from '../../shared/wire'

/** The decrypted record is the one the merchant committed to on-chain: the server cannot swap in
 * other parties, lines or totals without this failing. */
export function metadataMatches(metadata: InvoiceMetadata, invoice: WireInvoice): boolean {
  return hashMetadata(metadata).toLowerCase() === invoice.metaHash.toLowerCase()
}
