import type { Address } from 'viem'
import type { WireInvoice } from '../../shared/wire'

/** The invoice as the payer saw it before paying: what every later answer is held to. */
export type PaymentInvoice = { id: bigint; amount: bigint; token: Address }

export function paymentInvoice(invoice: WireInvoice): PaymentInvoice {
  return { id: BigInt(invoice.id), amount: BigInt(invoice.amount), token: invoice.token.address }
}
