import type { InvoiceMetadata } from '../../../shared/metadata'
import { plainText } from '../../verify/plainText'

// every view asks on every render (the server's too): one shown record per received record
const shownRecords = new WeakMap<InvoiceMetadata, InvoiceMetadata>()
const receivedRecords = new WeakMap<InvoiceMetadata, InvoiceMetadata>()

/**
 * The record as the page shows it: every text with its hidden and direction-changing characters made
 * visible (`plainText`). The same object when there was nothing to show.
 */
export function readableMetadata(metadata: InvoiceMetadata): InvoiceMetadata {
  // a shown record is shown as it is: its received record stays the one judged
  if (receivedRecords.has(metadata)) return metadata
  let shown = shownRecords.get(metadata)
  if (!shown) {
    shown = readable(metadata) as InvoiceMetadata
    shownRecords.set(metadata, shown)
    receivedRecords.set(shown, metadata)
  }
  return shown
}

/** The record as received, for a shown one: what the merchant committed to, and what is judged. */
export function receivedRecord(shown: InvoiceMetadata): InvoiceMetadata {
  return receivedRecords.get(shown) ?? shown
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
