import { formatUnits } from '../formatUnits'
import type { InvoiceMetadata } from '../../../shared/metadata'

/** Subtotal and tax added up exactly (in base units), as decimal strings; tax is null when no line has any. */
export function documentTotals(metadata: InvoiceMetadata): { subtotal: string; tax: string | null } {
  const { decimals } = metadata.token
  const sum = (values: string[]) => formatUnits(values.reduce((total, value) => total + baseUnits(value, decimals), 0n), decimals)
  const taxes = metadata.lineItems.flatMap((item) => (item.taxAmount === undefined ? [] : [item.taxAmount]))
  return { subtotal: sum(metadata.lineItems.map((item) => item.amount)), tax: taxes.length > 0 ? sum(taxes) : null }
}

/** "12.5" → 12500000 at 6 decimals. The metadata schema admits only plain decimals; digits beyond the
 * token's precision cannot be paid, so they are cut (viem's parseUnits, which rounds, costs the page 1 KB). */
function baseUnits(decimal: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.')
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
}
