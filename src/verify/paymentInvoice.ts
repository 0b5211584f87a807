import type { Address } from 'viem'
import type { WireInvoice } from '../../shared/wire'
import type { OnchainInvoice } from '../chain/readInvoice'

/** The invoice as the payer saw it before paying, confirmed on-chain: what every later answer is held
 * to. The vault pays only an invoice the registry holds with exactly this number, merchant, token and
 * amount, at exactly the fee rate the registry charges the merchant now (read from the chain), so the
 * operation's call must name these same figures. */
export type PaymentInvoice = { id: bigint; invoiceNumber: bigint; merchant: Address; amount: bigint; token: Address; feeBps: number }

/** From an invoice already held to the registry's record (confirmInvoice): its figures are the chain's,
 * and `feeBps` the registry's feeBpsFor(merchant), read from the chain. */
export function paymentInvoice(invoice: WireInvoice, feeBps: number): PaymentInvoice {
  return { id: BigInt(invoice.id), invoiceNumber: BigInt(invoice.invoiceNumber), merchant: invoice.merchant, amount: BigInt(invoice.amount), token: invoice.token.address, feeBps }
}

/** From the registry's record itself, for a verifier that reads the chain on its own (the host side of
 * the wallet bridge). */
export function onchainPaymentInvoice(id: bigint, record: Pick<OnchainInvoice, 'invoiceNumber' | 'merchant' | 'amount' | 'token'>, feeBps: number): PaymentInvoice {
  return { id, invoiceNumber: record.invoiceNumber, merchant: record.merchant, amount: record.amount, token: record.token, feeBps }
}
