import { hexToBigInt, numberToHex, pad, type Address, type Hex } from 'viem'
import type { SimulationCall } from './simulatePayment'

/** InvoiceRegistry's `refundedAmount(uint256)` selector, written out (its test recomputes it from the
 * contract's ABI) so that the receipt hashes nothing to read it. */
export const refundedAmountSelector: Hex = '0x8cd799a2'

/** What the merchant has refunded of a paid invoice so far, as the pinned registry records it: read
 * through the pinned RPC (the chain reader's `call`), never through the payment service. */
export async function readRefunded(call: SimulationCall, registry: Address, id: bigint): Promise<bigint> {
  const data = `${refundedAmountSelector}${pad(numberToHex(id), { size: 32 }).slice(2)}` as Hex
  return hexToBigInt(await call({ to: registry, data }))
}
