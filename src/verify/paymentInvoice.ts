import type { Address } from 'viem'
import type { WireInvoice } from '../../shared/wire'
import type { OnchainInvoice } from '../chain/readInvoice'

/** The invoice as the payer saw it before paying, confirmed on-chain: what every later answer is held
 * to. The vault pays only an invoice the registry holds with exactly this merchant, token and amount,
 * so the operation's call must name these same figures. */
export type PaymentInvoice = { id: bigint; merchant: Address; amount: bigint; token: Address }

/** From an invoice already held to the registry's record (confirmInvoice): its figures are the chain's. */
export function paymentInvoice(invoice: WireInvoice): PaymentInvoice {
  return { id: BigInt(invoice.id), merchant: invoice.merchant, amount: BigInt(invoice.amount), token: invoice.token.address }
}

/** From the registry's record itself, for a verifier that reads the chain on its own (the host side of
 * the wallet bridge). */
export function onchainPaymentInvoice(id: bigint, record: Pick<OnchainInvoice, 'merchant' | 'amount' | 'token'>): PaymentInvoice {
  return { id, merchant: record.merchant, amount: record.amount, token: record.token }
}
