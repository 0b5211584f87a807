import type { InvoiceMetadata } from '../../shared/metadata'

type Decimal = { digits: bigint; scale: number }

/** "12.5" → 125 over 10¹; a quantity as JSON gave it, in its shortest form ("0.1", "1e-7", "1e+21"). */
function decimal(value: string): Decimal | null {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(value)
  if (!match) return null
  const [, whole = '', fraction = '', exponent = '0'] = match
  const scale = fraction.length - Number(exponent)
  const digits = BigInt(whole + fraction)
  return scale < 0 ? { digits: digits * 10n ** BigInt(-scale), scale: 0 } : { digits, scale }
}

/**
 * Whether a line's quantity times its unit price is exactly its amount: "Qty 100 × 0.10 USDC =
 * 1,000.00 USDC" is not, however the lines add up. Exact decimals in bigint, no floating point and no
 * rounding: a line the record rounds is not one the page can show as checked. The quantity is a JSON
 * number, read in the shortest form that gives it back (the one its writer wrote, for any number a
 * person types).
 */
export function lineAddsUp({ quantity, unitPrice, amount }: InvoiceMetadata['lineItems'][number]): boolean {
  const [count, price, total] = [decimal(String(quantity)), decimal(unitPrice), decimal(amount)]
  if (!count || !price || !total) return false
  // count × price = total, each over its power of ten: compared at a common one
  return count.digits * price.digits * 10n ** BigInt(total.scale) === total.digits * 10n ** BigInt(count.scale + price.scale)
}
